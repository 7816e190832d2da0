// Per serializer: which exceptions its library documents for bad input (only those answer
// "rejected"), its decode to a generic value, and its encode of one.
//
// What JavaScript does with the faults a runner must not catch: V8 reports a stack overflow
// as an ordinary RangeError ("Maximum call stack size exceeded") after unwinding, leaving
// the isolate sound, so it is caught like any exception and answers "error" unless the
// library documents it (cbor-x does). Running out of heap is not an exception: V8 aborts the
// process ("JavaScript heap out of memory"), which the orchestrator sees and bisects.
import type * as Msgpack from "@msgpack/msgpack";
import type * as Bson from "bson";
import type * as CborX from "cbor-x";
import type * as Msgpackr from "msgpackr";
import { fresh } from "../serializers/fresh.js";
import { readContainer, writeContainer } from "./avroContainer.js";
import { Uncarried, fromCanonical, type Builders, type Hook } from "./canonical.js";

type Decode = (bytes: Uint8Array) => unknown;
type Encode = (value: unknown) => Uint8Array;

export interface Library {
  /** Whether an exception is the library's documented refusal of its input. */
  rejects(e: unknown): boolean;
  /**
   * The library's own decode (no model conversion), with its default options as a caller
   * decoding bytes from the network gets them, and how its own classes render (`hook`).
   */
  decoder?: () => { decode: Decode; hook?: Hook };
  /** Whether `decoder` answers dataset-less commands (false: name a dataset). */
  generic?: boolean;
  /** The library's encode of a canonical value (absent: no generic encode here). */
  encoder?: () => Encode;
  /** Avro object container files (capability `avro_container`) with the library's streams. */
  container?: {
    write(schema: unknown, codec: string, records: unknown): Promise<Uint8Array>;
    /** The library's read of a file; `render` gives its records as canonical JSON. */
    read(file: Uint8Array): Promise<{ render(): unknown[] }>;
    rejects(e: unknown): boolean;
  };
}

/** Rows with no documented way to refuse bad input: they answer `unsupported`. */
export const UNSUPPORTED: Record<string, string> = {
  v8: "v8.deserialize builds objects of the sender's choosing; Node.js does not offer it for untrusted input",
  handwritten:
    "the hand-written reader has no bounds checks (reads past the end yield undefined): it is not a decoder for untrusted input",
  flatbuffers:
    "the JavaScript flatbuffers library has no verifier and documents no error for bad input",
  "flatbuffers-access":
    "the JavaScript flatbuffers library has no verifier and documents no error for bad input",
  flexbuffers:
    "the JavaScript flexbuffers reader does not validate offsets and documents no error for bad input",
};

const isError = (e: unknown): e is Error => e instanceof Error;
/** Libraries that throw plain `Error`s for bad data; TypeErrors and the like are faults. */
const plainError = (e: unknown) => isError(e) && e.constructor === Error;
const STACK = "Maximum call stack size exceeded";
/** RangeErrors V8 itself raises for resources, not for the input's format. */
const ENGINE = [
  STACK,
  "Array buffer allocation failed",
  "Invalid array length",
  "Invalid string length",
];
const engineRangeError = (e: Error) => ENGINE.some((m) => e.message.includes(m));

const utf8 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8");
const buffer = (b: Uint8Array) =>
  Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** Canonical value -> a library's tree, `Uncarried` (not_applicable) where it cannot hold it. */
function encoderOf(builders: Builders, encode: Encode): Encode {
  return (v) => encode(fromCanonical(v, builders));
}

/** A Date for a timestamp a millisecond clock holds exactly. */
function date(seconds: number, ns: number): Date {
  if (ns % 1_000_000 !== 0) throw new Uncarried("Date holds milliseconds, not nanoseconds");
  return new Date(seconds * 1000 + ns / 1_000_000);
}

function msgpackr(useRecords: boolean): Library {
  return {
    // msgpackr's README names no error class; its reader refuses bad data with plain
    // Errors ("Unexpected end of MessagePack data" with an `incomplete` flag, "Unknown
    // extension", "Data read, but end of buffer not reached"). TypeErrors and the DataView's
    // RangeErrors escape from reads it did not check.
    rejects: plainError,
    decoder() {
      const { Unpackr } = fresh<typeof Msgpackr>("msgpackr");
      const u = new Unpackr();
      return { decode: (b) => u.unpack(buffer(b)) };
    },
    encoder() {
      const { Packr } = fresh<typeof Msgpackr>("msgpackr");
      const p = new Packr({ useRecords });
      return encoderOf(
        { map: (pairs) => new Map(pairs), timestamp: date, nonFinite: true, bigint: true },
        (v) => p.pack(v),
      );
    },
  };
}

let bsonLib: typeof Bson | undefined;

/** BSON's own classes (they carry `_bsontype`): Binary, Long, ObjectId, Timestamp, ... */
const bsonHook: Hook = (v, inner) => {
  const t = (v as { _bsontype?: string })._bsontype;
  if (t === undefined) return undefined;
  if (t === "Binary") {
    const b = v as Bson.Binary;
    return b.sub_type === 0
      ? { $bytes: Buffer.from(b.buffer.subarray(0, b.position)).toString("hex") }
      : { $other: `Binary subtype ${b.sub_type}: ${b.toString("hex")}` };
  }
  if (t === "Long") return BigInt(String(v));
  if (t === "Int32" || t === "Double") return inner((v as Bson.Int32).valueOf());
  return { $other: `${t}: ${String(v)}`.slice(0, 200) };
};

function bsonDecode(b: Uint8Array): unknown {
  const { BSON } = (bsonLib ??= fresh<typeof Bson>("bson"));
  return BSON.deserialize(b);
}

const protobufjs: Library = {
  // protobufjs documents `Error` for an invalid payload ("invalid wire type", "invalid
  // varint encoding"), its Reader's RangeError "index out of range" for a truncated one,
  // and util.ProtocolError for missing required fields.
  rejects: (e) =>
    plainError(e) ||
    (e instanceof RangeError && e.message.startsWith("index out of range")) ||
    (isError(e) && e.name === "ProtocolError"),
};

export const LIBRARIES: Record<string, Library> = {
  json: {
    // JSON.parse throws SyntaxError for text that is not JSON (ECMA-262, JSON.parse).
    rejects: (e) => e instanceof SyntaxError,
    // Bytes to text as the json row reads them: invalid UTF-8 becomes U+FFFD.
    decoder: () => ({ decode: (b) => JSON.parse(utf8(b)) }),
    generic: true,
    encoder: () => encoderOf({}, (v) => Buffer.from(JSON.stringify(v))),
  },
  msgpackr: { ...msgpackr(false), generic: true },
  "msgpackr-records": { ...msgpackr(true), generic: true },
  // Its rows are arrays in field order: only meaningful against a dataset.
  "msgpackr-positional": { ...msgpackr(false), encoder: undefined },
  "msgpack-js": {
    // @msgpack/msgpack throws DecodeError for bad data and RangeError for a buffer that is
    // short, empty or has extra bytes (README, "decode"); V8's own RangeErrors are faults.
    rejects: (e) =>
      isError(e) && (e.name === "DecodeError" || (e instanceof RangeError && !engineRangeError(e))),
    decoder() {
      const { Decoder, ExtData } = fresh<typeof Msgpack>("@msgpack/msgpack");
      const d = new Decoder();
      return {
        decode: (b) => d.decode(b),
        hook: (v) =>
          v instanceof ExtData
            ? { $ext: [v.type, Buffer.from(v.data as Uint8Array).toString("hex")] }
            : undefined,
      };
    },
    generic: true,
    encoder() {
      const { Encoder, ExtData, encodeTimeSpecToTimestamp } =
        fresh<typeof Msgpack>("@msgpack/msgpack");
      const enc = new Encoder({ useBigInt64: true });
      return encoderOf(
        {
          ext: (type, data) => new ExtData(type, data),
          timestamp: (sec, nsec) => new ExtData(-1, encodeTimeSpecToTimestamp({ sec, nsec })),
          nonFinite: true,
          bigint: true,
        },
        (v) => enc.encode(v),
      );
    },
  },
  "cbor-x": {
    // cbor-x throws plain Errors for bad data ("Unexpected end of CBOR data", ...), and its
    // README names the engine's stack overflow RangeError as what deep nesting throws,
    // "like other malformed input".
    rejects: (e) => plainError(e) || (e instanceof RangeError && e.message.includes(STACK)),
    decoder() {
      const { Decoder, Tag } = fresh<typeof CborX>("cbor-x");
      const d = new Decoder();
      return {
        decode: (b) => d.decode(b),
        hook: (v, inner) => (v instanceof Tag ? { $tag: [v.tag, inner(v.value, 2)] } : undefined),
      };
    },
    generic: true,
    encoder() {
      const { Encoder, Tag } = fresh<typeof CborX>("cbor-x");
      // the cbor-x row's options: plain maps and byte strings, interoperable bytes
      const enc = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });
      return encoderOf(
        {
          map: (pairs) => new Map(pairs),
          tag: (tag, value) => new Tag(value, Number(tag)),
          undefined: true,
          nonFinite: true,
          bigint: true,
        },
        (v) => enc.encode(v),
      );
    },
  },
  bson: {
    // "use BSONError.isBSONError() checks on errors" (bson README, "Error Handling"); the
    // check holds across copies of the package.
    rejects: (e) => (bsonLib ??= fresh<typeof Bson>("bson")).BSONError.isBSONError(e),
    decoder: () => ({ decode: (b) => bsonDecode(b), hook: bsonHook }),
    generic: true,
    encoder() {
      const { BSON } = fresh<typeof Bson>("bson");
      return encoderOf({ nonFinite: true, bigint: true }, (v) => {
        if (v === null || typeof v !== "object" || Array.isArray(v))
          throw new Uncarried("a BSON root is a document");
        return BSON.serialize(v as Bson.Document);
      });
    },
  },
  protobufjs,
  "protobufjs-reflect": protobufjs,
  // avsc's Type.fromBuffer refuses bad data with plain Errors ("truncated buffer",
  // "trailing data", invalid union or enum indices).
  avsc: {
    rejects: plainError,
    container: {
      write: writeContainer,
      read: readContainer,
      // BlockDecoder emits plain Errors ("invalid magic bytes", "invalid sync marker",
      // "truncated block", "unknown codec") and the SyntaxError of a header whose schema
      // is not JSON.
      rejects: (e) => plainError(e) || e instanceof SyntaxError,
    },
  },
};
