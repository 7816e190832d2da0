// `npm ci` only when node_modules does not match package-lock.json: a rebuild after a user
// dataset is registered then costs the code generation and tsc, not a reinstall.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const packages = (path) =>
  existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")).packages ?? {}) : null;
// npm writes node_modules/.package-lock.json: the packages as installed (optional ones for
// other platforms left out).
const installed = packages(join(here, "node_modules/.package-lock.json"));
const wanted = packages(join(here, "package-lock.json"));
const current =
  installed !== null &&
  Object.entries(wanted).every(([path, p]) =>
    path === "" || p.optional
      ? installed[path] === undefined || installed[path].version === p.version
      : installed[path]?.version === p.version,
  ) &&
  Object.keys(installed).every((path) => path in wanted);
if (current) {
  console.error("serbench node runner: node_modules matches package-lock.json");
} else {
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: here, stdio: "inherit" });
}
