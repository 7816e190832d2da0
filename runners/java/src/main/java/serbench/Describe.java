package serbench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.DatasetKind;
import serbench.harness.Footprint;
import serbench.harness.SelfDelimitingCodec;
import serbench.harness.Serializer;

/** The {@code describe} object (protocol section 2). */
public final class Describe {
  private Describe() {}

  public static String jvm() {
    return System.getProperty("java.vm.name")
        + " "
        + System.getProperty("java.vm.version")
        + " ("
        + System.getProperty("java.vm.vendor")
        + ")";
  }

  public static String jvmDetails() {
    return jvm()
        + "; java.home="
        + System.getProperty("java.home")
        + "; flags="
        + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments())
        + "; gc="
        + String.join(
            ",",
            ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(b -> b.getName())
                .toArray(String[]::new))
        + "; cpus="
        + Runtime.getRuntime().availableProcessors()
        + "; max_heap="
        + Runtime.getRuntime().maxMemory()
        + "; javac --release 17, JIT tiered (C1+C2)";
  }

  private static Map<String, Object> applicability(String reason) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("applicable", reason == null);
    if (reason != null) {
      a.put("reason", reason);
    }
    return a;
  }

  /**
   * The serializer's labels, plus {@code stream-concatenated} when its codec delimits itself:
   * {@link serbench.harness.Workload} then writes streams without length prefixes (protocol section
   * 6).
   */
  public static List<String> labels(Serializer s) {
    if (!streamConcatenated(s)) {
      return s.labels();
    }
    List<String> out = new ArrayList<>(s.labels());
    out.add("stream-concatenated");
    return out;
  }

  /** Whether {@code s.codec} declares a {@link SelfDelimitingCodec} (its covariant return type). */
  static boolean streamConcatenated(Serializer s) {
    try {
      Class<?> codec = s.getClass().getMethod("codec", DatasetKind.class).getReturnType();
      return SelfDelimitingCodec.class.isAssignableFrom(codec);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(s.name() + " has no codec(DatasetKind)", e);
    }
  }

  public static Map<String, Object> build() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("protocol", 2);
    d.put("protocol_minor", 1);
    d.put("runner", "java");
    d.put("language", "java");
    Map<String, Object> rt = new LinkedHashMap<>();
    rt.put("name", System.getProperty("java.vm.name"));
    rt.put("version", System.getProperty("java.version"));
    rt.put("details", jvmDetails());
    d.put("runtime", rt);
    d.put(
        "capabilities",
        List.of("transport", "decode_from", "user_datasets", "untrusted", "avro_container"));
    List<Object> sers = new ArrayList<>();
    for (Serializer s : Registry.ALL) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", s.name());
      m.put("format", s.format());
      m.put("library", s.library());
      m.put("version", s.version());
      m.put("labels", labels(s));
      m.put("footprint_bytes", Footprint.of(s.packages()));
      Map<String, Object> ds = new LinkedHashMap<>();
      for (DatasetKind k : DatasetKind.values()) {
        ds.put(k.id, applicability(s.notApplicable(k)));
      }
      m.put("datasets", ds);
      m.put("user_datasets", applicability(s.userNotApplicable()));
      sers.add(m);
    }
    d.put("serializers", sers);
    return d;
  }

  public static void print(PrintStream out) throws Exception {
    out.println(new ObjectMapper().writeValueAsString(build()));
  }
}
