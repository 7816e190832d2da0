// One cell timed by mitata, in a fresh process, on the same prepared operation the runner
// times (prepareCell: the same codec, the same per-cell code): the native harness of
// `serbench calibrate` (docs/runner-protocol.md, section 12).
// Usage: node --expose-gc bench/native.mjs --serializer S --dataset D --dataset-file F
//          --operation OP --iterations N --samples K --warmup-ms W [--sample-ms M]
// mitata's measure() warms the operation for W ms, then takes K batches of N calls (clock
// read at batch boundaries, as serbench does), after its own full collection. Prints one
// JSON line per batch: {"wall_ns": ..., "cpu_ns": null, "iterations": N}.
import { parseArgs } from "node:util";
import { measure } from "mitata";
import { prepareCell } from "../build/src/cell.js";
import { resolveDataset } from "../build/src/datasets.js";
import { REGISTRY } from "../build/src/serializers/index.js";

const { values: opts } = parseArgs({
  options: {
    serializer: { type: "string" },
    dataset: { type: "string" },
    "dataset-file": { type: "string" },
    operation: { type: "string" },
    iterations: { type: "string" },
    samples: { type: "string" },
    "warmup-ms": { type: "string", default: "250" },
    "sample-ms": { type: "string" },
  },
});
for (const name of ["serializer", "dataset", "dataset-file", "operation", "iterations", "samples"])
  if (opts[name] === undefined) throw new Error(`missing --${name}`);
const iterations = Number(opts.iterations);
const samples = Number(opts.samples);
const data = opts["dataset-file"];
const ds = resolveDataset({ name: opts.dataset, kind: "builtin", data });
if (typeof ds === "string") throw new Error(ds);
const serializer = REGISTRY[opts.serializer];
if (serializer === undefined) throw new Error(`unknown serializer ${opts.serializer}`);
const reason = serializer.notApplicable(opts.dataset);
if (reason !== null) throw new Error(`${opts.serializer} does not apply: ${reason}`);
const { reply, ops } = prepareCell(
  serializer.codec(ds),
  ds,
  data,
  data,
  [opts.operation],
  null,
  null,
);
if (reply.status !== "ok") throw new Error(`prepare: ${JSON.stringify(reply)}`);
const op = ops.get(opts.operation).op;
const sink = { v: undefined };

// few samples measure cold code unless warmed first
await measure(() => (sink.v = op()), { min_cpu_time: Number(opts["warmup-ms"]) * 1e6 });
const stats = await measure(() => (sink.v = op()), {
  batch_samples: iterations, // with batch_unroll 1: exactly this many calls per batch
  batch_unroll: 1,
  min_samples: samples,
  max_samples: samples,
  min_cpu_time: 0,
});
for (const perOp of stats.samples)
  process.stdout.write(
    JSON.stringify({ wall_ns: Math.round(perOp * iterations), cpu_ns: null, iterations }) + "\n",
  );
