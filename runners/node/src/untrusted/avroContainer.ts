// Avro object container files with avsc's own block streams (docs/runner-protocol.md
// section 11, `avro_container`): canonical JSON to avsc's values by the schema, and back.
//
// avsc reads a long as a Number and refuses one beyond 2^53, so both directions use a
// long type of BigInts (LongType.__with). Unions are wrapped (`{"double": 2.5}`): the
// branch is the one this module picked, not one avsc guesses from the value.
import avro from "avsc";
import { Uncarried, record } from "./canonical.js";

type Named = avro.Type & { readonly name?: string };

const bigLong = avro.types.LongType.__with({
  fromBuffer: (b: Buffer) => b.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(n);
    return b;
  },
  fromJSON: (n: number | string) => BigInt(n),
  toJSON: (n: bigint) => Number(n),
  isValid: (n: unknown) => typeof n === "bigint",
  compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
});

/** A fresh registry per schema: avsc stores the schema's named types in it. */
const parse = (schema: unknown): avro.Type =>
  avro.Type.forSchema(schema as avro.Schema, { registry: { long: bigLong }, wrapUnions: true });

/** A value that does not fit a type; a union tries its next branch. */
class Mismatch extends Uncarried {}

const FLOATS: Record<string, number> = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

const only = (v: unknown, key: string): unknown => {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === key ? (v as Record<string, unknown>)[key] : undefined;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

function bytes(v: unknown, at: string): Buffer {
  const h = only(v, "$bytes");
  if (typeof h !== "string" || !/^(?:[0-9a-fA-F]{2})*$/.test(h))
    throw new Mismatch(`${at}: expected {"$bytes": hex}`);
  return Buffer.from(h, "hex");
}

function number(v: unknown, at: string): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  const f = only(v, "$float");
  if (typeof f === "string" && f in FLOATS) return FLOATS[f];
  throw new Mismatch(`${at}: expected a number`);
}

function integer(v: unknown, at: string, min: bigint, max: bigint): bigint {
  if ((typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint") {
    const n = BigInt(v);
    if (n >= min && n <= max) return n;
    throw new Mismatch(`${at}: ${n} is out of range`);
  }
  throw new Mismatch(`${at}: expected an integer`);
}

/** The avsc value of canonical JSON `v` for type `t`; `at` names it in errors. */
export function toAvsc(t: avro.Type, v: unknown, at: string): unknown {
  const named = t as Named;
  switch (t.typeName) {
    case "null":
      if (v !== null) throw new Mismatch(`${at}: expected null`);
      return null;
    case "boolean":
      if (typeof v !== "boolean") throw new Mismatch(`${at}: expected a boolean`);
      return v;
    case "int":
      return Number(integer(v, at, BigInt(INT_MIN), BigInt(INT_MAX)));
    case "long":
    case "abstract:long":
      return integer(v, at, LONG_MIN, LONG_MAX);
    case "float":
    case "double":
      return number(v, at);
    case "string":
      if (typeof v !== "string") throw new Mismatch(`${at}: expected a string`);
      return v;
    case "bytes":
      return bytes(v, at);
    case "fixed": {
      const b = bytes(v, at);
      const size = (t as avro.types.FixedType).size;
      if (b.length !== size) throw new Mismatch(`${at}: ${b.length} bytes for fixed(${size})`);
      return b;
    }
    case "enum":
      if (typeof v !== "string" || !(t as avro.types.EnumType).symbols.includes(v))
        throw new Mismatch(`${at}: expected a symbol of ${named.name}`);
      return v;
    case "array":
      if (!Array.isArray(v)) throw new Mismatch(`${at}: expected a list`);
      return v.map((x, i) => toAvsc((t as avro.types.ArrayType).itemsType, x, `${at}[${i}]`));
    case "map": {
      if (!isObject(v) || only(v, "$bytes") !== undefined || only(v, "$float") !== undefined)
        throw new Mismatch(`${at}: expected an object`);
      const values = (t as avro.types.MapType).valuesType as avro.Type;
      return record(Object.keys(v).map((k) => [k, toAvsc(values, v[k], `${at}.${k}`)]));
    }
    case "record": {
      if (!isObject(v)) throw new Mismatch(`${at}: expected an object`);
      const fields = (t as avro.types.RecordType).fields;
      const known = new Set(fields.map((f) => f.name));
      const extra = Object.keys(v).find((k) => !known.has(k));
      if (extra !== undefined) throw new Mismatch(`${at}: ${named.name} has no field ${extra}`);
      return record(
        fields.map((f) => {
          if (!(f.name in v)) {
            if (f.defaultValue() === undefined)
              throw new Mismatch(`${at}: missing field ${f.name}`);
            return [f.name, f.defaultValue()];
          }
          return [f.name, toAvsc(f.type, v[f.name], `${at}.${f.name}`)];
        }),
      );
    }
    case "union:wrapped": {
      const branches = (t as avro.types.WrappedUnionType).types;
      for (const b of branches) {
        try {
          const x = toAvsc(b, v, at);
          return b.typeName === "null" ? null : { [b.branchName as string]: x };
        } catch (e) {
          if (!(e instanceof Mismatch)) throw e;
        }
      }
      throw new Mismatch(`${at}: no branch of ${JSON.stringify(t.schema())} carries the value`);
    }
    default:
      throw new Uncarried(`${at}: avro type ${t.typeName} is not carried`);
  }
}

function float(n: number): unknown {
  if (Number.isFinite(n)) return n;
  return { $float: Number.isNaN(n) ? "NaN" : n > 0 ? "Infinity" : "-Infinity" };
}

/** Canonical JSON of avsc's value `v` read as type `t`. */
export function fromAvsc(t: avro.Type, v: unknown): unknown {
  switch (t.typeName) {
    case "float":
    case "double":
      return float(v as number);
    case "bytes":
    case "fixed":
      return { $bytes: (v as Buffer).toString("hex") };
    case "array": {
      const items = (t as avro.types.ArrayType).itemsType;
      return (v as unknown[]).map((x) => fromAvsc(items, x));
    }
    case "map": {
      const values = (t as avro.types.MapType).valuesType as avro.Type;
      const m = v as Record<string, unknown>;
      return record(Object.keys(m).map((k) => [k, fromAvsc(values, m[k])]));
    }
    case "record": {
      const r = v as Record<string, unknown>;
      const fields = (t as avro.types.RecordType).fields;
      return record(fields.map((f) => [f.name, fromAvsc(f.type, r[f.name])]));
    }
    case "union:wrapped": {
      if (v === null) return null;
      const [name] = Object.keys(v as object);
      const branch = (t as avro.types.WrappedUnionType).types.find((b) => b.branchName === name);
      return fromAvsc(branch as avro.Type, (v as Record<string, unknown>)[name]);
    }
    default:
      // null, boolean, int, long (BigInt), string, enum symbols: canonical as they are
      return v;
  }
}

/** Collects a stream's output, or its first error. */
function drain<T>(s: NodeJS.ReadableStream & NodeJS.EventEmitter, input?: Buffer): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const out: T[] = [];
    s.on("data", (x: T) => out.push(x));
    // a stream may emit several errors (one per corrupt block): the first one settles
    s.on("error", reject);
    s.once("end", () => resolve(out));
    if (input !== undefined) (s as unknown as NodeJS.WritableStream).end(input);
  });
}

/** An object container file of `records` (canonical JSON) with avsc's BlockEncoder. */
export async function writeContainer(
  schema: unknown,
  codec: string,
  records: unknown,
): Promise<Uint8Array> {
  if (!Array.isArray(records)) throw new Uncarried("value: expected a list of records");
  const type = parse(schema);
  const values = records.map((r, i) => toAvsc(type, r, `value[${i}]`));
  const encoder = new avro.streams.BlockEncoder(type, { codec });
  const done = drain<Buffer>(encoder);
  for (const v of values) encoder.write(v);
  encoder.end();
  return Buffer.concat(await done);
}

/**
 * The records of an object container file, read with avsc's BlockDecoder (the writer's
 * schema from the file), and their canonical JSON (`render`). BlockDecoder waits for more
 * input when a file ends inside its header or a block and then ends without an error: a
 * truncated file is accepted with its complete blocks, which is avsc's own outcome.
 */
export async function readContainer(file: Uint8Array): Promise<{ render(): unknown[] }> {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  let type: avro.Type | undefined;
  const decoder = new avro.streams.BlockDecoder({ parseHook: parse });
  decoder.on("metadata", (t: avro.Type) => {
    type = t;
  });
  const values = await drain<unknown>(decoder, bytes);
  const t = type;
  return { render: () => (t === undefined ? [] : values.map((v) => fromAvsc(t, v))) };
}
