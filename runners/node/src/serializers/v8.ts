// V8's own structured-clone wire format (node:v8 serialize/deserialize). Labelled unsafe
// for untrusted input, as serbench's issue for this runner classes it: the format is the
// engine's internal one, and its reader builds objects of the sender's choosing (RegExp
// patterns, Error objects, buffers sized by lengths in the input), which a data-only format
// does not. 200,000 mutated inputs only threw, which shows robustness, not safety.
import { deserialize, serialize } from "node:v8";
import type { Serializer } from "./base.js";

export const v8: Serializer = {
  name: "v8",
  format: "v8-serialization",
  pkg: null,
  labels: [
    "binary",
    "schemaless",
    "copying-decode",
    "map-layout",
    "platform-native",
    "unsafe-untrusted-input",
  ],
  userDatasets: null,
  notApplicable: () => null,
  codec: () => ({
    encode: (m) => serialize(m),
    decode: (b) => deserialize(b),
  }),
};
