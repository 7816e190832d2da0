// A field-by-field binary writer/reader on Buffer (the Parcelable stand-in), generated per
// dataset from its types (scripts/typegen.mjs, src/gen/model): little-endian fixed-width
// numbers, strings and byte arrays after a length, counts before lists and maps, a
// presence byte before an optional value. S1 keeps the seed's two-byte string length.
import { typedModel } from "../typed/models.js";
import { NotApplicable, type Serializer } from "./base.js";

export const handwritten: Serializer = {
  name: "handwritten",
  format: "custom-binary",
  pkg: null,
  labels: ["binary", "handwritten", "copying-decode", "positional", "generated"],
  userDatasets: null,
  notApplicable: () => null,
  codec(ds) {
    const codec = typedModel(ds).handwritten;
    if (typeof codec === "string") throw new NotApplicable(codec);
    return codec;
  },
};
