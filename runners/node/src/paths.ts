// Where things are, relative to this runner's folder (build/src/paths.js at run time).
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** runners/node/ (this file runs from build/src/). */
export const RUNNER_DIR = resolve(here, "../..");
export const DATASETS_DIR = resolve(RUNNER_DIR, "../../datasets");
/** The built-in datasets' .proto and .avsc, copied here by scripts/gen.mjs. */
export const SCHEMAS_DIR = resolve(RUNNER_DIR, "build/schemas");
export const NODE_MODULES = resolve(RUNNER_DIR, "node_modules");
