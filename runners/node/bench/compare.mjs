// Accuracy check: three cells timed by serbench's `serve` (a child process) and by
// tinybench (in this process, on the same codec and operation), alternately, rounds
// times; the same estimator (median per-operation time) from both tools' raw values.
// Usage: node bench/compare.mjs [rounds]   (canonical files: serbench datasets --write)
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Bench } from "tinybench";
import { prepareCell } from "../build/src/cell.js";
import { resolveDataset } from "../build/src/serve.js";
import { REGISTRY } from "../build/src/serializers/index.js";

const ROUNDS = Number(process.argv[2] ?? 3);
const DATA = join(import.meta.dirname, "../../../.serbench/data");
const file = (scale, name) => {
  const f = readdirSync(join(DATA, scale)).find((x) => x.startsWith(name + "."));
  if (!f)
    throw new Error(
      `write the ${scale} datasets first: serbench datasets --scale ${scale} --write`,
    );
  return join(DATA, scale, f);
};
const CELLS = [
  ["small", "msgpackr", "android-users", "quick", "encode"],
  ["medium", "json", "click-maps", "quick", "decode"],
  ["large", "protobufjs", "log-records", "standard", "encode"],
];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const child = spawn("node", ["--expose-gc", "build/src/main.js", "serve"], {
  cwd: join(import.meta.dirname, ".."),
  stdio: ["pipe", "pipe", "inherit"],
});
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
async function call(cmd) {
  child.stdin.write(JSON.stringify(cmd) + "\n");
  return JSON.parse((await lines.next()).value);
}

async function serbench(i, [, ser, ds, scale, op]) {
  const cell = `c${i}`;
  const r = await call({
    cmd: "prepare",
    cell,
    serializer: ser,
    dataset: { name: ds, kind: "builtin", data: file(scale, ds) },
    operations: [op],
  });
  if (r.status !== "ok") throw new Error(JSON.stringify(r));
  // calibrate to ~10 ms samples, warm up, then 40 samples
  let n = 1;
  for (;;) {
    const s = await call({ cmd: "sample", cell, operation: op, iterations: n, samples: 1 });
    if (s.wall_ns[0] > 5e6 || n > 1e6) break;
    n *= 2;
  }
  await call({ cmd: "sample", cell, operation: op, iterations: n, samples: 50 });
  const s = await call({ cmd: "sample", cell, operation: op, iterations: n, samples: 40 });
  await call({ cmd: "release", cell });
  const per = s.wall_ns.map((w) => w / n);
  return [median(per), Math.min(...per)];
}

async function tiny([, ser, ds, scale, op]) {
  const ref = { name: ds, kind: "builtin", data: file(scale, ds) };
  const dataset = resolveDataset(ref);
  const codec = REGISTRY[ser].codec(dataset);
  const { ops } = prepareCell(codec, dataset, ref.data, ref.data, [op], null, null);
  const fn = ops.get(op).op;
  const bench = new Bench({ time: 1500, warmupTime: 500, retainSamples: true });
  bench.add(`${ser} ${op} ${ds}`, () => {
    fn();
  });
  await bench.run();
  const per = bench.tasks[0].result.latency.samples.map((ms) => ms * 1e6);
  return [median(per), Math.min(...per)];
}

const ratios = CELLS.map(() => []);
const minRatios = CELLS.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  for (const [k, cell] of CELLS.entries()) {
    const first = round % 2 === 0;
    const a = first ? await serbench(`${round}-${k}`, cell) : await tiny(cell);
    const b = first ? await tiny(cell) : await serbench(`${round}-${k}`, cell);
    const [sb, tb] = first ? [a, b] : [b, a];
    ratios[k].push(sb[0] / tb[0]);
    minRatios[k].push(sb[1] / tb[1]);
    console.error(
      `round ${round} ${cell[0]}: serbench ${sb.map(Math.round)} ns, tinybench ${tb.map(Math.round)} ns (median, min)`,
    );
  }
}
await call({ cmd: "quit" });
console.log(
  "| cell | median ratio per round | median of rounds | minimum ratio per round | median of rounds |",
);
console.log("|---|---|---|---|---|");
for (const [k, [size, ser, ds, scale, op]] of CELLS.entries())
  console.log(
    `| ${ser} ${op}, ${ds} ${scale} (${size}) | ${ratios[k].map((r) => r.toFixed(3)).join(", ")} | ${median(ratios[k]).toFixed(3)} | ${minRatios[k].map((r) => r.toFixed(3)).join(", ")} | ${median(minRatios[k]).toFixed(3)} |`,
  );
