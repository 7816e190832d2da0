// One `sample` command: consecutive batches of one operation, clocks read only at batch
// boundaries. Wall: process.hrtime.bigint(). CPU: process.cpuUsage() (user + system of
// the whole process, microsecond resolution: Node 20 has no per-thread CPU clock).
// GC: perf_hooks "gc" entries, attributed to the sample whose window holds their start.
// Compilation: V8's optimising-compiler trace (compileTrace.ts), read between commands.
import { PerformanceObserver, performance, type PerformanceEntry } from "node:perf_hooks";
import { GCProfiler } from "node:v8";
import { compileNsSinceLastCall } from "./compileTrace.js";

export type Op = () => unknown;
export type Loop = (op: Op, n: number, sink: { v: unknown }) => void;

/** Every operation's result is stored here: the optimiser cannot drop the calls. */
export const SINK: { v: unknown } = { v: undefined };

/**
 * A batch loop of its own for each operation, so that its call site stays monomorphic
 * (one shared loop would see every cell's closure and go megamorphic).
 */
export function makeLoop(): Loop {
  return new Function("op", "n", "sink", "for (let i = 0; i < n; i++) sink.v = op();") as Loop;
}

const gcEntries: PerformanceEntry[] = [];
let observer: PerformanceObserver | null = null;

function observeGc(): void {
  if (observer) return;
  observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcEntries.push(e);
  });
  observer.observe({ entryTypes: ["gc"] });
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface SampleFields {
  iterations: number;
  wall_ns: number[];
  cpu_ns: number[];
  alloc_bytes: number[] | null;
  alloc_count: number[] | null;
  gc_count: number[];
  gc_ns: number[];
  compile_ns: number | null;
}

export async function takeSamples(
  op: Op,
  loop: Loop,
  iterations: number,
  samples: number,
  untimed = 0,
): Promise<SampleFields> {
  observeGc();
  await tick(); // deliver GC entries from before this command, then forget them
  gcEntries.length = 0;
  if (untimed > 0) loop(op, untimed, SINK); // operations before the first sample, not timed
  const wall: number[] = [];
  const cpu: number[] = [];
  const windows: [number, number][] = [];
  for (let s = 0; s < samples; s++) {
    const p0 = performance.now();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    loop(op, iterations, SINK);
    const t1 = process.hrtime.bigint();
    const c1 = process.cpuUsage();
    const p1 = performance.now();
    wall.push(Math.max(1, Number(t1 - t0)));
    cpu.push((c1.user - c0.user + c1.system - c0.system) * 1000);
    windows.push([p0, p1]);
  }
  SINK.v = undefined;
  await tick();
  await tick();
  const gcCount = windows.map(() => 0);
  const gcNs = windows.map(() => 0);
  for (const e of gcEntries) {
    const k = windows.findIndex(([a, b]) => e.startTime >= a && e.startTime <= b);
    if (k >= 0) {
      gcCount[k]++;
      gcNs[k] += Math.round(e.duration * 1e6);
    }
  }
  gcEntries.length = 0;
  const compileNs = compileNsSinceLastCall();
  return {
    iterations,
    wall_ns: wall,
    cpu_ns: cpu,
    alloc_bytes: null,
    alloc_count: null,
    gc_count: gcCount,
    gc_ns: gcNs,
    compile_ns: compileNs,
  };
}

/**
 * Peak growth of the V8 heap (used JS heap plus external memory: Buffer and ArrayBuffer
 * backing stores) during one operation, after a full collection when --expose-gc is on.
 * Between collections the heap only grows, so the peak is the larger of the last value
 * and every value just before a collection (v8.GCProfiler reports those).
 */
export function peakAlloc(op: Op): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
  const level = (h: { used_heap_size: number; external_memory: number }) =>
    h.used_heap_size + h.external_memory;
  const profiler = new GCProfiler();
  profiler.start();
  const start = process.memoryUsage();
  const base = start.heapUsed + start.external;
  SINK.v = op();
  const end = process.memoryUsage();
  const stats = profiler.stop();
  let peak = end.heapUsed + end.external;
  for (const g of stats.statistics) {
    const h = g.beforeGC.heapStatistics as unknown as {
      usedHeapSize: number;
      externalMemory: number;
    };
    peak = Math.max(
      peak,
      level({ used_heap_size: h.usedHeapSize, external_memory: h.externalMemory }),
    );
  }
  SINK.v = undefined;
  return Math.max(0, peak - base);
}
