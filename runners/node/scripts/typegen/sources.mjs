// The datasets a build models: built-ins, registered user datasets, test fixtures.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ident, parse } from "./types.mjs";

const sha = (...texts) => {
  const h = createHash("sha256");
  for (const t of texts) h.update(t);
  return h.digest("hex");
};

/** Built-ins: one entry per dataset name (pb-vs-msgpack's types.json holds four). */
export function builtinSources(datasetsDir, schemasDir) {
  if (!existsSync(datasetsDir)) return [];
  return readdirSync(datasetsDir)
    .filter((d) => existsSync(join(datasetsDir, d, "types.json")))
    .sort()
    .flatMap((dir) => {
      const text = readFileSync(join(datasetsDir, dir, "types.json"), "utf8");
      const raw = JSON.parse(text);
      const names = typeof raw.message === "string" ? { [dir]: raw.message } : raw.message;
      return Object.entries(names).map(([name, message]) => ({
        id: ident(name.replace(/-/g, "_")),
        name,
        kind: "builtin",
        family: dir,
        types: raw.types ?? {},
        message,
        fingerprint: sha(text),
        protoRoot: raw.schema?.root ?? null,
        overrides: raw.schema?.field_types?.protobuf ?? {},
        fbs: join(schemasDir, dir, `${dir.replace(/-/g, "_")}.fbs`),
      }));
    });
}

export function userSources(userDir) {
  if (!existsSync(userDir)) return [];
  return readdirSync(userDir)
    .filter((d) => existsSync(join(userDir, d, "dataset.json")))
    .sort()
    .map((dir) => {
      const meta = JSON.parse(readFileSync(join(userDir, dir, "dataset.json"), "utf8"));
      const text = readFileSync(join(userDir, dir, meta.types), "utf8");
      const raw = JSON.parse(text);
      const proto = meta.schemas?.proto;
      const protoPath = proto?.path ? join(userDir, dir, proto.path) : null;
      const protoText = protoPath && existsSync(protoPath) ? readFileSync(protoPath, "utf8") : "";
      return {
        id: `user_${ident(meta.name)}`,
        name: meta.name,
        kind: "user",
        types: raw.types ?? {},
        message: raw.message,
        fingerprint: sha(text),
        proto: protoText ? { path: protoPath, message: proto.message ?? "Root" } : null,
        protoWhy: proto?.unavailable ?? "protobuf: the dataset has no .proto schema",
        fbs: meta.schemas?.fbs?.path ? join(userDir, dir, meta.schemas.fbs.path) : null,
        fbsRoot: meta.schemas?.fbs?.root ?? "Root",
        fbsWhy: meta.schemas?.fbs?.unavailable ?? "flatbuffers: the dataset has no .fbs schema",
        protoRoot: null,
        overrides: {},
      };
    });
}

/** The runner's own test fixtures (test/fixtures/NAME.types.json, NAME.proto and NAME.fbs). */
export function fixtureSources(here) {
  const dir = join(here, "test/fixtures");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".types.json"))
    .sort()
    .map((f) => {
      const stem = f.slice(0, -".types.json".length);
      const text = readFileSync(join(dir, f), "utf8");
      const raw = JSON.parse(text);
      const protoPath = join(dir, `${stem}.proto`);
      const top = parse(raw.message, raw.types ?? {});
      return {
        id: `fixture_${ident(stem)}`,
        name: `test fixture ${stem}`,
        kind: "user",
        types: raw.types ?? {},
        message: raw.message,
        fingerprint: sha(text),
        proto: existsSync(protoPath)
          ? { path: protoPath, message: top.kind === "record" ? top.name : "Root" }
          : null,
        protoWhy: "protobuf: the fixture has no .proto",
        fbs: existsSync(join(dir, `${stem}.fbs`)) ? join(dir, `${stem}.fbs`) : null,
        fbsRoot: top.kind === "record" ? top.name : "Root",
        fbsWhy: "flatbuffers: the fixture has no .fbs",
        protoRoot: null,
        overrides: {},
      };
    });
}
