// Test helpers: canonical dataset files written to a temporary folder.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareCell, type PrepareResult } from "../src/cell.js";
import { resolveDataset } from "../src/datasets.js";
import { REGISTRY } from "../src/serializers/index.js";
import type { Dataset } from "../src/model.js";

const dir = mkdtempSync(join(tmpdir(), "serbench-node-test-"));

export function canonical(name: string, items: unknown[], count = 1, framing = "single"): string {
  const path = join(dir, `${name}.${Math.random().toString(36).slice(2)}.json`);
  const doc = {
    format: "serbench-dataset",
    version: 1,
    name,
    scenario: "T",
    scale: "quick",
    framing,
    count,
    items,
  };
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

/** S1: ages, genders and glasses vary by seed; the sizes do not depend on them. */
export const S1 = [
  Array.from({ length: 30 }, (_, id) => ({
    id,
    name: `user ${id}`,
    age: (id * 7) % 50,
    gender: id % 2,
    isMegane: id % 3 === 0,
  })),
];

export const S2: Record<string, unknown> = {
  "pb-vs-msgpack-test1": { a: 1, b: 2 },
  "pb-vs-msgpack-test2": { a: -1, b: -2 },
  "pb-vs-msgpack-test3": { s: "a".repeat(8192) },
  "pb-vs-msgpack-test4": { t1: { a: 1, b: 2 }, t2: { a: -1, b: -2 }, t3: { s: "a".repeat(8192) } },
};

/** A user dataset (protocol section 7) from inline types and canonical items. */
export function userData(
  name: string,
  types: object,
  items: unknown[],
  framing: "single" | "stream" = "single",
  schemas: Dataset["schemas"] = {},
) {
  const typesPath = join(dir, `${name}.types.json`);
  writeFileSync(typesPath, JSON.stringify(types));
  const data = canonical(name, items, framing === "single" ? 1 : items.length, framing);
  return { name, kind: "user" as const, data, types: typesPath, schemas };
}

/** `ok`, `check_failed: <detail>` or `not_applicable: <reason>`. */
export function statusOf(serializer: string, ref: Parameters<typeof run>[1]): string {
  try {
    const r = run(serializer, ref);
    return r.reply.status === "ok" ? "ok" : `check_failed: ${r.reply.check?.detail}`;
  } catch (e) {
    return `not_applicable: ${(e as Error).message}`;
  }
}

export function run(
  serializer: string,
  ref: {
    name: string;
    kind: "builtin" | "user";
    data: string;
    check_data?: string;
    types?: string;
    schemas?: Dataset["schemas"];
  },
  operations = ["encode", "decode"],
): PrepareResult {
  const ds = resolveDataset(ref);
  if (typeof ds === "string") throw new Error(ds);
  const codec = REGISTRY[serializer].codec(ds);
  return prepareCell(codec, ds, ref.data, ref.check_data ?? ref.data, operations, null, null);
}

export { dir };
