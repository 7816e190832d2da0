// One cell timed by a native JavaScript harness, in a fresh process, on the same prepared
// operation the runner times (prepareCell: the same codec, the same per-cell code).
// Usage: node --expose-gc bench/native.mjs TOOL SERIALIZER DATASET DATA_FILE OPERATION ITERATIONS
//          [--samples K] [--warmup-ms W] [--neighbours A,B,... --slices S --neighbour-slice-ms MS]
//   TOOL = mitata:    mitata's measure() with batches of ITERATIONS calls (clock read at
//                     batch boundaries, as serbench does); raw value = batch time / ITERATIONS
//   TOOL = tinybench: tinybench's Bench, one clock pair per call; raw value = call time
// Alone (no --neighbours): the tool's own default time, or with --samples as much as
//   serbench measured (mitata: K batches; tinybench: K x ITERATIONS calls) after a warm-up
//   of W ms (bench/compare.py passes serbench's JIT minimum).
// --neighbours: the process is in the state a serbench run measures in. It prepares these
//   serializers' cells on the same dataset as well (those that do not apply are skipped, as
//   the runner skips them), warms every cell for W ms, then takes S slices of K / S samples of the
//   cell; before each slice every neighbour runs for about MS in a shuffled order, as the
//   orchestrator interleaves the cells of a block. Like the runner's `sample` commands,
//   a slice starts with no collection (mitata's own full one before its samples is off).
// Prints {"per_op_ns": [...]} on stdout.
import { parseArgs } from "node:util";
import { measure } from "mitata";
import { Bench } from "tinybench";
import { prepareCell } from "../build/src/cell.js";
import { resolveDataset } from "../build/src/serve.js";
import { REGISTRY } from "../build/src/serializers/index.js";

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    samples: { type: "string" },
    "warmup-ms": { type: "string", default: "250" },
    neighbours: { type: "string", default: "" },
    slices: { type: "string", default: "10" },
    "neighbour-slice-ms": { type: "string", default: "3" },
  },
});
const [tool, ser, name, data, operation, iterationsArg] = positionals;
const iterations = Number(iterationsArg);
const equal = opts.samples === undefined ? null : Number(opts.samples);
const warmupMs = Number(opts["warmup-ms"]);
const ds = resolveDataset({ name, kind: "builtin", data });

/** The cell's operation as the runner prepares it, or null where the runner skips it. */
function prepare(serializer) {
  const s = REGISTRY[serializer];
  if (s.notApplicable(name) !== null) return null;
  let codec;
  try {
    codec = s.codec(ds);
  } catch {
    return null; // NotApplicable for this dataset
  }
  const { reply, ops } = prepareCell(codec, ds, data, data, [operation], null, null);
  return reply.status === "ok" ? ops.get(operation).op : null;
}

/** Calls op for at least ms milliseconds (at least once), keeping each result. */
function runFor(op, ms, sink) {
  const end = process.hrtime.bigint() + BigInt(Math.round(ms * 1e6));
  do sink.v = op();
  while (process.hrtime.bigint() < end);
}

const op = prepare(ser);
if (op === null) throw new Error(`${ser} does not apply to ${name}`);
const sink = { v: undefined };
const neighbours = opts.neighbours
  .split(",")
  .filter((n) => n && n !== ser)
  .map(prepare)
  .filter((o) => o !== null);

/** mitata: `samples` batches of `iterations` calls, after its own full collection if ownGc. */
async function mitata(samples, ownGc) {
  const budget =
    samples === null
      ? { min_samples: 40, min_cpu_time: 400e6 }
      : { min_samples: samples, max_samples: samples, min_cpu_time: 0 };
  const stats = await measure(() => (sink.v = op()), {
    batch_samples: iterations, // with batch_unroll 1: exactly this many calls per batch
    batch_unroll: 1,
    ...(ownGc ? {} : { gc: false }),
    ...budget,
  });
  return stats.samples;
}

/** tinybench: `samples` x `iterations` calls (or its own time), one clock pair per call. */
async function tinybench(samples, warmup) {
  const budget =
    samples === null
      ? { time: 400, warmupTime: 200 }
      : { time: 0, iterations: samples * iterations, warmup: warmup > 0, warmupTime: warmup };
  const bench = new Bench({ ...budget, retainSamples: true });
  bench.add(`${ser} ${operation} ${name}`, () => {
    sink.v = op();
  });
  await bench.run();
  return bench.tasks[0].result.latency.samples.map((ms) => ms * 1e6);
}

let perOp = [];
if (tool !== "mitata" && tool !== "tinybench") throw new Error(`unknown tool ${tool}`);
if (neighbours.length === 0) {
  if (tool === "mitata") {
    // few samples measure cold code unless warmed first
    if (equal) await measure(() => (sink.v = op()), { min_cpu_time: warmupMs * 1e6 });
    perOp = await mitata(equal, true);
  } else perOp = await tinybench(equal, warmupMs);
} else {
  if (equal === null) throw new Error("--neighbours needs --samples (serbench's count)");
  const slices = Number(opts.slices);
  const perSlice = Math.max(1, Math.round(equal / slices));
  const others = neighbours.map((o) => ({ op: o, sink: { v: undefined } }));
  for (const c of [{ op, sink }, ...others]) runFor(c.op, warmupMs, c.sink);
  for (let s = 0; s < slices; s++) {
    for (let i = others.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [others[i], others[j]] = [others[j], others[i]];
    }
    for (const c of others) runFor(c.op, Number(opts["neighbour-slice-ms"]), c.sink);
    if (tool === "mitata") perOp.push(...(await mitata(perSlice, false)));
    else perOp.push(...(await tinybench(perSlice, 0)));
  }
}
process.stdout.write(JSON.stringify({ per_op_ns: perOp }) + "\n");
