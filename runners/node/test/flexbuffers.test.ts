// FlexBuffers: values written with their declared types, what cannot be written, and
// the package reader's known failures (reported as failed checks, never as crashes).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { toReference } from "flatbuffers/js/flexbuffers.js";
import { resolveDataset } from "../src/datasets.js";
import { loadNative, type Dataset } from "../src/model.js";
import { REGISTRY } from "../src/serializers/index.js";
import { S1, canonical, run, statusOf, userData } from "./helpers.js";

const record = (fields: [string, string][]) => ({
  message: "R",
  types: { R: { record: fields }, E: { enum: ["A", "B"] } },
});

function encodeFirst(ref: ReturnType<typeof userData>): Uint8Array {
  const ds = resolveDataset(ref) as Dataset;
  const codec = REGISTRY.flexbuffers.codec(ds);
  return codec.encode(codec.prepare!(loadNative(ref.data, ds).items[0]));
}

test("S1: a vector of maps keyed by field name, the enum as its symbol", () => {
  const data = canonical("android-users", S1);
  const r = run("flexbuffers", { name: "android-users", kind: "builtin", data });
  assert.equal(r.reply.status, "ok", r.reply.check?.detail);
  assert.equal(r.reply.sizes.encoded, 1311);
});

test("declared types: integral float64 as Float, uint64 as UInt, enum as String", () => {
  const ref = userData(
    "flex-types",
    record([
      ["f", "float64"],
      ["u", "uint64"],
      ["e", "E"],
      ["b", "bytes"],
    ]),
    [{ f: 2.0, u: 7, e: 1, b: "AAEC" }],
  );
  assert.equal(statusOf("flexbuffers", ref), "ok");
  const bytes = encodeFirst(ref);
  const root = toReference(bytes.buffer as ArrayBuffer);
  // Reference#get takes keys too (its typings say index only).
  const field = (k: string) => root.get(k as unknown as number);
  assert.ok(field("f").isFloat());
  assert.equal(field("u").intValue(), 7);
  assert.equal(field("e").stringValue(), "B");
  assert.deepEqual([...field("b").blobValue()!], [0, 1, 2]);
});

test("a key with NUL and an integer beyond 64 bits are not applicable with the path", () => {
  const nul = userData("flex-nul", record([["m", "map<string,int32>"]]), [{ m: { "a\u0000": 1 } }]);
  assert.equal(
    statusOf("flexbuffers", nul),
    'not_applicable: flexbuffers: key with NUL at $.m["a\\u0000"]',
  );
  // An exact integer beyond 64 bits: the canonical file is written by hand.
  const big = userData("flex-big", { message: "R", types: { R: { record: [["n", "bigint"]] } } }, [
    { n: 0 },
  ]);
  writeFileSync(
    big.data,
    readFileSync(big.data, "utf8").replace('"n":0', '"n":18446744073709551616'),
  );
  assert.equal(
    statusOf("flexbuffers", big),
    "not_applicable: flexbuffers: 18446744073709551616 exceeds 64 bits at $.n",
  );
});

test("the package's reader: 0.0 / -0.0 / NaN read as null, 64-bit widths throw (failed checks)", () => {
  const floats = record([["x", "float64"]]);
  for (const x of [0.0, "-0.0", "NaN"]) {
    const ref = userData("flex-zero", floats, [{ x }]);
    const want = x === "NaN" ? "NaN" : x === 0 ? "0" : "-0";
    assert.equal(
      statusOf("flexbuffers", ref),
      `check_failed: $.x: null (null) != ${want} (number)`,
    );
  }
  // A container holding a 64-bit value: google/flatbuffers#8009 (the reader mixes BigInt and number).
  const wide = userData(
    "flex-wide",
    record([
      ["t", "int64"],
      ["s", "string"],
    ]),
    [{ t: 2 ** 40, s: "x" }],
  );
  assert.match(
    statusOf("flexbuffers", wide),
    /^check_failed: cannot decode: \$: TypeError: Cannot mix BigInt/,
  );
});
