// Decoded values as canonical JSON (docs/runner-protocol.md section 11), and back.
//
// JSON carries null, booleans, strings, exact integers and finite floats; everything else
// is a one-key object: $bytes (hex), $float, $map (keys that are not strings), $ext,
// $timestamp, $tag, $simple, $undefined, $other (a library's own type, or a value nested
// deeper than MAX_DEPTH). Integers beyond 2^53 stay exact as BigInt, so the reply is
// written by `writeJson`, not JSON.stringify.

export const MAX_DEPTH = 400;
/** Values rendered per decode: a small input may decode to a graph of shared nodes. */
const MAX_NODES = 1_000_000;

/**
 * Renders a child value `levels` JSON levels below its parent (one for an element, two
 * for the value in `{"$tag": [n, value]}`): depth counts the reply's JSON nesting.
 */
export type Inner = (x: unknown, levels?: number) => unknown;
/** A library's rendering of its own types, or undefined to leave the value to `canonical`. */
export type Hook = (v: object, inner: Inner) => unknown;

/** A JSON object safe for any key (a "__proto__" key stays a key). */
export function record(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of entries) out[k] = v;
  return out;
}

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");

export function timestamp(d: Date): unknown {
  const ms = d.getTime();
  if (Number.isNaN(ms)) return { $other: "Date: Invalid Date" };
  const s = Math.floor(ms / 1000);
  return { $timestamp: [s, (ms - s * 1000) * 1_000_000] };
}

function number(n: number): unknown {
  if (Number.isFinite(n)) return n;
  return { $float: Number.isNaN(n) ? "NaN" : n > 0 ? "Infinity" : "-Infinity" };
}

function other(v: object): unknown {
  let text: string;
  try {
    text = `${v.constructor?.name ?? "object"}: ${String(v)}`;
  } catch {
    text = v.constructor?.name ?? "object";
  }
  return { $other: text.slice(0, 200) };
}

class TooMany extends Error {}

/** The canonical JSON of a decoded value; `hook` renders the library's own classes. */
export function canonical(value: unknown, hook?: Hook): unknown {
  let nodes = 0;
  const path = new Set<object>(); // the containers above the current value: a cycle
  const walk = (v: unknown, depth: number): unknown => {
    if (++nodes > MAX_NODES) throw new TooMany();
    if (depth > MAX_DEPTH) return { $other: `nested deeper than ${MAX_DEPTH}` };
    switch (typeof v) {
      case "undefined":
        return { $undefined: true };
      case "number":
        return number(v);
      case "bigint":
      case "boolean":
      case "string":
        return v;
      case "object":
        break;
      default:
        return { $other: `${typeof v}: ${String(v)}`.slice(0, 200) };
    }
    if (v === null) return null;
    if (path.has(v)) return { $other: "a reference to a value containing it" };
    path.add(v);
    try {
      return container(v, (x, levels = 1) => walk(x, depth + levels));
    } finally {
      path.delete(v);
    }
  };
  const container = (v: object, inner: Inner): unknown => {
    const special = hook?.(v, inner);
    if (special !== undefined) return special;
    if (Array.isArray(v)) return Array.from(v, (x) => inner(x));
    if (v instanceof Uint8Array) return { $bytes: hex(v) };
    if (v instanceof Date) return timestamp(v);
    if (v instanceof Map) {
      const pairs = [...v.entries()];
      if (pairs.every(([k]) => typeof k === "string"))
        return record(pairs.map(([k, x]) => [k as string, inner(x)]));
      return { $map: pairs.map(([k, x]) => [inner(k, 3), inner(x, 3)]) };
    }
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null)
      return record(Object.keys(v).map((k) => [k, inner((v as Record<string, unknown>)[k])]));
    return other(v);
  };
  try {
    return walk(value, 0);
  } catch (e) {
    if (e instanceof TooMany) return { $other: `more than ${MAX_NODES} values` };
    throw e;
  }
}

/** JSON text of a canonical value: BigInts as exact integers, doubles beyond 2^53 as floats. */
export function writeJson(v: unknown): string {
  switch (typeof v) {
    case "bigint":
      return v.toString();
    case "number":
      // 2^64 read as a double prints as "18446744073709552000", which a reader would take
      // for an exact integer: exponent notation keeps it a float.
      return Number.isInteger(v) && !Number.isSafeInteger(v) ? v.toExponential() : String(v);
    case "object":
      if (v === null) return "null";
      if (Array.isArray(v)) return `[${v.map(writeJson).join(",")}]`;
      return `{${Object.keys(v)
        .map((k) => `${JSON.stringify(k)}:${writeJson((v as Record<string, unknown>)[k])}`)
        .join(",")}}`;
    default:
      return JSON.stringify(v);
  }
}

/** Thrown when a canonical value names a type the target library cannot carry. */
export class Uncarried extends Error {}

/** What a library makes of the one-key canonical objects (absent: Uncarried). */
export interface Builders {
  ext?(type: number, data: Uint8Array): unknown;
  timestamp?(seconds: number, nanoseconds: number): unknown;
  tag?(tag: number | bigint, value: unknown): unknown;
  map?(pairs: [unknown, unknown][]): unknown;
  undefined?: boolean;
  /** Whether NaN and the infinities are carried. */
  nonFinite?: boolean;
  /** Whether integers beyond 2^53 (BigInt) are carried. */
  bigint?: boolean;
}

const FLOATS: Record<string, number> = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };
const unhex = (s: string) => new Uint8Array(Buffer.from(s, "hex"));

/** The generic value a canonical JSON value stands for, built for one library. */
export function fromCanonical(v: unknown, b: Builders): unknown {
  const back = (x: unknown) => fromCanonical(x, b);
  if (Array.isArray(v)) return v.map(back);
  if (typeof v === "bigint" && !b.bigint)
    throw new Uncarried(`${v}: integers beyond 2^53 are not carried by this library's tree`);
  if (v === null || typeof v !== "object") return v;
  const keys = Object.keys(v);
  const o = v as Record<string, any>;
  if (keys.length === 1 && keys[0].startsWith("$")) {
    const [k] = keys;
    const x = o[k];
    const missing = () => new Uncarried(`${k} values are not carried by this library's tree`);
    switch (k) {
      case "$bytes":
        return unhex(x);
      case "$float":
        if (!b.nonFinite) throw missing();
        return FLOATS[x];
      case "$map":
        if (!b.map) throw missing();
        return b.map((x as [unknown, unknown][]).map(([key, val]) => [back(key), back(val)]));
      case "$ext":
        if (!b.ext) throw missing();
        return b.ext(Number(x[0]), unhex(x[1]));
      case "$timestamp":
        if (!b.timestamp) throw missing();
        return b.timestamp(Number(x[0]), Number(x[1]));
      case "$tag":
        if (!b.tag) throw missing();
        return b.tag(x[0], back(x[1]));
      case "$undefined":
        if (!b.undefined) throw missing();
        return undefined;
      case "$simple":
      case "$other":
        throw missing();
    }
  }
  const out: Record<string, unknown> = {};
  for (const k of keys)
    Object.defineProperty(out, k, { value: back(o[k]), enumerable: true, writable: true });
  return out;
}
