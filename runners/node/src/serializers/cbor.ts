// cbor-x: CBOR maps (its record extension off, for interoperable bytes), Dates as
// tag 1 epoch times, bytes as byte strings.
import type * as CborX from "cbor-x";
import type { Codec, Serializer } from "./base.js";
import { fresh } from "./fresh.js";

export const cborX: Serializer = {
  name: "cbor-x",
  format: "cbor",
  pkg: "cbor-x",
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
  codec(): Codec {
    const opts = {
      useRecords: false,
      mapsAsObjects: true,
      tagUint8Array: false,
      int64AsNumber: false,
    };
    const { Decoder, Encoder } = fresh<typeof CborX>("cbor-x");
    const enc = new Encoder(opts);
    const dec = new Decoder(opts);
    return {
      encode: (m) => enc.encode(m),
      decode: (b) => dec.decode(b),
      decodeConcatenated: (b, each) => {
        dec.decodeMultiple(b, (v: unknown) => {
          each(v);
        });
      },
    };
  },
};
