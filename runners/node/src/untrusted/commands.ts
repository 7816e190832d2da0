// `untrusted_decode` and `untrusted_encode` (docs/runner-protocol.md section 11): bytes this
// runner did not write. No policy lives here: limits, deadlines and classes are the
// orchestrator's; each input answers what the library did with it.
import { readFileSync } from "node:fs";
import { firstDifference, loadNative, parseLossless } from "../model.js";
import { NotApplicable, type Codec } from "../serializers/base.js";
import { REGISTRY } from "../serializers/index.js";
import { resolveDataset } from "../datasets.js";
import { Uncarried, canonical, writeJson, type Hook } from "./canonical.js";
import { LIBRARIES, UNSUPPORTED, type Library } from "./libraries.js";

type Cmd = Record<string, any>;

/** A reply already written as JSON text (its values need `writeJson`). */
export class Written {
  constructor(readonly text: string) {}
}

class Refused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A serializer bound to a dataset: its codec and the dataset's native messages. */
interface Typed {
  codec: Codec;
  items: unknown[];
}

const typedCells = new Map<string, Typed>();
const decoders = new Map<string, { decode: (b: Uint8Array) => unknown; hook?: Hook }>();
const encoders = new Map<string, (v: unknown) => Uint8Array>();

function once<T>(cache: Map<string, T>, key: string, make: () => T): T {
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key) as T;
}

function library(name: string): Library {
  if (!(name in REGISTRY))
    throw new Refused(
      "unknown_serializer",
      `no serializer ${JSON.stringify(name)}; valid: ${Object.keys(REGISTRY).join(", ")}`,
    );
  const lib = LIBRARIES[name];
  if (lib === undefined)
    throw new Refused(
      "unsupported",
      `${name}: ${UNSUPPORTED[name] ?? "not a decoder of untrusted input (a baseline)"}`,
    );
  return lib;
}

function typed(name: string, ref: Cmd): Typed {
  if (typeof ref !== "object" || typeof ref.data !== "string")
    throw new Refused("bad_request", "dataset must be an object with data");
  return once(typedCells, `${name}\0${ref.kind}\0${ref.data}`, () => {
    const ds = resolveDataset(ref as Parameters<typeof resolveDataset>[0]);
    if (typeof ds === "string") throw new Refused("unknown_dataset", ds);
    const s = REGISTRY[name];
    const reason = ds.kind === "builtin" ? s.notApplicable(ds.name) : s.userDatasets;
    if (reason !== null) throw new Refused("not_applicable", reason);
    return { codec: s.codec(ds), items: loadNative(ref.data, ds).items };
  });
}

function input(item: Cmd): Uint8Array {
  if (typeof item?.id !== "string") throw new Refused("bad_request", "an input needs a string id");
  if (typeof item.path === "string") return readFileSync(item.path);
  if (typeof item.b64 === "string") return Buffer.from(item.b64, "base64");
  throw new Refused("bad_request", `input ${item.id} has neither b64 nor path`);
}

const text = (e: unknown) =>
  (e instanceof Error ? `${e.name}: ${e.message}` : `thrown ${String(e)}`).slice(0, 300);

/** The typed row's rendering: its decoded message against the dataset's first one. */
function check(cell: Typed, decoded: unknown): unknown {
  let native: unknown;
  try {
    native = (cell.codec.toNative ?? ((v: unknown) => v))(decoded);
  } catch (e) {
    // the library accepted the bytes; the runner's model conversion could not read them
    return { $check: `does not fit the model: ${text(e)}` };
  }
  return { $check: firstDifference(cell.items[0], native) ?? "equal" };
}

function decode(cmd: Cmd): Written {
  const name = String(cmd.serializer);
  const lib = library(name);
  const own = lib.decoder && once(decoders, name, lib.decoder);
  let run: (b: Uint8Array) => unknown;
  let render: (v: unknown) => unknown;
  const typedRow = cmd.dataset != null;
  if (typedRow) {
    const cell = typed(name, cmd.dataset);
    run = (b) => cell.codec.decode(b);
    render = (v) => check(cell, v);
  } else {
    if (!own || !lib.generic)
      throw new Refused("unsupported", `${name} has no generic-value decode: name a dataset`);
    run = own.decode;
    render = (v) => canonical(v, own.hook);
  }
  if (!Array.isArray(cmd.inputs)) throw new Refused("bad_request", "inputs must be a list");
  const outcomes: string[] = [];
  for (const item of cmd.inputs) {
    const bytes = input(item);
    const start = process.hrtime.bigint();
    let decoded: { value: unknown } | { kind: string; error: string };
    try {
      decoded = { value: run(bytes) };
    } catch (e) {
      decoded = { kind: lib.rejects(e) ? "rejected" : "error", error: text(e) };
    }
    const ns = process.hrtime.bigint() - start;
    let outcome: Record<string, unknown>;
    // rendered outside the try: a fault of the rendering is the runner's, not the library's
    if ("value" in decoded) outcome = { outcome: "accepted", value: render(decoded.value) };
    // A typed row converts inside its decode (json, positional): when the library alone
    // reads the bytes, the failure is the conversion's, and the library accepted them.
    else if (decoded.kind === "error" && typedRow && own && readsAlone(own.decode, bytes))
      outcome = {
        outcome: "accepted",
        value: { $check: `does not fit the model: ${decoded.error}` },
      };
    else outcome = { outcome: decoded.kind, error: decoded.error };
    outcomes.push(writeJson({ id: item.id, ...outcome, ns }));
  }
  const head = `{"event":"untrusted_decoded","cell":${JSON.stringify(String(cmd.cell))}`;
  return new Written(`${head},"outcomes":[${outcomes.join(",")}]}`);
}

function readsAlone(own: (b: Uint8Array) => unknown, bytes: Uint8Array): boolean {
  try {
    own(bytes);
    return true;
  } catch {
    return false;
  }
}

function encode(cmd: Cmd, line: string): unknown {
  const name = String(cmd.serializer);
  const lib = library(name);
  let bytes: Uint8Array;
  if (cmd.dataset != null) {
    const cell = typed(name, cmd.dataset);
    const m = Number(cmd.message ?? 0);
    if (!Number.isInteger(m) || m < 0)
      throw new Refused("bad_request", "message must be a non-negative integer");
    const native = cell.items[m % cell.items.length];
    bytes = cell.codec.encode((cell.codec.prepare ?? ((v: unknown) => v))(native));
  } else {
    if (!lib.encoder)
      throw new Refused("unsupported", `${name} does not encode generic values in this runner`);
    const enc = once(encoders, name, lib.encoder);
    // the command again, keeping integers beyond 2^53 exact
    const { value } = parseLossless(line) as { value?: unknown };
    bytes = enc(value ?? null);
  }
  const b64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  return { event: "untrusted_encoded", cell: String(cmd.cell), b64 };
}

function containerOf(name: string): NonNullable<Library["container"]> {
  const c = library(name).container;
  if (!c) throw new Refused("unsupported", `${name} does not write Avro object container files`);
  return c;
}

/** `untrusted_decode` with `container: true`: each input is an object container file. */
async function decodeContainers(cmd: Cmd): Promise<Written> {
  const c = containerOf(String(cmd.serializer));
  if (!Array.isArray(cmd.inputs)) throw new Refused("bad_request", "inputs must be a list");
  const outcomes: string[] = [];
  for (const item of cmd.inputs) {
    const bytes = input(item);
    const start = process.hrtime.bigint();
    let read: { render(): unknown[] } | { kind: string; error: string };
    try {
      read = await c.read(bytes);
    } catch (e) {
      read = { kind: c.rejects(e) ? "rejected" : "error", error: text(e) };
    }
    const ns = process.hrtime.bigint() - start;
    // rendered outside the try: a fault of the rendering is the runner's, not the library's
    const outcome =
      "render" in read
        ? { outcome: "accepted", value: read.render() }
        : { outcome: read.kind, error: read.error };
    outcomes.push(writeJson({ id: item.id, ...outcome, ns }));
  }
  const head = `{"event":"untrusted_decoded","cell":${JSON.stringify(String(cmd.cell))}`;
  return new Written(`${head},"outcomes":[${outcomes.join(",")}]}`);
}

/** `untrusted_encode` with `container: {schema, codec}`: one file of the listed records. */
async function encodeContainer(cmd: Cmd, line: string): Promise<unknown> {
  const c = containerOf(String(cmd.serializer));
  const { schema, codec } = cmd.container;
  if (typeof schema !== "object" || schema === null || typeof codec !== "string")
    throw new Refused("bad_request", "container must be {schema: object, codec: string}");
  // the command again, keeping integers beyond 2^53 exact
  const { value } = parseLossless(line) as { value?: unknown };
  const bytes = await c.write(schema, codec, value);
  const b64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  return { event: "untrusted_encoded", cell: String(cmd.cell), b64 };
}

/** Answers one section 11 command (a Promise for the Avro container variants). */
export function untrusted(cmd: Cmd, line: string): unknown {
  const cell = String(cmd.cell);
  const refusal = (e: unknown) => {
    if (e instanceof Refused) return { event: "error", code: e.code, cell, message: e.message };
    if (e instanceof NotApplicable || e instanceof Uncarried)
      return { event: "error", code: "not_applicable", cell, message: e.message };
    return { event: "error", code: "exception", cell, message: text(e) };
  };
  try {
    if (typeof cmd.cell !== "string" || typeof cmd.serializer !== "string")
      throw new Refused("bad_request", "cell and serializer must be strings");
    const decoding = cmd.cmd === "untrusted_decode";
    if (decoding && cmd.container === true) return decodeContainers(cmd).catch(refusal);
    if (!decoding && cmd.container != null) return encodeContainer(cmd, line).catch(refusal);
    return decoding ? decode(cmd) : encode(cmd, line);
  } catch (e) {
    return refusal(e);
  }
}
