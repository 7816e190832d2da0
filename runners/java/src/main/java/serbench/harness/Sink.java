package serbench.harness;

import java.lang.ref.WeakReference;

/**
 * Consumes results so that the JIT cannot remove the work that produced them (the approach of JMH's
 * Blackhole: a comparison with volatile fields plus a rare, unpredictable escape).
 */
public final class Sink {
  public volatile int i1 = 1;
  public volatile int i2 = 2;
  public volatile Object escape;
  private int tlr = (int) System.nanoTime();
  private int tlrMask = 1;

  public void consume(Object o) {
    int mask = tlrMask;
    int t = (tlr = tlr * 1664525 + 1013904223);
    if ((t & mask) == 0) {
      escape = new WeakReference<>(o);
      tlrMask = (mask << 1) + 1;
    }
  }

  public void consume(int v) {
    if ((v ^ i1) == (v ^ i2)) {
      throw new IllegalStateException("unreachable");
    }
  }
}
