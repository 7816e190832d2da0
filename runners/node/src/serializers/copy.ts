// The copy floor: encode copies each message's prepared bytes (its v8.serialize form)
// into a new buffer, decode copies the encoded bytes into a scratch buffer without
// parsing them. The check reads them back with v8.deserialize.
import { deserialize, serialize } from "node:v8";
import type { Codec, Serializer } from "./base.js";

export const copy: Serializer = {
  name: "copy",
  format: "none",
  pkg: null,
  labels: ["baseline"],
  userDatasets: null,
  notApplicable: () => null,
  codec(): Codec {
    let scratch = Buffer.allocUnsafe(1 << 16);
    return {
      prepare: (m) => new Uint8Array(serialize(m)),
      encode(bytes: Uint8Array) {
        const out = Buffer.allocUnsafe(bytes.length);
        out.set(bytes);
        return out;
      },
      decode(bytes) {
        if (scratch.length < bytes.length) scratch = Buffer.allocUnsafe(bytes.length);
        scratch.set(bytes);
        return scratch;
      },
      toNative: (b) => deserialize(b as Buffer),
    };
  },
};
