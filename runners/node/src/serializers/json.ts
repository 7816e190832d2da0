// JSON.stringify / JSON.parse: date-times as ISO-8601 strings (Date.prototype.toJSON),
// revived from the dataset's types after parsing; bytes as base64, non-finite floats
// as "NaN" / "Infinity" strings. Integers beyond 2^53 are not applicable: JSON.parse
// reads every number as a double.
import { leafConverter, mapAny, scan } from "../convert.js";
import { messageShape } from "../model.js";
import { NotApplicable, type Codec, type Serializer } from "./base.js";

const utf8 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8");

const encodeFloat = (x: number) => (Number.isFinite(x) ? x : String(x));
const decodeFloat = (x: number | string) => (typeof x === "string" ? Number(x) : x);
const toBase64 = (b: Uint8Array) =>
  Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
const fromBase64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));

export const json: Serializer = {
  name: "json",
  format: "json",
  pkg: null,
  labels: [
    "text",
    "schemaless",
    "copying-decode",
    "map-layout",
    "enum-as-ordinal",
    "timestamp-as-text",
  ],
  userDatasets: null,
  notApplicable: () => null,
  codec(ds): Codec {
    const shape = messageShape(ds.types);
    const out = leafConverter(shape, (p) =>
      p === "float32" || p === "float64"
        ? encodeFloat
        : p === "bytes"
          ? toBase64
          : p === "any"
            ? (v) => mapAny(v, (x) => (typeof x === "number" ? encodeFloat(x) : x))
            : null,
    );
    const back = leafConverter(shape, (p) =>
      p === "timestamp_ms"
        ? (s: string) => new Date(s)
        : p === "float32" || p === "float64"
          ? decodeFloat
          : p === "bytes"
            ? fromBase64
            : null,
    );
    return {
      prepare(m) {
        const why = scan(m, shape, (_p, v) =>
          typeof v === "bigint" ? `json: ${v} exceeds 2^53 (JSON.parse reads doubles)` : null,
        );
        if (why) throw new NotApplicable(why);
        return m;
      },
      encode: out
        ? (m) => Buffer.from(JSON.stringify(out(m)))
        : (m) => Buffer.from(JSON.stringify(m)),
      decode: back ? (b) => back(JSON.parse(utf8(b))) : (b) => JSON.parse(utf8(b)),
    };
  },
};
