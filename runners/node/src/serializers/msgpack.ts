// @msgpack/msgpack (the reference JavaScript implementation): maps, timestamp extension
// for Dates; int64 as BigInt when a user dataset holds integers beyond 2^53.
import type * as Msgpack from "@msgpack/msgpack";
import { mapAny } from "../convert.js";
import type { Codec, Serializer } from "./base.js";
import { fresh } from "./fresh.js";

const small = (x: unknown) =>
  typeof x === "bigint" && Number.isSafeInteger(Number(x)) ? Number(x) : x;

export const msgpackJs: Serializer = {
  name: "msgpack-js",
  format: "msgpack",
  pkg: "@msgpack/msgpack",
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
  codec(ds): Codec {
    const big = ds.kind === "user";
    const { Decoder, Encoder } = fresh<typeof Msgpack>("@msgpack/msgpack");
    const enc = new Encoder({ useBigInt64: big });
    const dec = new Decoder({ useBigInt64: big });
    return {
      encode: (m) => enc.encode(m),
      decode: (b) => dec.decode(b),
      decodeConcatenated(b, each) {
        for (const v of dec.decodeMulti(b)) each(v);
      },
      toNative: big ? (v) => mapAny(v, small) : undefined,
    };
  },
};
