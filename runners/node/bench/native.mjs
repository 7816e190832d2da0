// One cell timed by a native JavaScript harness, in a fresh process, on the same prepared
// operation the runner times (prepareCell: the same codec, the same per-cell code).
// Usage: node --expose-gc bench/native.mjs TOOL SERIALIZER DATASET DATA_FILE OPERATION ITERATIONS [SAMPLES]
//   TOOL = mitata:    mitata's measure() with batches of ITERATIONS calls (clock read at
//                     batch boundaries, as serbench does); raw value = batch time / ITERATIONS
//   TOOL = tinybench: tinybench's Bench, one clock pair per call; raw value = call time
// SAMPLES (optional): the tool measures as much as serbench did (mitata: SAMPLES batches;
// tinybench: SAMPLES x ITERATIONS calls) instead of its own default time.
// Prints {"per_op_ns": [...]} on stdout.
import { measure } from "mitata";
import { Bench } from "tinybench";
import { prepareCell } from "../build/src/cell.js";
import { resolveDataset } from "../build/src/serve.js";
import { REGISTRY } from "../build/src/serializers/index.js";

const [tool, ser, name, data, operation, iterations, samples] = process.argv.slice(2);
const equal = samples === undefined ? null : Number(samples);
const WARMUP_MS = 250;
const ref = { name, kind: "builtin", data };
const ds = resolveDataset(ref);
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
const op = ops.get(operation).op;
const sink = { v: undefined };
let perOp;
if (tool === "mitata") {
  // batch_unroll 1: exactly ITERATIONS calls per batch; about as long as serbench's run.
  const run = (budget) =>
    measure(() => (sink.v = op()), {
      batch_samples: Number(iterations),
      batch_unroll: 1,
      ...budget,
    });
  // Few samples measure cold code unless warmed first, for as long as serbench's
  // standard JIT minimum (250 ms).
  if (equal) await run({ min_samples: 1, min_cpu_time: WARMUP_MS * 1e6 });
  const stats = await run(
    equal
      ? { min_samples: equal, max_samples: equal, min_cpu_time: 0 }
      : { min_samples: 40, min_cpu_time: 400e6 },
  );
  perOp = stats.samples;
} else if (tool === "tinybench") {
  const budget = equal
    ? { time: 0, iterations: equal * Number(iterations), warmupTime: WARMUP_MS }
    : { time: 400, warmupTime: 200 };
  const bench = new Bench({ ...budget, retainSamples: true });
  bench.add(`${ser} ${operation} ${name}`, () => {
    sink.v = op();
  });
  await bench.run();
  perOp = bench.tasks[0].result.latency.samples.map((ms) => ms * 1e6);
} else throw new Error(`unknown tool ${tool}`);
process.stdout.write(JSON.stringify({ per_op_ns: perOp }) + "\n");
