// The runner's sample loop (takeSamples, as `sample` commands run it) and mitata's
// measure, alternated in one process on the same prepared operation with the same
// batch size and the same number of samples: the harnesses compared with the machine's
// load drift and the sample count taken out (`serbench calibrate` compares whole tools,
// each in its own process, one after the other).
// Usage: node --expose-gc bench/inprocess.mjs SERIALIZER DATASET DATA_FILE OPERATION ITERATIONS [ROUNDS]
// Prints one line per round: each tool's minimum and median per operation and their ratios.
import { measure } from "mitata";
import { prepareCell } from "../build/src/cell.js";
import { resolveDataset } from "../build/src/datasets.js";
import { REGISTRY } from "../build/src/serializers/index.js";
import { takeSamples } from "../build/src/timing.js";

const [ser, name, data, operation, iterations, rounds = "10"] = process.argv.slice(2);
const n = Number(iterations);
const SAMPLES = 30; // the standard profile's measured samples per process (10 slices of 3)
const ds = resolveDataset({ name, kind: "builtin", data });
if (typeof ds === "string") throw new Error(ds);
const { reply, ops } = prepareCell(
  REGISTRY[ser].codec(ds),
  ds,
  data,
  data,
  [operation],
  null,
  null,
);
if (reply.status !== "ok") throw new Error(JSON.stringify(reply));
const { op, loop } = ops.get(operation);
const sink = { v: undefined };
const mitata = () =>
  measure(() => (sink.v = op()), {
    batch_samples: n,
    batch_unroll: 1,
    min_samples: SAMPLES,
    max_samples: SAMPLES,
    min_cpu_time: 0,
  });
const min = (a) => Math.min(...a);
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

// Warm both past V8's optimising tier (the orchestrator's JIT minimum is 250 ms).
for (const start = Date.now(); Date.now() - start < 300;) await takeSamples(op, loop, n, 3);
await mitata();
for (let r = 0; r < Number(rounds); r++) {
  const ours = (await takeSamples(op, loop, n, SAMPLES)).wall_ns.map((w) => w / n);
  const theirs = (await mitata()).samples;
  const [a, b] = [
    [min(ours), min(theirs)],
    [median(ours), median(theirs)],
  ];
  console.log(
    `round ${r + 1}: runner min ${a[0].toFixed(0)} median ${b[0].toFixed(0)} ns | ` +
      `mitata min ${a[1].toFixed(0)} median ${b[1].toFixed(0)} ns | ` +
      `ratio min ${(a[0] / a[1]).toFixed(3)} median ${(b[0] / b[1]).toFixed(3)}`,
  );
}
