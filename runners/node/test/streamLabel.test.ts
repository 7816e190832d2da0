// The framing label in describe matches the codec that frames every stream dataset.
import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveDataset } from "../src/datasets.js";
import { framingLabels } from "../src/streamLabel.js";
import { REGISTRY } from "../src/serializers/index.js";

const STREAMS = [1, 2, 3, 4].map((i) => `pb-vs-msgpack-test${i}`).concat("click-maps");

test("stream-concatenated is declared exactly by the concatenating codecs", () => {
  for (const s of Object.values(REGISTRY)) {
    const labelled = framingLabels(s).includes("stream-concatenated");
    for (const name of STREAMS) {
      const ds = resolveDataset({ name, kind: "builtin", data: "" });
      if (typeof ds === "string" || s.notApplicable(name) !== null) continue;
      let concatenates: boolean;
      try {
        concatenates = s.codec(ds).decodeConcatenated !== undefined;
      } catch {
        continue;
      }
      assert.equal(concatenates, labelled, `${s.name} on ${name}`);
    }
  }
  assert.deepEqual(framingLabels(REGISTRY["msgpackr-positional"]), ["stream-concatenated"]);
  assert.deepEqual(framingLabels(REGISTRY["protobufjs"]), []);
});
