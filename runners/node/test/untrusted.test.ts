// Section 11: canonical JSON of decoded values, and each library's own outcome for one
// input it accepts and one it refuses.
import assert from "node:assert/strict";
import { test } from "node:test";
import { canonical, fromCanonical, writeJson, Uncarried } from "../src/untrusted/canonical.js";
import { Written, untrusted } from "../src/untrusted/commands.js";
import { S1, canonical as datasetFile } from "./helpers.js";

const hex = (h: string) => Buffer.from(h.replace(/ /g, ""), "hex");
const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");

function call(cmd: Record<string, unknown>): any {
  const r = untrusted({ cell: "c", ...cmd }, JSON.stringify({ cell: "c", ...cmd }));
  return r instanceof Written ? JSON.parse(r.text) : r;
}

function decode(serializer: string, data: Uint8Array, dataset: unknown = null): any {
  const r = call({
    cmd: "untrusted_decode",
    serializer,
    dataset,
    inputs: [{ id: "x", b64: b64(data) }],
  });
  assert.equal(r.event, "untrusted_decoded", JSON.stringify(r));
  return r.outcomes[0];
}

test("canonical: JSON's own values as themselves, the rest as one-key objects", () => {
  const date = new Date(1500);
  const value = [null, true, "s", 1, 2.5, 2n ** 64n, NaN, -Infinity, undefined, date];
  assert.deepEqual(canonical(value), [
    null,
    true,
    "s",
    1,
    2.5,
    2n ** 64n,
    { $float: "NaN" },
    { $float: "-Infinity" },
    { $undefined: true },
    { $timestamp: [1, 500_000_000] },
  ]);
  assert.deepEqual(canonical(new Uint8Array([1, 255])), { $bytes: "01ff" });
  assert.deepEqual(canonical(new Map<unknown, unknown>([[1, "a"]])), { $map: [[1, "a"]] });
  assert.deepEqual({ ...(canonical(new Map([["k", 1]])) as object) }, { k: 1 });
  assert.deepEqual(canonical(new Set([1])), { $other: "Set: [object Set]" });
});

test("canonical: depth past 400, cycles and a __proto__ key stay printable", () => {
  let deep: unknown = 0;
  for (let i = 0; i < 1000; i++) deep = [deep];
  let v = canonical(deep);
  for (let i = 0; i <= 400; i++) v = (v as unknown[])[0];
  assert.deepEqual(v, { $other: "nested deeper than 400" });
  const cycle: unknown[] = [];
  cycle.push(cycle);
  assert.deepEqual(canonical(cycle), [{ $other: "a reference to a value containing it" }]);
  assert.equal(writeJson(canonical(JSON.parse('{"__proto__": 1}'))), '{"__proto__":1}');
});

test("writeJson: exact BigInts, doubles beyond 2^53 as floats", () => {
  assert.equal(
    writeJson([2n ** 64n - 1n, 2 ** 64, 1.5, -3]),
    "[18446744073709551615,1.8446744073709552e+19,1.5,-3]",
  );
});

test("fromCanonical: builds what a library takes, refuses what it cannot carry", () => {
  const map = fromCanonical({ $map: [[1, { $bytes: "0a" }]] }, { map: (p) => new Map(p) });
  assert.deepEqual(map, new Map([[1, new Uint8Array([10])]]));
  assert.throws(() => fromCanonical({ $ext: [1, "00"] }, {}), Uncarried);
  assert.throws(() => fromCanonical(2n ** 60n, {}), Uncarried);
});

const GENERIC: [string, Uint8Array, unknown, Uint8Array, string][] = [
  // serializer, accepted input, its value, refused input, a word of the library's error
  ["json", Buffer.from('{"a":[1,2.5]}'), { a: [1, 2.5] }, Buffer.from("[1,"), "SyntaxError"],
  [
    "msgpackr",
    hex("81 01 c4 01 ff"),
    { $map: [[1, { $bytes: "ff" }]] },
    hex("db ff ff ff ff 61"),
    "end",
  ],
  ["msgpackr-records", hex("92 c0 c3"), [null, true], hex("92 c0"), "end"],
  ["msgpack-js", hex("d4 01 10"), { $ext: [1, "10"] }, hex("c1"), "DecodeError"],
  ["cbor-x", hex("d8 63 f7"), { $tag: [99, { $undefined: true }] }, hex("82 01"), "end"],
  ["bson", hex("0c000000 10 6100 01000000 00"), { a: 1 }, hex("05000000 01"), "BSONError"],
];

for (const [name, good, value, bad, word] of GENERIC)
  test(`${name}: a generic value accepted, bad bytes rejected with the library's error`, () => {
    const ok = decode(name, good);
    assert.equal(ok.outcome, "accepted", JSON.stringify(ok));
    assert.deepEqual(ok.value, value);
    const no = decode(name, bad);
    assert.equal(no.outcome, "rejected", JSON.stringify(no));
    assert.match(no.error, new RegExp(word, "i"));
  });

test("msgpackr: deep nesting overflows its recursive reader: an error, not a rejection", () => {
  assert.equal(decode("msgpackr", Buffer.alloc(200_000, 0x91)).outcome, "error");
});

const TYPED = ["json", "msgpackr-positional", "protobufjs", "protobufjs-reflect", "avsc", "bson"];

for (const name of TYPED)
  test(`${name}: its own encoding of a dataset accepted, a truncated one rejected`, () => {
    const dataset = {
      name: "android-users",
      kind: "builtin",
      data: datasetFile("android-users", S1),
    };
    const enc = call({ cmd: "untrusted_encode", serializer: name, dataset, message: 0 });
    assert.equal(enc.event, "untrusted_encoded", JSON.stringify(enc));
    const own = Buffer.from(enc.b64, "base64");
    assert.deepEqual(decode(name, own, dataset).value, { $check: "equal" });
    assert.equal(decode(name, own.subarray(0, own.length - 3), dataset).outcome, "rejected");
  });

test("generic encode: the canonical value in the library's bytes, or not_applicable", () => {
  const enc = (serializer: string, value: unknown) =>
    call({ cmd: "untrusted_encode", serializer, value });
  assert.equal(enc("msgpack-js", { $ext: [1, "10"] }).b64, "1AEQ");
  const line =
    '{"cmd":"untrusted_encode","cell":"c","serializer":"msgpackr","value":18446744073709551615}';
  const big = untrusted(JSON.parse(line), line) as { b64: string };
  assert.equal(Buffer.from(big.b64, "base64").toString("hex"), "cfffffffffffffffff");
  assert.equal(enc("json", { $float: "NaN" }).code, "not_applicable");
});

test("rows without a documented refusal answer unsupported", () => {
  for (const name of ["v8", "handwritten", "flatbuffers", "flatbuffers-access", "flexbuffers"])
    assert.equal(
      call({ cmd: "untrusted_decode", serializer: name, inputs: [] }).code,
      "unsupported",
    );
  assert.equal(
    call({ cmd: "untrusted_decode", serializer: "no-such", inputs: [] }).code,
    "unknown_serializer",
  );
});
