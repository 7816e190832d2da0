// The stream framing label a serializer declares in describe (docs/runner-protocol.md,
// section 6): a codec with decodeConcatenated is self-delimiting, and Prepared then writes
// stream messages back to back with no length prefix.
import { resolveDataset } from "./datasets.js";
import { BUILTIN } from "./model.js";
import type { Serializer } from "./serializers/base.js";

/** `stream-concatenated` when the serializer's stream codec concatenates, else nothing. */
export function framingLabels(s: Serializer): string[] {
  // The codec of the first built-in it has one for: a codec concatenates or not whatever
  // the dataset (test/streamLabel.test.ts checks every stream dataset).
  for (const name of Object.keys(BUILTIN)) {
    if (s.notApplicable(name) !== null) continue;
    const ds = resolveDataset({ name, kind: "builtin", data: "" });
    if (typeof ds === "string") continue;
    try {
      return s.codec(ds).decodeConcatenated ? ["stream-concatenated"] : [];
    } catch {
      // No codec for this dataset: try the next.
    }
  }
  return [];
}
