package serbench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import serbench.Registry;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Serializer;
import serbench.harness.Workload;

/**
 * The same cell operations the serbench runner times (one encode or decode iteration of a whole
 * dataset through {@link Workload}), timed by JMH instead, to check the runner's accuracy
 * ({@code serbench calibrate}, through {@link Calibrate}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CellBench {
  @Param({"protobuf"})
  public String serializer;

  @Param({"android-users"})
  public String dataset;

  /** The canonical data file (serbench datasets). */
  @Param({""})
  public String data;

  private Workload workload;
  private byte[] encoded;

  @Setup
  public void setup() throws Exception {
    DatasetKind kind = DatasetKind.byId(dataset);
    Serializer ser = Registry.byName(serializer);
    Dataset d = Dataset.load(kind, data);
    Codec codec = ser.codec(kind);
    codec.prepare(d.items);
    workload = new Workload(codec, d, null);
    encoded = workload.encode().toByteArray();
  }

  @Benchmark
  public Buf encode() throws Exception {
    return workload.encode();
  }

  @Benchmark
  public void decode(Blackhole bh) throws Exception {
    workload.decode(encoded, encoded.length, (i, m) -> bh.consume(m));
  }
}
