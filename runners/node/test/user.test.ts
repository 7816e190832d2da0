// User datasets (protocol section 7): a hand-made types.json, canonical file and schemas.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { dir, run } from "./helpers.js";
import { RUNNER_DIR } from "../src/paths.js";

const fixtures = join(RUNNER_DIR, "test/fixtures");
const items = (id: string, score: string) =>
  `[{"id":${id},"score":${score},"blob":"AAEC/w==","note":null,"tags":["x","","\\u2028"],` +
  `"attrs":{"10":1,"":-2},"kind":1,"at":1700000000123},` +
  `{"id":-5,"score":1.5,"blob":"","note":"n\\u0000","tags":[],"attrs":{},"kind":0,"at":0}]`;

function dataset(name: string, id: string, score: string) {
  const data = join(dir, `${name}.json`);
  writeFileSync(
    data,
    `{"format":"serbench-dataset","version":1,"name":"${name}","scenario":"user","scale":"user",` +
      `"framing":"stream","count":2,"items":${items(id, score)}}`,
  );
  return {
    name,
    kind: "user" as const,
    data,
    types: join(fixtures, "user.types.json"),
    schemas: {
      proto: { path: join(fixtures, "user.proto"), message: "Root" },
      avsc: { path: join(fixtures, "user.avsc") },
      fbs: { unavailable: "flatbuffers: not written for this test" },
    },
  };
}

const statusOf = (ser: string, ref: ReturnType<typeof dataset>) => {
  try {
    const r = run(ser, ref);
    return r.reply.status === "ok" ? "ok" : `check_failed: ${r.reply.check.detail}`;
  } catch (e) {
    return `not_applicable: ${(e as Error).message}`;
  }
};

test("int64 beyond 2^53 stays exact (BigInt) or is not applicable with its path", () => {
  const ref = dataset("user-big", "9007199254740993", '"NaN"');
  for (const ser of ["v8", "msgpackr", "msgpack-js", "bson", "protobufjs-reflect"])
    assert.equal(statusOf(ser, ref), "ok", ser);
  assert.match(statusOf("json", ref), /^not_applicable: json: 9007199254740993 .* at \$\.id$/);
  assert.match(statusOf("avsc", ref), /^not_applicable: avsc: 9007199254740993 .* at \$\.id$/);
});

test("schema formats through their dynamic APIs; -0.0 is kept or reported", () => {
  const ref = dataset("user-small", "42", "-0.0");
  for (const ser of ["v8", "avsc", "protobufjs-reflect", "bson"])
    assert.equal(statusOf(ser, ref), "ok", ser);
  // JSON.stringify, msgpackr and cbor-x write -0 as 0: the check catches it, with the path.
  for (const ser of ["json", "msgpackr", "cbor-x"])
    assert.equal(statusOf(ser, ref), "check_failed: message 0: $.score: 0 != -0", ser);
});
