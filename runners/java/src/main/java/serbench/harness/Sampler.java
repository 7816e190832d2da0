package serbench.harness;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The timing method of protocol section 7: calibrate, warm up until steady, then measure
 * round-robin across a cell's operations. Samples are raw; statistics are the orchestrator's.
 */
public final class Sampler {
  /** A batch of {@code n} consecutive operations. */
  public interface Op {
    void run(int n) throws Exception;
  }

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final List<GarbageCollectorMXBean> GCS =
      ManagementFactory.getGarbageCollectorMXBeans();

  static {
    if (THREADS.isThreadCpuTimeSupported()) {
      THREADS.setThreadCpuTimeEnabled(true);
    }
    if (THREADS.isThreadAllocatedMemorySupported()) {
      THREADS.setThreadAllocatedMemoryEnabled(true);
    }
  }

  /** Raw samples of one operation. */
  public static final class Samples {
    public int iterations = 1;
    public final List<Long> wall = new ArrayList<>();
    public final List<Long> cpu = new ArrayList<>();
    public final List<Long> alloc = new ArrayList<>();
    public final List<Long> gcCount = new ArrayList<>();
    public final List<Long> gcNs = new ArrayList<>();
    public int warmupSamples;
    public long warmupWallNs;
    public boolean steady;

    public Map<String, Object> toJson(String jvm) {
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("iterations", iterations);
      t.put("wall_ns", wall);
      t.put("cpu_ns", cpu);
      t.put("alloc_bytes", alloc);
      t.put("alloc_count", null);
      t.put("gc_count", gcCount);
      t.put("gc_ns", gcNs);
      Map<String, Object> w = new LinkedHashMap<>();
      w.put("samples", warmupSamples);
      w.put("wall_ns", warmupWallNs);
      w.put("steady", steady);
      t.put("warmup", w);
      t.put("peak_alloc_bytes", null);
      Map<String, Object> clock = new LinkedHashMap<>();
      clock.put("wall", "System.nanoTime");
      clock.put("cpu", "ThreadMXBean.getCurrentThreadCpuTime");
      t.put("clock", clock);
      t.put("jvm", jvm);
      return t;
    }
  }

  private final Timing timing;

  public Sampler(Timing timing) {
    this.timing = timing;
  }

  private static final java.lang.management.CompilationMXBean JIT =
      ManagementFactory.getCompilationMXBean();

  /** Total JIT compilation time so far, ms (0 when the JVM cannot tell). */
  private static long jitMillis() {
    return JIT != null && JIT.isCompilationTimeMonitoringSupported()
        ? JIT.getTotalCompilationTime()
        : 0;
  }

  private static long gcCount() {
    long c = 0;
    for (GarbageCollectorMXBean b : GCS) {
      c += Math.max(0, b.getCollectionCount());
    }
    return c;
  }

  private static long gcMillis() {
    long c = 0;
    for (GarbageCollectorMXBean b : GCS) {
      c += Math.max(0, b.getCollectionTime());
    }
    return c;
  }

  /** Takes one sample of {@code n} iterations; records it when {@code into} is not null. */
  private static long sample(Op op, int n, Samples into) throws Exception {
    long g0 = 0;
    long gt0 = 0;
    long a0 = 0;
    long c0 = 0;
    if (into != null) {
      g0 = gcCount();
      gt0 = gcMillis();
      a0 = THREADS.getCurrentThreadAllocatedBytes();
      c0 = THREADS.getCurrentThreadCpuTime();
    }
    long w0 = System.nanoTime();
    op.run(n);
    long w1 = System.nanoTime();
    if (into != null) {
      long c1 = THREADS.getCurrentThreadCpuTime();
      long a1 = THREADS.getCurrentThreadAllocatedBytes();
      long g1 = gcCount();
      long gt1 = gcMillis();
      into.wall.add(w1 - w0);
      into.cpu.add(c1 - c0);
      into.alloc.add(a1 - a0);
      into.gcCount.add(g1 - g0);
      into.gcNs.add((gt1 - gt0) * 1_000_000L);
    }
    return w1 - w0;
  }

  private static double median(double[] v, int from, int to) {
    double[] c = Arrays.copyOfRange(v, from, to);
    Arrays.sort(c);
    int m = c.length / 2;
    return c.length % 2 == 1 ? c[m] : (c[m - 1] + c[m]) / 2;
  }

  /** Step 1: doubles the batch until one batch lasts min_sample_ns; returns the batch size. */
  private int calibrate(Op op, long deadline, int[] samples) throws Exception {
    int n = 1;
    while (true) {
      long w = sample(op, n, null);
      samples[0]++;
      if (w >= timing.minSampleNs || n >= (1 << 30)) {
        return n;
      }
      if (System.nanoTime() > deadline && n > 1) {
        return n;
      }
      n *= 2;
    }
  }

  /**
   * Calibrates each operation, warms all of them up round-robin until every one is steady, then
   * measures them round-robin. Steady (protocol section 7) is the window rule for each operation,
   * plus, on the JVM, no JIT compilation during the last window: the window rule alone is fooled by
   * the plateau of C1-compiled code before C2 is done.
   */
  public List<Samples> measure(List<Op> ops) throws Exception {
    int m = ops.size();
    List<Samples> out = new ArrayList<>();
    long start = System.nanoTime();
    long deadline = start + timing.warmupMaxNs;
    int[] n = new int[m];
    int[][] taken = new int[m][1];
    for (int i = 0; i < m; i++) {
      n[i] = calibrate(ops.get(i), deadline, taken[i]);
      out.add(new Samples());
    }
    int w = timing.warmupWindow;
    double[][] perOp = new double[m][64];
    long[] jit = new long[64];
    int k = 0;
    boolean steady = false;
    while (true) {
      if (k == jit.length) {
        jit = Arrays.copyOf(jit, k * 2);
        for (int i = 0; i < m; i++) {
          perOp[i] = Arrays.copyOf(perOp[i], k * 2);
        }
      }
      for (int i = 0; i < m; i++) {
        perOp[i][k] = (double) sample(ops.get(i), n[i], null) / n[i];
        taken[i][0]++;
      }
      jit[k] = jitMillis();
      k++;
      if (k >= 2 * w && jit[k - 1] == jit[k - w]) {
        boolean all = true;
        for (int i = 0; i < m && all; i++) {
          double last = median(perOp[i], k - w, k);
          double before = median(perOp[i], k - 2 * w, k - w);
          all = Math.abs(last - before) <= timing.warmupTolerance * before;
        }
        if (all) {
          steady = true;
          break;
        }
      }
      if (System.nanoTime() > deadline) {
        break;
      }
    }
    // Compiled code is faster than the code that was calibrated: keep samples >= min_sample_ns.
    for (int i = 0; i < m; i++) {
      while (n[i] < (1 << 30) && sample(ops.get(i), n[i], null) < timing.minSampleNs) {
        n[i] *= 2;
        taken[i][0]++;
      }
    }
    long warmupNs = System.nanoTime() - start;
    for (int i = 0; i < m; i++) {
      Samples s = out.get(i);
      s.iterations = n[i];
      s.warmupSamples = taken[i][0];
      s.warmupWallNs = warmupNs;
      s.steady = steady;
    }
    long measureStart = System.nanoTime();
    int rounds = 0;
    while (rounds < timing.minSamples
        || (rounds < timing.maxSamples && System.nanoTime() - measureStart < timing.maxMeasureNs)) {
      for (int i = 0; i < m; i++) {
        sample(ops.get(i), n[i], out.get(i));
      }
      rounds++;
    }
    return out;
  }
}
