// What the generated typed model of a dataset (src/gen/model/, written by
// scripts/typegen.mjs) exports, and the small helpers its protobuf glue calls.
import type { Builder, ByteBuffer } from "flatbuffers";
import protobuf from "protobufjs";
import type { Codec } from "../serializers/base.js";

/** A protobufjs message type, generated (static module) or reflected. */
export interface PbType {
  create(o: object): any;
  encode(m: any): { finish(): Uint8Array };
  decode(b: Uint8Array): any;
}

/** Native values <-> one dataset's protobuf messages. */
export interface PbGlue {
  /** The message type a dataset's message is encoded as. */
  type: PbType;
  /** Native message -> generated message objects (outside timing). */
  prepare(native: any): any;
  /** Decoded message -> the native model (for the check). */
  toNative(decoded: any): unknown;
}

/** Native values <-> flatc's generated TypeScript for one dataset. */
export interface FbLayout {
  /** Writes a message's tables; the root's offset. */
  write(b: Builder, m: any): number;
  /** The root table accessor over a buffer. */
  root(bb: ByteBuffer): any;
  /** Root accessor -> the native model. */
  read(root: any): unknown;
  /** Reads every field in place through the accessors, building nothing: a checksum. */
  touch(root: any): number;
}

export interface TypedModel {
  /** sha256 of the types file (and .proto) the model was generated from. */
  fingerprint: string;
  /** The field-by-field binary codec, or why there is none. */
  handwritten: Codec | string;
  /** Protobuf glue over the message types by name, or why there is none. */
  protobuf: ((types: Record<string, PbType>) => PbGlue) | string;
  /** FlatBuffers glue over flatc's TypeScript, or why there is none. */
  flatbuffers: FbLayout | string;
  /** User datasets: their generated protobufjs static module (its message types by name). */
  protobufTypes?: Record<string, PbType>;
}

/** Long (or number) -> number when exact, else BigInt. */
export function fromLong(v: unknown): number | bigint {
  if (typeof v === "number") return v;
  const big = BigInt(String(v));
  return Number.isSafeInteger(Number(big)) ? Number(big) : big;
}

/** A native int64 -> what protobufjs writes exactly (a Long beyond 2^53). */
export function toLong(v: number | bigint, unsigned: boolean): unknown {
  if (typeof v === "number") return v;
  const Long = protobuf.util.Long as any;
  return Long ? Long.fromString(v.toString(), unsigned) : v.toString();
}

export const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** A string-keyed map with every value converted. */
export function mapValues<T, U>(m: Record<string, T>, f: (v: T) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const k in m) out[k] = f(m[k]);
  return out;
}

/** The message types of a protobufjs static module by name, whatever package holds them. */
export function messageTypes(module: object): Record<string, PbType> {
  const out: Record<string, PbType> = {};
  const walk = (ns: any, depth: number) => {
    if (depth > 16) return;
    for (const [name, v] of Object.entries(ns)) {
      if (typeof v === "function" && "encode" in v && "decode" in v)
        out[name] = v as unknown as PbType;
      if (v !== null && (typeof v === "object" || typeof v === "function")) walk(v, depth + 1);
    }
  };
  walk(module, 0);
  return out;
}

/** The n elements of a FlatBuffers vector. */
export function vector<T>(n: number, at: (i: number) => T): T[] {
  const out: T[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = at(i);
  return out;
}

/** A FlatBuffers vector of key/value entry tables as a string-keyed map. */
export function entries<E extends { key(): string | null }, T>(
  n: number,
  at: (i: number) => E,
  value: (e: E) => T,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (let i = 0; i < n; i++) {
    const e = at(i);
    out[e.key() as string] = value(e);
  }
  return out;
}

/** null stays null; anything else is converted. */
export const nullable = <T, U>(v: T | null, f: (v: T) => U): U | null => (v === null ? null : f(v));

/** The sum of f(i) over the n elements of a FlatBuffers vector. */
export function sum(n: number, f: (i: number) => number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += f(i);
  return s;
}

/** A string read as its UTF-8 bytes in the buffer: its length and first byte. */
export const utf8Bytes = (u: string | Uint8Array | null): number =>
  u === null ? 0 : typeof u === "string" ? u.length : u.length + (u[0] ?? 0);

/** A byte vector's length, read in place. */
export const byteCount = (u: Uint8Array | null): number => (u === null ? 0 : u.length);

/** An optional field read in place: 0 when absent, else 1 + what reading it gave. */
export const touchNullable = <T>(v: T | null, f: (v: T) => number): number =>
  v === null ? 0 : 1 + f(v);
