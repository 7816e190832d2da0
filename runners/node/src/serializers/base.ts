// What a serializer provides: a codec per dataset, or a reason it has none.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Dataset } from "../model.js";
import { NODE_MODULES } from "../paths.js";

/** One serializer bound to one dataset. */
export interface Codec {
  /** Native message -> what `encode` takes (outside timing; default identity). */
  prepare?(native: unknown): unknown;
  encode(message: any): Uint8Array;
  decode(bytes: Uint8Array): unknown;
  /** Decoded value -> the native model, for the check (outside timing; default identity). */
  toNative?(decoded: unknown): unknown;
  /**
   * Self-delimiting formats set this: stream messages are concatenated with no length
   * prefix and read back with it, each message passed to `each`.
   */
  decodeConcatenated?(bytes: Uint8Array, each: (value: unknown) => void): void;
}

export interface Serializer {
  name: string;
  format: string;
  /** The npm package (version and footprint come from it), or null for the platform. */
  pkg: string | null;
  labels: string[];
  /** Why a built-in dataset cannot be represented, or null when it can. */
  notApplicable(dataset: string): string | null;
  /** A codec for a dataset; throws NotApplicable when a value cannot be carried. */
  codec(ds: Dataset): Codec;
  /** Whether user datasets are taken at all (null) or why not. */
  userDatasets: string | null;
}

export class NotApplicable extends Error {}

export function packageJson(pkg: string): {
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
} {
  return JSON.parse(readFileSync(join(NODE_MODULES, pkg, "package.json"), "utf8"));
}

export function version(pkg: string | null): string {
  return pkg === null ? process.versions.node : packageJson(pkg).version;
}

function dirSize(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules") total += dirSize(p);
    } else if (e.isFile()) total += statSync(p).size;
  }
  return total;
}

/** Installed bytes of a package and its production dependencies (0 for the platform). */
export function footprint(pkg: string | null): number | null {
  if (pkg === null) return 0;
  const seen = new Set<string>();
  const walk = (name: string): number => {
    if (seen.has(name)) return 0;
    seen.add(name);
    let meta;
    try {
      meta = packageJson(name);
    } catch {
      return 0; // an optional dependency for another platform
    }
    let total = dirSize(join(NODE_MODULES, name));
    for (const d of Object.keys({ ...meta.dependencies, ...meta.optionalDependencies }))
      total += walk(d);
    return total;
  };
  try {
    return walk(pkg);
  } catch {
    return null;
  }
}
