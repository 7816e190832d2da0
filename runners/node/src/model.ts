// Datasets: canonical files, the language-neutral types (types.json), native JavaScript
// values built from them, and the deep comparison every decode is checked with.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATASETS_DIR } from "./paths.js";

/** Built-in dataset name -> the folder holding its types.json and schemas. */
export const BUILTIN: Record<string, string> = {
  "android-users": "android-users",
  "pb-vs-msgpack-test1": "pb-vs-msgpack",
  "pb-vs-msgpack-test2": "pb-vs-msgpack",
  "pb-vs-msgpack-test3": "pb-vs-msgpack",
  "pb-vs-msgpack-test4": "pb-vs-msgpack",
  "one-mb-dict": "one-mb-dict",
  "click-maps": "click-maps",
  "log-records": "log-records",
};

export interface RecordDef {
  record: [string, string][];
}
export interface EnumDef {
  enum: string[];
}
export type TypeDef = RecordDef | EnumDef;
export interface Types {
  message: string;
  types: Record<string, TypeDef>;
  /** sha256 of the types file: which generated typed model (src/gen/model) fits it. */
  fingerprint: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A dataset as a serializer sees it. */
export interface Dataset {
  name: string;
  kind: "builtin" | "user";
  types: Types;
  /** For user datasets: the schema files by kind (proto, avsc, fbs, ...). */
  schemas: Record<
    string,
    { path?: string; message?: string; unavailable?: string; descriptor_set?: string }
  >;
}

export interface Loaded {
  items: unknown[];
  count: number;
  framing: "single" | "stream";
}

export function builtinTypes(name: string): Types {
  const text = readFileSync(join(DATASETS_DIR, BUILTIN[name], "types.json"), "utf8");
  const raw = JSON.parse(text);
  const message = typeof raw.message === "string" ? raw.message : raw.message[name];
  return { message, types: raw.types, fingerprint: sha256(text) };
}

export function userTypes(path: string): Types {
  const text = readFileSync(path, "utf8");
  const raw = JSON.parse(text);
  return { message: raw.message, types: raw.types ?? {}, fingerprint: sha256(text) };
}

// ---- types -------------------------------------------------------------------------

export type Shape =
  | { kind: "prim"; name: string }
  | { kind: "list"; of: Shape }
  | { kind: "map"; of: Shape }
  | { kind: "optional"; of: Shape }
  | { kind: "enum"; name: string; symbols: string[] }
  | { kind: "record"; name: string; fields: [string, Shape][] };

export const PRIMITIVES = new Set([
  "int32",
  "uint32",
  "int64",
  "uint64",
  "bigint",
  "bool",
  "string",
  "timestamp_ms",
  "float32",
  "float64",
  "bytes",
  "null",
  "any",
]);

/** The shape tree of a type name (records resolved; recursion is not allowed by types.json). */
export function shapeOf(type: string, types: Types, seen: Map<string, Shape> = new Map()): Shape {
  const t = type.replace(/\s+/g, "");
  const inner = (prefix: string) => t.slice(prefix.length, -1);
  if (t.startsWith("list<")) return { kind: "list", of: shapeOf(inner("list<"), types, seen) };
  if (t.startsWith("map<string,"))
    return { kind: "map", of: shapeOf(inner("map<string,"), types, seen) };
  if (t.startsWith("optional<"))
    return { kind: "optional", of: shapeOf(inner("optional<"), types, seen) };
  if (PRIMITIVES.has(t)) return { kind: "prim", name: t };
  const cached = seen.get(t);
  if (cached) return cached;
  const def = types.types[t];
  if (!def) throw new Error(`unknown type ${JSON.stringify(t)}`);
  if ("enum" in def) return { kind: "enum", name: t, symbols: def.enum };
  const shape: Shape = { kind: "record", name: t, fields: [] };
  seen.set(t, shape);
  for (const [f, ft] of def.record) shape.fields.push([f, shapeOf(ft, types, seen)]);
  return shape;
}

export function messageShape(types: Types): Shape {
  return shapeOf(types.message, types);
}

// ---- canonical file -> native values ----------------------------------------------------

function toFloat(v: unknown): number {
  if (v === "NaN") return NaN;
  if (v === "Infinity") return Infinity;
  if (v === "-Infinity") return -Infinity;
  return Number(v);
}

function toInt64(v: unknown): number | bigint {
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  return v as number;
}

/** Canonical JSON value -> the value JavaScript users hold, following the declared shape. */
export function toNative(v: unknown, s: Shape): unknown {
  switch (s.kind) {
    case "prim":
      switch (s.name) {
        case "timestamp_ms":
          return new Date(Number(v));
        case "int64":
        case "uint64":
        case "bigint":
          return toInt64(v);
        case "float32":
        case "float64":
          return toFloat(v);
        case "bytes":
          return new Uint8Array(Buffer.from(v as string, "base64"));
        default:
          return v;
      }
    case "list":
      return (v as unknown[]).map((x) => toNative(x, s.of));
    case "map": {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as object)) out[k] = toNative(x, s.of);
      return out;
    }
    case "optional":
      return v === null ? null : toNative(v, s.of);
    case "enum":
      return v;
    case "record": {
      const out: Record<string, unknown> = {};
      const o = v as Record<string, unknown>;
      for (const [f, fs] of s.fields) out[f] = toNative(o[f], fs);
      return out;
    }
  }
}

/** Whether a shape (or anything below it) needs conversion from its canonical JSON form. */
export function needsConversion(s: Shape, depth = 0): boolean {
  if (depth > 64) return true;
  switch (s.kind) {
    case "prim":
      return !["int32", "uint32", "bool", "string", "null"].includes(s.name);
    case "enum":
      return false;
    case "record":
      return s.fields.some(([, f]) => needsConversion(f, depth + 1));
    default:
      return true;
  }
}

export function loadCanonical(
  path: string,
  expectName: string,
  lossless: boolean,
): Loaded & {
  raw: unknown[];
} {
  const text = readFileSync(path, "utf8");
  const doc = (lossless ? parseLossless(text) : JSON.parse(text)) as {
    format: string;
    name: string;
    framing: "single" | "stream";
    count: number;
    items: unknown[];
  };
  if (doc.format !== "serbench-dataset") throw new Error(`${path} is not a serbench dataset file`);
  if (doc.name !== expectName)
    throw new Error(`${path} holds dataset ${JSON.stringify(doc.name)}, not ${expectName}`);
  return { items: doc.items, raw: doc.items, count: Number(doc.count), framing: doc.framing };
}

export function loadNative(path: string, ds: Dataset): Loaded {
  const doc = loadCanonical(path, ds.name, ds.kind === "user");
  const shape = messageShape(ds.types);
  const items = needsConversion(shape) ? doc.items.map((m) => toNative(m, shape)) : doc.items;
  return { items, count: doc.count, framing: doc.framing };
}

// ---- a JSON parser that keeps integers beyond 2^53 exact (as BigInt) ------------------

export function parseLossless(text: string): unknown {
  let i = 0;
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`bad JSON at offset ${i}: ${what}`);
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const out: Record<string, unknown> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return out;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key");
        const k = str();
        ws();
        if (text[i++] !== ":") fail("expected ':'");
        Object.defineProperty(out, k, {
          value: value(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        ws();
        const d = text[i++];
        if (d === "}") return out;
        if (d !== ",") fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const out: unknown[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        const d = text[i++];
        if (d === "]") return out;
        if (d !== ",") fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    if (text.startsWith("true", i)) return ((i += 4), true);
    if (text.startsWith("false", i)) return ((i += 5), false);
    if (text.startsWith("null", i)) return ((i += 4), null);
    const m = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = i;
    const r = m.exec(text);
    if (!r) return fail("unexpected character");
    i += r[0].length;
    if (r[1] === undefined && r[2] === undefined) {
      const n = Number(r[0]);
      return Number.isSafeInteger(n) ? n : BigInt(r[0]);
    }
    return Number(r[0]);
  };
  const str = (): string => {
    const start = i;
    i++;
    let simple = true;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c === 92) {
        simple = false;
        i += 2;
      } else i++;
    }
    if (i >= text.length) fail("unterminated string");
    i++;
    const lit = text.slice(start, i);
    return simple ? lit.slice(1, -1) : (JSON.parse(lit) as string);
  };
  const v = value();
  ws();
  if (i !== text.length) fail("trailing characters");
  return v;
}

// ---- deep comparison -------------------------------------------------------------------

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function show(v: unknown): string {
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 40) + "..." : v);
  if (v instanceof Date) return `Date(${v.toISOString?.() ?? v.getTime()})`;
  if (v instanceof Uint8Array) return `bytes[${v.length}]`;
  if (Array.isArray(v)) return `array[${v.length}]`;
  if (v instanceof Map) return `Map[${v.size}]`;
  if (typeof v === "number" && Object.is(v, -0)) return "-0";
  if (v !== null && typeof v === "object") return (v.constructor?.name ?? "object") + "{}";
  return String(v);
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (v instanceof Date) return "Date";
  if (v instanceof Uint8Array) return "bytes";
  if (v instanceof Map) return "Map";
  return typeof v;
}

/** `$.a`, `$[3]`, `$["a b"]`: the path of a child value. */
export function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function entries(v: unknown): Map<string, unknown> {
  if (v instanceof Map) return v as Map<string, unknown>;
  return new Map(Object.entries(v as object));
}

/** Where two native values differ (`$[0][17].age: 31 != 13`, actual first), or null. */
export function firstDifference(expected: unknown, actual: unknown, path = "$"): string | null {
  const te = typeName(expected);
  const ta = typeName(actual);
  const mapLike = (t: string) => t === "object" || t === "Map";
  if (te !== ta && !(mapLike(te) && mapLike(ta))) {
    return `${path}: ${show(actual)} (${ta}) != ${show(expected)} (${te})`;
  }
  switch (te) {
    case "number":
      return Object.is(expected, actual) ? null : `${path}: ${show(actual)} != ${show(expected)}`;
    case "Date": {
      const a = (actual as Date).getTime();
      const e = (expected as Date).getTime();
      return a === e ? null : `${path}: ${show(actual)} != ${show(expected)}`;
    }
    case "bytes": {
      const a = actual as Uint8Array;
      const e = expected as Uint8Array;
      if (a.length !== e.length) return `${path}: length ${a.length} != ${e.length}`;
      for (let i = 0; i < a.length; i++)
        if (a[i] !== e[i]) return `${child(path, i)}: ${a[i]} != ${e[i]}`;
      return null;
    }
    case "array": {
      const a = actual as unknown[];
      const e = expected as unknown[];
      if (a.length !== e.length) return `${path}: length ${a.length} != ${e.length}`;
      for (let i = 0; i < e.length; i++) {
        const d = firstDifference(e[i], a[i], child(path, i));
        if (d) return d;
      }
      return null;
    }
    case "object":
    case "Map": {
      const a = entries(actual);
      const e = entries(expected);
      for (const k of e.keys()) if (!a.has(k)) return `${child(path, k)}: missing`;
      for (const k of a.keys()) if (!e.has(k)) return `${child(path, k)}: unexpected key`;
      for (const [k, v] of e) {
        const d = firstDifference(v, a.get(k), child(path, k));
        if (d) return d;
      }
      return null;
    }
    default:
      return expected === actual ? null : `${path}: ${show(actual)} != ${show(expected)}`;
  }
}
