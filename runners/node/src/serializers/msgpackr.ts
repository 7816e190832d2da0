// msgpackr: plain MessagePack maps, its record extension (object shapes defined once
// per message and referenced by id), and the seed's positional layout (records as
// arrays in field order, converted by code compiled from the dataset's types).
// Dates use the MessagePack timestamp extension; int64 beyond 2^53 as BigInt.
import type * as Msgpackr from "msgpackr";
import type { Options } from "msgpackr";
import { positional } from "../convert.js";
import { messageShape } from "../model.js";
import type { Codec, Serializer } from "./base.js";
import { fresh } from "./fresh.js";

// int64AsType "auto" (numbers within 2^53, BigInt beyond) is missing from the typings.
const common = { int64AsType: "auto", mapsAsObjects: true } as unknown as Options;

function codec(useRecords: boolean): Codec {
  const { Packr, Unpackr } = fresh<typeof Msgpackr>("msgpackr");
  const packr = new Packr({ ...common, useRecords });
  const unpackr = new Unpackr({ ...common, useRecords });
  return {
    encode: (m) => packr.pack(m),
    decode: (b) => unpackr.unpack(b),
    decodeConcatenated: (b, each) => unpackr.unpackMultiple(b as Buffer, each),
  };
}

export const msgpackr: Serializer = {
  name: "msgpackr",
  format: "msgpack",
  pkg: "msgpackr",
  labels: [
    "binary",
    "schemaless",
    "copying-decode",
    "map-layout",
    "enum-as-ordinal",
    "timestamp-native",
  ],
  userDatasets: null,
  notApplicable: () => null,
  codec: () => codec(false),
};

export const msgpackrRecords: Serializer = {
  name: "msgpackr-records",
  format: "msgpack+msgpackr-records",
  pkg: "msgpackr",
  labels: [
    "binary",
    "schemaless",
    "copying-decode",
    "positional",
    "enum-as-ordinal",
    "timestamp-native",
  ],
  userDatasets: null,
  notApplicable: () => null,
  codec: () => codec(true),
};

export const msgpackrPositional: Serializer = {
  name: "msgpackr-positional",
  format: "msgpack",
  pkg: "msgpackr",
  labels: [
    "binary",
    "schemaless",
    "copying-decode",
    "positional",
    "enum-as-ordinal",
    "timestamp-native",
  ],
  userDatasets: null,
  notApplicable: () => null,
  codec(ds): Codec {
    const [pack, unpack] = positional(messageShape(ds.types));
    const { Packr, Unpackr } = fresh<typeof Msgpackr>("msgpackr");
    const packr = new Packr({ ...common, useRecords: false });
    const unpackr = new Unpackr({ ...common, useRecords: false });
    return {
      encode: (m) => packr.pack(pack(m)),
      decode: (b) => unpack(unpackr.unpack(b)),
      decodeConcatenated: (b, each) =>
        unpackr.unpackMultiple(b as Buffer, (v: unknown) => {
          each(unpack(v));
        }),
    };
  },
};
