// The stream framing label a serializer declares in describe (docs/runner-protocol.md,
// section 6): a codec with decodeConcatenated is self-delimiting, and Prepared then writes
// stream messages back to back with no length prefix.
import { resolveDataset } from "./datasets.js";
import type { Serializer } from "./serializers/base.js";

const PROBE = "pb-vs-msgpack-test1";

/** `stream-concatenated` when the serializer's stream codec concatenates, else nothing. */
export function framingLabels(s: Serializer): string[] {
  if (s.notApplicable(PROBE) !== null) return [];
  const ds = resolveDataset({ name: PROBE, kind: "builtin", data: "" });
  if (typeof ds === "string") return [];
  try {
    return s.codec(ds).decodeConcatenated ? ["stream-concatenated"] : [];
  } catch {
    // A serializer without a codec for the probe writes no stream there to frame.
    return [];
  }
}
