// Section 11, `avro_container`: Apache Avro's interop datum through avsc's container
// writer and reader, and the outcome of a file cut short.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import avro from "avsc";
import { parseLossless } from "../src/model.js";
import { RUNNER_DIR } from "../src/paths.js";
import { writeJson } from "../src/untrusted/canonical.js";
import { Written, untrusted } from "../src/untrusted/commands.js";

const INTEROP = join(RUNNER_DIR, "../../testdata/conformance/avro-interop");
const schema = JSON.parse(readFileSync(join(INTEROP, "interop.avsc"), "utf8"));
const datumText = readFileSync(join(INTEROP, "datum.json"), "utf8");
const { records } = parseLossless(datumText) as { records: unknown[] };

async function call(cmd: Record<string, unknown>): Promise<any> {
  const line = writeJson({ cell: "c", serializer: "avsc", ...cmd });
  const r = await untrusted(parseLossless(line) as Record<string, unknown>, line);
  return r instanceof Written ? parseLossless(r.text) : r;
}

async function write(codec: string): Promise<Buffer> {
  const r = await call({ cmd: "untrusted_encode", container: { schema, codec }, value: records });
  assert.equal(r.event, "untrusted_encoded", writeJson(r));
  return Buffer.from(r.b64, "base64");
}

async function read(file: Buffer): Promise<any> {
  const inputs = [{ id: "f", b64: file.toString("base64") }];
  const r = await call({ cmd: "untrusted_decode", container: true, inputs });
  assert.equal(r.event, "untrusted_decoded", writeJson(r));
  return r.outcomes[0];
}

/** Canonical JSON text, with 5.0 and 5 alike (JSON numbers compare by value). */
const same = (v: unknown) => writeJson(v);

for (const codec of ["null", "deflate"]) {
  test(`avro container (${codec}): the interop datum reads back equal`, async () => {
    const file = await write(codec);
    assert.equal(file.subarray(0, 4).toString("latin1"), "Obj\x01");
    const outcome = await read(file);
    assert.equal(outcome.outcome, "accepted", writeJson(outcome));
    assert.equal(same(outcome.value), same(records));
    assert.equal(typeof outcome.value[1].longField, "bigint", "long beyond 2^53 stays exact");
  });
}

test("avro container: avsc accepts a truncated file with its complete blocks", async () => {
  const file = await write("deflate");
  for (const cut of [3, 40, file.length - 20, file.length - 1]) {
    const outcome = await read(file.subarray(0, cut));
    assert.equal(outcome.outcome, "accepted", `cut at ${cut}: ${writeJson(outcome)}`);
    assert.deepEqual(outcome.value, [], `cut at ${cut}: the only block is incomplete`);
  }
  const magic = await read(Buffer.from("Obj\x02 not avro", "latin1"));
  assert.deepEqual([magic.outcome, magic.error], ["rejected", "Error: invalid magic bytes"]);
});

test("avro container: a file of several corrupt deflate blocks is rejected once", async () => {
  // one block per record, each emitting its own decompression error
  const encoder = new avro.streams.BlockEncoder("string", { blockSize: 1, codec: "deflate" });
  const parts: Buffer[] = [];
  encoder.on("data", (b: Buffer) => parts.push(b));
  const ended = new Promise((done) => encoder.on("end", done));
  for (const s of ["one", "two", "three"]) encoder.write(s);
  encoder.end();
  await ended;
  const file = Buffer.concat(parts);
  const sync = file.subarray(-16);
  for (let at = file.indexOf(sync) + 16; at < file.length;) {
    const end = file.indexOf(sync, at);
    for (let i = at + 2; i < end; i++) file[i] ^= 0xff; // past the count and size varints
    at = end + 16;
  }
  const outcome = await read(file);
  assert.equal(outcome.outcome, "rejected", writeJson(outcome));
  assert.match(outcome.error, /deflate codec decompression error/);
  await new Promise((done) => setTimeout(done, 50)); // the other blocks' errors arrive
});

test("avro container: a value that does not fit the schema names its field", async () => {
  const bad = [{ ...(records[0] as object), enumField: "Z" }];
  const r = await call({
    cmd: "untrusted_encode",
    container: { schema, codec: "null" },
    value: bad,
  });
  assert.equal(r.code, "not_applicable");
  assert.match(r.message, /value\[0\]\.enumField/);
});

test("avro container: a row without a container writer is unsupported", async () => {
  const r = await call({
    cmd: "untrusted_decode",
    serializer: "json",
    container: true,
    inputs: [],
  });
  assert.equal(r.code, "unsupported");
});
