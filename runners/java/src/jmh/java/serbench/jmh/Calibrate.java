package serbench.jmh;

import java.util.HashMap;
import java.util.Map;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The native harness of {@code serbench calibrate} (docs/runner-protocol.md, section 12): runs
 * {@link CellBench} with JMH (one fork, warm-up iterations for --warmup-ms, --samples measurement
 * iterations of --sample-ms each) and prints JMH's raw data, one JSON line per measurement
 * iteration: {"wall_ns": ..., "cpu_ns": null, "iterations": ops}.
 *
 * <p>Usage: java -cp target/serbench-jmh.jar serbench.jmh.Calibrate --serializer S --dataset D
 * --dataset-file F --operation OP --samples K --sample-ms M --warmup-ms W [--iterations N]
 */
public final class Calibrate {
  private Calibrate() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    String op = arg(opts, "operation");
    if (!op.equals("encode") && !op.equals("decode")) {
      throw new IllegalArgumentException("--operation: encode or decode");
    }
    long sampleMs = Math.max(1, Math.round(Double.parseDouble(arg(opts, "sample-ms"))));
    double warmupMs = Double.parseDouble(arg(opts, "warmup-ms"));
    Options options =
        new OptionsBuilder()
            .include(CellBench.class.getName() + "." + op + "$")
            .param("serializer", arg(opts, "serializer"))
            .param("dataset", arg(opts, "dataset"))
            .param("data", arg(opts, "dataset-file"))
            .forks(1)
            .warmupIterations((int) Math.max(1, Math.ceil(warmupMs / sampleMs)))
            .warmupTime(TimeValue.milliseconds(sampleMs))
            .measurementIterations(Integer.parseInt(arg(opts, "samples")))
            .measurementTime(TimeValue.milliseconds(sampleMs))
            .verbosity(VerboseMode.SILENT)
            .build();
    for (RunResult run : new Runner(options).run()) {
      for (var benchmark : run.getBenchmarkResults()) {
        for (IterationResult it : benchmark.getIterationResults()) {
          long ops = it.getMetadata().getMeasuredOps();
          double nsPerOp = it.getPrimaryResult().getScore(); // Mode.AverageTime, ns/op
          System.out.printf(
              "{\"wall_ns\": %.0f, \"cpu_ns\": null, \"iterations\": %d}%n", nsPerOp * ops, ops);
        }
      }
    }
  }

  private static String arg(Map<String, String> opts, String name) {
    String value = opts.get(name);
    if (value == null) {
      throw new IllegalArgumentException("missing --" + name);
    }
    return value;
  }
}
