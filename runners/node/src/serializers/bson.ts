// bson (the MongoDB driver's codec). A BSON root must be a document: list-rooted
// datasets are wrapped as {items: [...]}, as applications storing them do.
import type * as Bson from "bson";
import { mapAny } from "../convert.js";
import { LIST_ROOTED, type Codec, type Serializer } from "./base.js";
import { fresh } from "./fresh.js";

const OPTS = { promoteBuffers: true, useBigInt64: false } as const;
/** User datasets may hold int64 beyond 2^53: read every int64 as BigInt, then narrow. */
const USER_OPTS = { promoteBuffers: true, useBigInt64: true } as const;
const small = (x: unknown) =>
  typeof x === "bigint" && Number.isSafeInteger(Number(x)) ? Number(x) : x;

export const bson: Serializer = {
  name: "bson",
  format: "bson",
  pkg: "bson",
  labels: ["binary", "schemaless", "copying-decode", "map-layout"],
  userDatasets: null,
  notApplicable: () => null,
  codec(ds): Codec {
    const { BSON } = fresh<typeof Bson>("bson");
    if (ds.kind === "user")
      return {
        encode: (m) => BSON.serialize({ value: m }),
        decode: (b) => BSON.deserialize(b, USER_OPTS).value,
        toNative: (v) => mapAny(v, small),
      };
    const wrap = LIST_ROOTED.has(ds.name);
    if (!wrap)
      return { encode: (m) => BSON.serialize(m), decode: (b) => BSON.deserialize(b, OPTS) };
    return {
      encode: (m) => BSON.serialize({ items: m }),
      decode: (b) => BSON.deserialize(b, OPTS).items,
    };
  },
};
