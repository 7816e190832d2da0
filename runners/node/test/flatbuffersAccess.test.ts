// The access row reads every field in place, as the other runners' access rows do: what it
// reads changes with the last field of the last element, not only with the root.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Builder, ByteBuffer } from "flatbuffers";
import { BUILTIN } from "../src/gen/model/index.js";
import type { FbLayout } from "../src/typed/glue.js";
import { S1 } from "./helpers.js";

function touchOf(layout: FbLayout, message: unknown): number {
  const b = new Builder(1024);
  b.finish(layout.write(b, message));
  return layout.touch(layout.root(new ByteBuffer(b.asUint8Array())));
}

test("flatbuffers-access reads every field of android-users in place", () => {
  const layout = BUILTIN["android-users"].flatbuffers;
  assert.notEqual(typeof layout, "string");
  const fb = layout as FbLayout;
  const users = S1[0] as { name: string; age: number }[];
  const base = touchOf(fb, users);
  const last = users.length - 1;
  const older = users.map((u, i) => (i === last ? { ...u, age: u.age + 1 } : u));
  const renamed = users.map((u, i) => (i === last ? { ...u, name: `${u.name}!` } : u));
  assert.equal(touchOf(fb, older), base + 1);
  assert.equal(touchOf(fb, renamed), base + 1);
});
