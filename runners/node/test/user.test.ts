// User datasets (protocol section 7): a hand-made types.json, canonical file and schemas.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { BSON } from "bson";
import { dir, statusOf, userData } from "./helpers.js";
import { loadNative, type Dataset } from "../src/model.js";
import { RUNNER_DIR } from "../src/paths.js";
import { REGISTRY } from "../src/serializers/index.js";
import { resolveDataset } from "../src/datasets.js";

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

test("int64 beyond 2^53 stays exact (BigInt) or is not applicable with its path", () => {
  const ref = dataset("user-big", "9007199254740993", '"NaN"');
  for (const ser of [
    "v8",
    "msgpackr",
    "msgpack-js",
    "bson",
    "protobufjs-reflect",
    "protobufjs",
    "handwritten",
  ])
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

/** Nulls, optional fields null in some records (missing in the user's file), empty lists. */
function edgeDataset() {
  const data = join(dir, "edge.json");
  const items = [
    { id: 1, n: null, opt: "x", empty: [], rec: { x: 1, y: null }, m: { k: 1.5, "": 2.0 } },
    { id: 2, n: null, opt: null, empty: [], rec: null, m: {} },
    { id: 3, n: null, opt: null, empty: [], rec: { x: -1, y: null }, m: { "a b": 0.25 } },
  ].map((r, i) => ({ ...r, tags: i ? [] : ["a", "\u0000"], when: i === 1 ? 3 : null, f: !i }));
  for (const r of items) Object.assign(r, { extra: r.id === 2 ? { deep: [1, 2] } : null });
  writeFileSync(
    data,
    JSON.stringify({
      format: "serbench-dataset",
      version: 1,
      name: "edge",
      scenario: "user",
      scale: "user",
      framing: "stream",
      count: 3,
      items,
    }),
  );
  return {
    name: "edge",
    kind: "user" as const,
    data,
    types: join(fixtures, "edge.types.json"),
    schemas: {
      proto: { path: join(fixtures, "edge.proto"), message: "Edge" },
      avsc: { path: join(fixtures, "edge.avsc") },
      fbs: { path: join(fixtures, "edge.fbs"), root: "Edge" },
    },
  };
}

test("unset fields with presence read back as null, never-set lists as empty", () => {
  const ref = edgeDataset();
  for (const ser of Object.keys(REGISTRY).filter((s) => REGISTRY[s].userDatasets === null))
    assert.equal(statusOf(ser, ref), "ok", ser);
});

test("the orchestrator's unavailable reason is passed on as written", () => {
  const ref = {
    ...dataset("user-unavailable", "1", "2.5"),
    schemas: {
      proto: { unavailable: "protobuf: $.x is optional<list<int32>>" },
      avsc: { unavailable: "avro: $.x reason" },
    },
  };
  assert.equal(
    statusOf("protobufjs-reflect", ref),
    "not_applicable: protobuf: $.x is optional<list<int32>>",
  );
  assert.equal(statusOf("avsc", ref), "not_applicable: avro: $.x reason");
});

test("bson: a record is the document itself; other top-level values are not applicable", () => {
  const ref = dataset("user-doc", "7", "2.5");
  const ds = resolveDataset(ref) as Dataset;
  const codec = REGISTRY.bson.codec(ds);
  const native = loadNative(ref.data, ds).items[0];
  const doc = BSON.deserialize(codec.encode(codec.prepare!(native)));
  assert.deepEqual(Object.keys(doc), [
    "id",
    "score",
    "blob",
    "note",
    "tags",
    "attrs",
    "kind",
    "at",
  ]);

  const list = userData("top-list", { message: "list<int32>", types: {} }, [[1, 2]]);
  assert.equal(statusOf("bson", list), "not_applicable: bson: top-level value must be a document");
  assert.equal(statusOf("msgpackr", list), "ok");
});

test("bson: a key holding U+0000 is not applicable with its path", () => {
  const ref = userData(
    "nul-key",
    { message: "R", types: { R: { record: [["m", "map<string,int32>"]] } } },
    [{ m: { ok: 1, "a\u0000": 2 } }],
  );
  assert.equal(statusOf("bson", ref), 'not_applicable: bson: key with NUL at $.m["a\\u0000"]');
});

test("typed rows on types the build has not seen say how to build their model", () => {
  const ref = userData("unbuilt", { message: "R", types: { R: { record: [["q", "int32"]] } } }, [
    { q: 1 },
  ]);
  for (const ser of ["handwritten", "protobufjs", "flatbuffers"])
    assert.equal(
      statusOf(ser, ref),
      "not_applicable: typed model not built for this dataset's types: run `serbench build -r node`",
      ser,
    );
  assert.equal(statusOf("msgpackr", ref), "ok");
});
