// The sample loop's contract beyond the protocol schema: what happens around the samples.
import assert from "node:assert/strict";
import { test } from "node:test";
import { PerformanceObserver, constants, performance } from "node:perf_hooks";
import { makeLoop, takeSamples } from "../src/timing.js";

test("a sample command collects the young generation first, outside its samples", async () => {
  assert.ok("gc" in globalThis, "the runner and its tests run with --expose-gc");
  const minor: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (
        (e as unknown as { detail: { kind: number } }).detail.kind ===
        constants.NODE_PERFORMANCE_GC_MINOR
      )
        minor.push(e.startTime);
  });
  // an empty young generation: no collection is due during the test but the runner's own
  const collect = (globalThis as unknown as { gc: (o: { type: string }) => void }).gc;
  collect({ type: "minor" });
  observer.observe({ entryTypes: ["gc"] });
  const start = performance.now();
  const fields = await takeSamples(() => 1, makeLoop(), 1000, 2);
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();
  assert.ok(
    minor.some((t) => t >= start),
    "no young-generation collection before the samples",
  );
  assert.deepEqual(fields.gc_count, [0, 0], "the settling collection is not a sample's");
});
