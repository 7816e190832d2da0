// A new instance of a library for every cell. msgpackr, @msgpack/msgpack, cbor-x, bson and
// FlexBuffers walk any value with one generic encoder/decoder; V8 keeps its type feedback
// per function instance, so one instance serving several datasets in a process goes
// polymorphic and slows every cell it serves (msgpackr encode of android-users: 8.0 µs
// alone, 12.3 µs once the same Packr code had seen five other datasets; README,
// "Accuracy"). The orchestrator keeps many cells in one process, so each cell loads its
// own copy of the package's JavaScript through the CommonJS loader (native addons, such
// as msgpackr-extract, are shared: they hold no type feedback).
import { createRequire } from "node:module";
import { join, sep } from "node:path";
import { NODE_MODULES } from "../paths.js";

const require = createRequire(join(NODE_MODULES, "..", "package.json"));

/** A fresh copy of package `pkg` (its main module, or `module` inside it). */
export function fresh<T>(pkg: string, module: string = pkg): T {
  const dir = join(NODE_MODULES, pkg) + sep;
  for (const file of Object.keys(require.cache))
    if (file.startsWith(dir) && !file.endsWith(".node")) delete require.cache[file];
  return require(module) as T;
}

/** Another module of the copy `fresh` loaded last (the same instances, no reload). */
export function sameCopy<T>(module: string): T {
  return require(module) as T;
}
