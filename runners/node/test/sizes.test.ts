// Byte-exact sizes of the seed experiments, and checks that fail when they must.
import assert from "node:assert/strict";
import { test } from "node:test";
import { prepareCell } from "../src/cell.js";
import { resolveDataset } from "../src/datasets.js";
import type { Dataset } from "../src/model.js";
import { REGISTRY } from "../src/serializers/index.js";
import { S1, S2, canonical, run } from "./helpers.js";

test("S1: protobuf 560 bytes, the seed's MessagePack layout 383 bytes", () => {
  const data = canonical("android-users", S1);
  for (const [ser, size] of [
    ["protobufjs", 560],
    ["protobufjs-reflect", 560],
    ["msgpackr-positional", 383],
  ] as const) {
    const r = run(ser, { name: "android-users", kind: "builtin", data });
    assert.equal(r.reply.status, "ok", `${ser}: ${r.reply.check?.detail}`);
    assert.equal(r.reply.sizes.encoded, size, ser);
  }
});

test("S2: per-message sizes (PB with its varint prefix, MP concatenated)", () => {
  const expected: Record<string, [number, number]> = {
    "pb-vs-msgpack-test1": [5, 3],
    "pb-vs-msgpack-test2": [23, 3],
    "pb-vs-msgpack-test3": [8197, 8195],
    "pb-vs-msgpack-test4": [8230, 8202],
  };
  const count = 64;
  for (const [name, [pb, mp]] of Object.entries(expected)) {
    const data = canonical(name, [S2[name]], count, "stream");
    const p = run("protobufjs", { name, kind: "builtin", data });
    const m = run("msgpackr-positional", { name, kind: "builtin", data });
    assert.equal(p.reply.status, "ok", p.reply.check?.detail);
    assert.equal(m.reply.status, "ok", m.reply.check?.detail);
    assert.equal(p.reply.sizes.encoded, pb * count, `${name} protobuf`);
    assert.equal(m.reply.sizes.encoded, mp * count, `${name} msgpack`);
  }
});

test("a tampered check file fails the check with the first differing path", () => {
  const data = canonical("android-users", S1);
  const tampered = structuredClone(S1) as { age: number }[][];
  tampered[0][17].age += 1;
  const check = canonical("android-users", tampered);
  for (const ser of [
    "json",
    "v8",
    "msgpackr",
    "protobufjs",
    "avsc",
    "flatbuffers",
    "flexbuffers",
    "copy",
  ]) {
    const r = run(ser, { name: "android-users", kind: "builtin", data, check_data: check });
    assert.equal(r.reply.status, "check_failed", ser);
    assert.match(r.reply.check!.detail, /^\$\[17\]\.age: \d+ != \d+/, ser);
    assert.equal(r.ops.size, 0, "a failed cell has no operations");
  }
});

test("verify=false encodes once: no check data, no decode, no codec sizes", () => {
  const data = canonical("android-users", S1);
  const tampered = structuredClone(S1) as { age: number }[][];
  tampered[0][17].age += 1;
  const check = canonical("android-users", tampered);
  const ref = { name: "android-users", kind: "builtin" as const, data };
  const full = run("json", ref).reply;
  const ds = resolveDataset(ref) as Dataset;
  const codec = REGISTRY.json.codec(ds);
  const calls = { encode: 0, decode: 0 };
  const counted = {
    ...codec,
    encode: (m: unknown) => (calls.encode++, codec.encode(m)),
    decode: (b: Uint8Array) => (calls.decode++, codec.decode(b)),
  };
  const ops = ["encode", "decode", "encode+zstd"];
  const r = prepareCell(counted, ds, data, check, ops, null, null, false);
  assert.deepEqual(r.reply, {
    status: "ok",
    check: null,
    messages: 1,
    sizes: { encoded: full.sizes.encoded },
    unsupported: [],
    error: null,
  });
  // One encode: a codec size would have encoded again.
  assert.deepEqual(calls, { encode: 1, decode: 0 });
  assert.deepEqual([...r.ops.keys()], ops);
  for (const op of r.ops.values()) op.op();
  assert.deepEqual(calls, { encode: 3, decode: 1 });
});

test("every serializer round-trips S1 and S2 test4", () => {
  const au = canonical("android-users", S1);
  const t4 = canonical("pb-vs-msgpack-test4", [S2["pb-vs-msgpack-test4"]], 3, "stream");
  for (const ser of [
    "noop",
    "copy",
    "handwritten",
    "json",
    "v8",
    "msgpackr",
    "msgpackr-records",
    "msgpack-js",
    "cbor-x",
    "bson",
    "avsc",
    "flatbuffers",
    "flatbuffers-access",
    "flexbuffers",
  ]) {
    for (const [name, data] of [
      ["android-users", au],
      ["pb-vs-msgpack-test4", t4],
    ]) {
      const r = run(ser, { name, kind: "builtin", data }, [
        "encode",
        "decode",
        "encode+zstd",
        "lz4+decode",
      ]);
      assert.equal(r.reply.status, "ok", `${ser} ${name}: ${r.reply.check?.detail}`);
      for (const op of r.ops.values()) op.op();
    }
  }
});

test("every serializer round-trips mesh, a built-in known only from its types.json", () => {
  // Multiples of 2^-24 in (0, 1), as the generator draws them (FlexBuffers' toObject
  // reads 0.0 as null: NOTES.md).
  const v = (k: number) => ({ x: k / 2 ** 24, y: (k + 1) / 2 ** 24, z: 0.5 + k / 2 ** 24 });
  const triangles = [1, 2, 3].map((t) => ({
    v0: v(t),
    v1: v(t + 9),
    v2: v(t + 99),
    normal: v(t * 7),
  }));
  const data = canonical("mesh", [{ triangles }]);
  for (const ser of Object.keys(REGISTRY)) {
    const r = run(ser, { name: "mesh", kind: "builtin", data });
    assert.equal(r.reply.status, "ok", `${ser}: ${r.reply.check?.detail}`);
  }
  // 12 float32 per triangle: after a 4-byte count; protobuf 5 bytes a float, 2 a vector
  // and 2 a triangle (tag and length).
  const size = (ser: string) =>
    run(ser, { name: "mesh", kind: "builtin", data }).reply.sizes.encoded;
  assert.equal(size("handwritten"), 4 + 3 * 48);
  assert.equal(size("protobufjs"), 3 * 70);
});
