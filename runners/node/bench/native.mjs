// One cell timed by a native JavaScript harness, in a fresh process, on the same prepared
// operation the runner times (prepareCell: the same codec, the same per-cell code).
// Usage: node --expose-gc bench/native.mjs TOOL SERIALIZER DATASET DATA_FILE OPERATION ITERATIONS
//   TOOL = mitata:    mitata's measure() with batches of ITERATIONS calls (clock read at
//                     batch boundaries, as serbench does); raw value = batch time / ITERATIONS
//   TOOL = tinybench: tinybench's Bench, one clock pair per call; raw value = call time
// Prints {"per_op_ns": [...]} on stdout.
import { measure } from "mitata";
import { Bench } from "tinybench";
import { prepareCell } from "../build/src/cell.js";
import { resolveDataset } from "../build/src/serve.js";
import { REGISTRY } from "../build/src/serializers/index.js";

const [tool, ser, name, data, operation, iterations] = process.argv.slice(2);
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
  const stats = await measure(() => (sink.v = op()), {
    batch_samples: Number(iterations),
    batch_unroll: 1,
    min_samples: 40,
    min_cpu_time: 400e6,
  });
  perOp = stats.samples;
} else if (tool === "tinybench") {
  const bench = new Bench({ time: 400, warmupTime: 200, retainSamples: true });
  bench.add(`${ser} ${operation} ${name}`, () => {
    sink.v = op();
  });
  await bench.run();
  perOp = bench.tasks[0].result.latency.samples.map((ms) => ms * 1e6);
} else throw new Error(`unknown tool ${tool}`);
process.stdout.write(JSON.stringify({ per_op_ns: perOp }) + "\n");
