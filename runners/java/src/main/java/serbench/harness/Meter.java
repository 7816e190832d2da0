package serbench.harness;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The JVM's clocks and counters, read at batch boundaries only: the monotonic wall clock ({@code
 * System.nanoTime}), the thread's CPU clock and allocated bytes ({@code
 * com.sun.management.ThreadMXBean}), collections and their time summed over every {@code
 * GarbageCollectorMXBean}, and the JIT's total compilation time ({@code CompilationMXBean}).
 */
public final class Meter {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final List<GarbageCollectorMXBean> GCS =
      ManagementFactory.getGarbageCollectorMXBeans();
  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
  private static final boolean CPU;
  private static final boolean ALLOC;
  private static final boolean COMPILE = JIT != null && JIT.isCompilationTimeMonitoringSupported();

  static {
    if (THREADS.isThreadCpuTimeSupported()) {
      THREADS.setThreadCpuTimeEnabled(true);
    }
    if (THREADS.isThreadAllocatedMemorySupported()) {
      THREADS.setThreadAllocatedMemoryEnabled(true);
    }
    CPU = THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    ALLOC = THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled();
  }

  private Meter() {}

  /** A batch of {@code n} consecutive operations. */
  public interface Batch {
    void run(int n) throws Exception;
  }

  /** Raw per-sample readings of one {@code sample} command. */
  public static final class Samples {
    public final long[] wall;
    public final long[] cpu;
    public final long[] alloc;
    public final long[] gcCount;
    public final long[] gcNs;

    /** JIT compilation time during the whole command, ns; null when the JVM cannot tell. */
    public Long compileNs;

    Samples(int n) {
      wall = new long[n];
      cpu = new long[n];
      alloc = ALLOC ? new long[n] : null;
      gcCount = new long[n];
      gcNs = new long[n];
    }
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

  private static long cpuNow() {
    return CPU ? THREADS.getCurrentThreadCpuTime() : 0;
  }

  private static long allocNow() {
    return ALLOC ? THREADS.getCurrentThreadAllocatedBytes() : 0;
  }

  /**
   * Exactly {@code samples} consecutive batches of {@code iterations} operations, nothing else in
   * between but reading the counters, after {@code untimed} operations that are not timed. GC time
   * has the millisecond resolution of the MXBeans.
   */
  public static Samples sample(Batch batch, int iterations, int samples, int untimed)
      throws Exception {
    Samples s = new Samples(samples);
    long jit0 = COMPILE ? JIT.getTotalCompilationTime() : 0;
    if (untimed > 0) {
      batch.run(untimed);
    }
    for (int k = 0; k < samples; k++) {
      long g0 = gcCount();
      long gt0 = gcMillis();
      long a0 = allocNow();
      long c0 = cpuNow();
      long w0 = System.nanoTime();
      batch.run(iterations);
      long w1 = System.nanoTime();
      long c1 = cpuNow();
      long a1 = allocNow();
      long g1 = gcCount();
      long gt1 = gcMillis();
      s.wall[k] = Math.max(1, w1 - w0);
      s.cpu[k] = Math.max(0, c1 - c0);
      if (s.alloc != null) {
        s.alloc[k] = Math.max(0, a1 - a0);
      }
      s.gcCount[k] = g1 - g0;
      s.gcNs[k] = (gt1 - gt0) * 1_000_000L;
    }
    s.compileNs = COMPILE ? (JIT.getTotalCompilationTime() - jit0) * 1_000_000L : null;
    return s;
  }
}
