// The harness baseline: encode returns a prepared buffer, decode the original objects,
// through the same loop, framing and sinks as every serializer.
import type { Codec, Serializer } from "./base.js";

const BLOB = new Uint8Array(8);

export const noop: Serializer = {
  name: "noop",
  format: "none",
  pkg: null,
  labels: ["baseline"],
  userDatasets: null,
  notApplicable: () => null,
  codec(): Codec {
    const originals: unknown[] = [];
    let next = 0;
    return {
      prepare(m) {
        originals.push(m);
        return m;
      },
      encode: () => BLOB,
      decode() {
        // Streams are read in order: the n-th decode returns the n-th original.
        const v = originals[next];
        next = next + 1 === originals.length ? 0 : next + 1;
        return v;
      },
    };
  },
};
