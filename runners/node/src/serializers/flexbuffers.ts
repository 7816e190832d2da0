// FlexBuffers, FlatBuffers' schemaless format, through the `flatbuffers` package's
// flexbuffers module. Every value is written with its declared type (types.json):
// int32/int64/timestamp_ms (epoch ms) as Int, uint32/uint64 as UInt, float32/float64 as
// Float (the builder keeps a float at 32 bits when that is exact), enums as their symbol
// string, bytes as Blob, records and maps as Maps keyed by name (the builder sorts keys,
// so the bytes match other languages' builders with C++'s default: shared keys only).
// Decoding is the package's `toObject` into the generic tree; the conversion back to
// the native model (Dates, enum ordinals) happens outside timing, for the check.
import type * as Flex from "flatbuffers/js/flexbuffers.js";
import type * as FlexBuilder from "flatbuffers/js/flexbuffers/builder.js";
import type { Builder } from "flatbuffers/js/flexbuffers/builder.js";
import { firstKey, leafConverter, mapAny, scan } from "../convert.js";
import { messageShape, type Shape } from "../model.js";
import { NotApplicable, type Codec, type Serializer } from "./base.js";
import { fresh, sameCopy } from "./fresh.js";

type Write = (b: Builder, v: any) => void;
// The typings declare numbers only; the builder writes a BigInt as a 64-bit integer.
type Wide = number & bigint;

const INT64 = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const UINT64 = [0n, 2n ** 64n - 1n] as const;

function leafWriter(prim: string): Write {
  switch (prim) {
    case "int32":
    case "int64":
      return (b, v) => b.addInt(v as Wide);
    case "uint32":
    case "uint64":
      return (b, v) => b.addUInt(v as Wide);
    case "timestamp_ms":
      return (b, v: Date) => b.addInt(v.getTime());
    case "float32":
    case "float64":
      return (b, v) => b.addFloat(v);
    case "bigint":
      return (b, v) => (v >= 0 && v > INT64[1] ? b.addUInt(v as Wide) : b.addInt(v as Wide));
    default: // bool, string, null, bytes (Blob) and `any` (the builder's own typing)
      return (b, v) => b.add(v);
  }
}

/** A writer for one shape, compiled once per dataset. */
function writer(s: Shape, depth = 0): Write {
  if (depth > 100) throw new Error("type nesting too deep");
  switch (s.kind) {
    case "prim":
      return leafWriter(s.name);
    case "enum": {
      const symbols = s.symbols;
      return (b, v: number) => b.add(symbols[v]);
    }
    case "optional": {
      const w = writer(s.of, depth + 1);
      return (b, v) => (v === null ? b.add(null) : w(b, v));
    }
    case "list": {
      const w = writer(s.of, depth + 1);
      return (b, v: unknown[]) => {
        b.startVector();
        for (let i = 0; i < v.length; i++) w(b, v[i]);
        b.end();
      };
    }
    case "map": {
      const w = writer(s.of, depth + 1);
      return (b, v: Record<string, unknown>) => {
        b.startMap();
        for (const k in v) {
          b.addKey(k);
          w(b, v[k]);
        }
        b.end();
      };
    }
    case "record": {
      const names = s.fields.map(([n]) => n);
      const ws = s.fields.map(([, t]) => writer(t, depth + 1));
      return (b, v: Record<string, unknown>) => {
        b.startMap();
        for (let i = 0; i < names.length; i++) {
          b.addKey(names[i]);
          ws[i](b, v[names[i]]);
        }
        b.end();
      };
    }
  }
}

const INTEGERS = new Set(["int32", "uint32", "int64", "uint64", "bigint"]);
const narrow = (x: unknown) =>
  typeof x === "bigint" && Number.isSafeInteger(Number(x)) ? Number(x) : x;

/** Generic tree (as decoded) -> the native model, along the shape (outside timing). */
function toNativeTree(shape: Shape) {
  return leafConverter(
    shape,
    (p) => {
      if (p === "timestamp_ms")
        return (v) => (typeof v === "number" || typeof v === "bigint" ? new Date(Number(v)) : v);
      if (p === "any") return (v) => mapAny(v, narrow);
      if (p === "bytes") return (v) => (v instanceof Uint8Array ? new Uint8Array(v) : v);
      return INTEGERS.has(p) ? narrow : null;
    },
    (symbols) => (v) => (typeof v === "string" ? symbols.indexOf(v) : v),
  );
}

/** Why a value cannot be written (the path), or null. */
function unfit(m: unknown, shape: Shape): string | null {
  const nul = firstKey(m, (k) => k.includes("\0"));
  if (nul) return `flexbuffers: key with NUL at ${nul}`;
  return scan(m, shape, (_p, v) =>
    typeof v === "bigint" && (v < INT64[0] || v > UINT64[1])
      ? `flexbuffers: ${v} exceeds 64 bits`
      : null,
  );
}

/** A copy with its own ArrayBuffer (Buffer#slice would return a view). */
const copyOf = (b: Uint8Array) => Uint8Array.prototype.slice.call(b);

/** The builder writes a Blob from the view's whole ArrayBuffer: give each its own. */
const ownBuffer = (b: Uint8Array) =>
  b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : copyOf(b);

export const flexbuffers: Serializer = {
  name: "flexbuffers",
  format: "flexbuffers",
  pkg: "flatbuffers",
  labels: ["binary", "schemaless", "map-layout", "copying-decode", "enum-as-ordinal"],
  userDatasets: null,
  notApplicable: () => null,
  codec(ds): Codec {
    const flex = fresh<typeof Flex>("flatbuffers", "flatbuffers/js/flexbuffers.js");
    const { Builder } = sameCopy<typeof FlexBuilder>("flatbuffers/js/flexbuffers/builder.js");
    const shape = messageShape(ds.types);
    const write = writer(shape);
    const owned = leafConverter(shape, (p) => (p === "bytes" ? ownBuffer : null));
    const back = toNativeTree(shape);
    return {
      prepare(m) {
        const why = unfit(m, shape);
        if (why) throw new NotApplicable(why);
        return owned ? owned(m) : m;
      },
      encode(m) {
        const b = new Builder(2048, false, true, false);
        write(b, m);
        return b.finish();
      },
      // toObject reads an ArrayBuffer from its end: a view (a stream's frame) is copied.
      decode: (bytes) =>
        flex.toObject(
          bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
            ? (bytes.buffer as ArrayBuffer)
            : (copyOf(bytes).buffer as ArrayBuffer),
        ),
      toNative: back ?? undefined,
    };
  },
};
