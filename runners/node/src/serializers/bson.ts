// bson (the MongoDB driver's codec). A BSON root must be a document: list-rooted
// built-in datasets are wrapped as {items: [...]}, as applications storing them do; a
// user dataset's record or map is the document itself, any other top-level value is
// not applicable. BSON keys are C strings: a key holding U+0000 is not applicable.
import type * as Bson from "bson";
import { firstKey, isDocument, mapAny } from "../convert.js";
import { messageShape } from "../model.js";
import { NotApplicable, type Codec, type Serializer } from "./base.js";
import { fresh } from "./fresh.js";

const OPTS = { promoteBuffers: true, useBigInt64: false } as const;
/** User datasets may hold int64 beyond 2^53: read every int64 as BigInt, then narrow. */
const USER_OPTS = { promoteBuffers: true, useBigInt64: true } as const;
const small = (x: unknown) =>
  typeof x === "bigint" && Number.isSafeInteger(Number(x)) ? Number(x) : x;

/** The user dataset's message as a BSON document, or why it cannot be one. */
function userDocument(m: unknown): unknown {
  if (!isDocument(m)) throw new NotApplicable("bson: top-level value must be a document");
  const nul = firstKey(m, (k) => k.includes("\0"));
  if (nul) throw new NotApplicable(`bson: key with NUL at ${nul}`);
  return m;
}

export const bson: Serializer = {
  name: "bson",
  format: "bson",
  pkg: "bson",
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
    const { BSON } = fresh<typeof Bson>("bson");
    if (ds.kind === "user")
      return {
        prepare: userDocument,
        encode: (m) => BSON.serialize(m),
        decode: (b) => BSON.deserialize(b, USER_OPTS),
        toNative: (v) => mapAny(v, small),
      };
    // A list-rooted message (its types.json says `list<...>`) is wrapped.
    const wrap = messageShape(ds.types).kind === "list";
    if (!wrap)
      return { encode: (m) => BSON.serialize(m), decode: (b) => BSON.deserialize(b, OPTS) };
    return {
      encode: (m) => BSON.serialize({ items: m }),
      decode: (b) => BSON.deserialize(b, OPTS).items,
    };
  },
};
