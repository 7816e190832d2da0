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

  /** Calibrates and warms up one operation (sequentially, before round-robin measuring). */
  private void warmUp(Op op, Samples s) throws Exception {
    long start = System.nanoTime();
    int n = 1;
    int samples = 0;
    // 1. calibrate: double the batch until one batch lasts min_sample_ns
    while (true) {
      long w = sample(op, n, null);
      samples++;
      if (w >= timing.minSampleNs || n >= (1 << 30)) {
        break;
      }
      if (System.nanoTime() - start > timing.warmupMaxNs && n > 1) {
        break;
      }
      n *= 2;
    }
    // 2. warm up until the median of the last window is within tolerance of the one before
    int w = timing.warmupWindow;
    double[] perOp = new double[64];
    int k = 0;
    boolean steady = false;
    while (true) {
      long wall = sample(op, n, null);
      samples++;
      if (k == perOp.length) {
        perOp = Arrays.copyOf(perOp, k * 2);
      }
      perOp[k++] = (double) wall / n;
      if (k >= 2 * w) {
        double last = median(perOp, k - w, k);
        double before = median(perOp, k - 2 * w, k - w);
        if (Math.abs(last - before) <= timing.warmupTolerance * before) {
          steady = true;
          break;
        }
      }
      if (System.nanoTime() - start > timing.warmupMaxNs) {
        break;
      }
    }
    // 3. the compiled code is faster than the calibrating one was: keep samples >= min_sample_ns
    double recent = median(perOp, Math.max(0, k - w), k);
    while (recent * n < timing.minSampleNs && n < (1 << 30)) {
      n *= 2;
    }
    s.iterations = n;
    s.warmupSamples = samples;
    s.warmupWallNs = System.nanoTime() - start;
    s.steady = steady;
  }

  /** Warms up each operation, then measures all of them round-robin. */
  public List<Samples> measure(List<Op> ops) throws Exception {
    List<Samples> out = new ArrayList<>();
    for (Op op : ops) {
      Samples s = new Samples();
      warmUp(op, s);
      out.add(s);
    }
    long start = System.nanoTime();
    int taken = 0;
    while (taken < timing.minSamples
        || (taken < timing.maxSamples && System.nanoTime() - start < timing.maxMeasureNs)) {
      for (int i = 0; i < ops.size(); i++) {
        sample(ops.get(i), out.get(i).iterations, out.get(i));
      }
      taken++;
    }
    return out;
  }
}
