package serbench.harness;

import com.fasterxml.jackson.databind.JsonNode;

/** The request's timing parameters (protocol section 3). */
public final class Timing {
  public long minSampleNs = 1_000_000;
  public int minSamples = 20;
  public int maxSamples = 200;
  public long maxMeasureNs = 500_000_000L;
  public int warmupWindow = 5;
  public double warmupTolerance = 0.05;
  public long warmupMaxNs = 300_000_000L;

  public static Timing from(JsonNode t) {
    Timing x = new Timing();
    if (t == null || !t.isObject()) {
      return x;
    }
    x.minSampleNs = t.path("min_sample_ns").asLong(x.minSampleNs);
    x.minSamples = t.path("min_samples").asInt(x.minSamples);
    x.maxSamples = Math.max(x.minSamples, t.path("max_samples").asInt(x.maxSamples));
    x.maxMeasureNs = t.path("max_measure_ns").asLong(x.maxMeasureNs);
    x.warmupWindow = Math.max(1, t.path("warmup_window").asInt(x.warmupWindow));
    x.warmupTolerance = t.path("warmup_tolerance").asDouble(x.warmupTolerance);
    x.warmupMaxNs = t.path("warmup_max_ns").asLong(x.warmupMaxNs);
    return x;
  }
}
