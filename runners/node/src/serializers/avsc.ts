// avsc: Avro binary encoding from each dataset's .avsc (user datasets: the schema the
// orchestrator wrote). timestamp-millis is read into Dates through a logical type;
// enums are symbols in Avro and ordinals in the native model (converted in prepare).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import avro from "avsc";
import { BUILTIN } from "../model.js";
import { SCHEMAS_DIR } from "../paths.js";
import { NotApplicable, type Codec, type Serializer } from "./base.js";
import { leafConverter, scan } from "../convert.js";
import { messageShape } from "../model.js";

class DateType extends avro.types.LogicalType {
  _fromValue(v: number) {
    return new Date(v);
  }
  _toValue(d: unknown) {
    return d instanceof Date ? d.getTime() : undefined;
  }
  _resolve(t: avro.Type) {
    if (avro.Type.isType(t, "long", "logical:timestamp-millis")) return this._fromValue.bind(this);
    return undefined;
  }
}

/** Fresh options per parse: avsc keeps its registry of named types in them. */
const opts = () => ({ logicalTypes: { "timestamp-millis": DateType } });

function schemaFile(dataset: string): string {
  const dir = BUILTIN[dataset];
  return join(SCHEMAS_DIR, dir, `${dir.replace(/-/g, "_")}.avsc`);
}

function typeFor(path: string, message: string): avro.Type {
  const raw = JSON.parse(readFileSync(path, "utf8"));
  if (Array.isArray(raw)) {
    // A family of several datasets (S2): its named records in one file, the dataset's
    // message type (types.json) is the one it encodes.
    const registry: Record<string, avro.Type> = {};
    avro.Type.forSchema(raw, { ...opts(), registry });
    const found = Object.entries(registry).find(
      ([name]) => name === message || name.endsWith(`.${message}`),
    );
    if (!found) throw new Error(`${path} has no record ${message}`);
    return found[1];
  }
  return avro.Type.forSchema(raw, opts());
}

export const avsc: Serializer = {
  name: "avsc",
  format: "avro",
  pkg: "avsc",
  labels: ["binary", "schema-required", "copying-decode", "dynamic"],
  userDatasets: null,
  notApplicable: () => null,
  codec(ds): Codec {
    let type: avro.Type;
    if (ds.kind === "user") {
      const s = ds.schemas.avsc;
      // The orchestrator's reason already names the format.
      if (s?.unavailable) throw new NotApplicable(s.unavailable);
      if (!s?.path) throw new NotApplicable("avro: the dataset has no .avsc schema");
      type = avro.Type.forSchema(JSON.parse(readFileSync(s.path, "utf8")), {
        ...opts(),
        wrapUnions: false,
      });
    } else type = typeFor(schemaFile(ds.name), ds.types.message);
    const shape = messageShape(ds.types);
    // avsc takes bytes as Buffer (a Uint8Array view of the same memory).
    // Enums are symbols in Avro, ordinals in the native model.
    const buffers = leafConverter(
      shape,
      (p) =>
        p === "bytes" ? (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength) : null,
      (symbols) => (i: number) => symbols[i],
    );
    const ordinals = leafConverter(
      shape,
      () => null,
      (symbols) => (s: string) => symbols.indexOf(s),
    );
    // A list-rooted message whose schema is a record (types.json's schema.avro_root: S1's
    // SampleList) travels as that record's one field.
    const field =
      shape.kind === "list" && type instanceof avro.types.RecordType ? type.fields[0].name : null;
    const toBuf = (b: Uint8Array) =>
      Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    return {
      prepare(m) {
        const why = scan(m, shape, (_p, v) =>
          typeof v === "bigint" ? `avsc: ${v} is beyond the 2^53 its long type holds` : null,
        );
        if (why) throw new NotApplicable(why);
        const v = buffers ? buffers(m) : m;
        return field === null ? v : { [field]: v };
      },
      encode: (m) => type.toBuffer(m),
      decode: (b) => type.fromBuffer(toBuf(b)),
      toNative:
        field === null
          ? (ordinals ?? undefined)
          : (v: any) => (ordinals ? ordinals(v[field]) : v[field]),
    };
  },
};
