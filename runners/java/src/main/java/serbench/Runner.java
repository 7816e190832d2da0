package serbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Compressor;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Diff;
import serbench.harness.Footprint;
import serbench.harness.Sampler;
import serbench.harness.Serializer;
import serbench.harness.Sink;
import serbench.harness.Timing;
import serbench.harness.Workload;

/** The protocol's two sub-commands: describe and run. */
public final class Runner {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final PrintStream events;
  private final Map<String, Dataset> loaded = new HashMap<>();
  private final Sink sink = new Sink();

  public Runner(PrintStream events) {
    this.events = events;
  }

  void emit(Map<String, Object> event) {
    try {
      events.println(JSON.writeValueAsString(event));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    events.flush();
  }

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
        + Runtime.getRuntime().maxMemory();
  }

  public void describe() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("protocol", 1);
    d.put("runner", "java");
    d.put("language", "java");
    Map<String, Object> rt = new LinkedHashMap<>();
    rt.put("name", System.getProperty("java.vm.name"));
    rt.put("version", System.getProperty("java.version"));
    rt.put("details", jvmDetails());
    d.put("runtime", rt);
    List<Object> sers = new ArrayList<>();
    for (Serializer s : Registry.ALL) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", s.name());
      m.put("format", s.format());
      m.put("library", s.library());
      m.put("version", s.version());
      m.put("labels", s.labels());
      m.put("footprint_bytes", Footprint.of(s.packages()));
      Map<String, Object> ds = new LinkedHashMap<>();
      for (DatasetKind k : DatasetKind.values()) {
        Map<String, Object> a = new LinkedHashMap<>();
        String reason = s.notApplicable(k);
        a.put("applicable", reason == null);
        if (reason != null) {
          a.put("reason", reason);
        }
        ds.put(k.id, a);
      }
      m.put("datasets", ds);
      sers.add(m);
    }
    d.put("serializers", sers);
    emit(d);
  }

  /** Runs a parsed request; returns the exit status. */
  public int run(JsonNode req) {
    JsonNode cells = req.get("cells");
    if (req.path("protocol").asInt(-1) != 1 || cells == null || !cells.isArray()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("event", "error");
      e.put("code", "bad_request");
      e.put("message", "expected {\"protocol\": 1, \"cells\": [...]}");
      emit(e);
      return 2;
    }
    Timing timing = Timing.from(req.get("timing"));
    String dumpDir = req.path("dump_dir").isTextual() ? req.get("dump_dir").asText() : null;
    for (JsonNode cell : cells) {
      runCell(cell, timing, dumpDir);
    }
    Map<String, Object> done = new LinkedHashMap<>();
    done.put("event", "done");
    emit(done);
    return 0;
  }

  private final class Cell {
    final String serializer;
    final String dataset;
    final List<String> ops = new ArrayList<>();

    Cell(JsonNode c) {
      serializer = c.path("serializer").asText("");
      dataset = c.path("dataset").asText("");
      JsonNode o = c.get("operations");
      if (o != null && o.isArray()) {
        for (JsonNode x : o) {
          ops.add(x.asText());
        }
      } else {
        ops.add("encode");
        ops.add("decode");
      }
    }

    Map<String, Object> result(String op, String status) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("event", "result");
      r.put("serializer", serializer);
      r.put("dataset", dataset);
      r.put("operation", op);
      r.put("status", status);
      r.put("error", null);
      r.put("check", null);
      r.put("messages", null);
      r.put("sizes", null);
      r.put("timing", null);
      return r;
    }

    void errorAll(String status, String code, String message) {
      for (String op : ops) {
        Map<String, Object> r = result(op, status);
        r.put("error", error(code, message));
        emit(r);
      }
    }
  }

  private static Map<String, Object> error(String code, String message) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("code", code);
    e.put("message", message);
    return e;
  }

  private static String describe(Throwable t) {
    String m = t.getClass().getName() + (t.getMessage() != null ? ": " + t.getMessage() : "");
    Throwable c = t.getCause();
    if (c != null && c != t) {
      m += " (caused by " + c.getClass().getName() + ": " + c.getMessage() + ")";
    }
    return m.length() > 1000 ? m.substring(0, 1000) + "..." : m;
  }

  private Dataset load(DatasetKind kind, String path) throws Exception {
    String key = kind.id + "\u0000" + path;
    Dataset d = loaded.get(key);
    if (d == null) {
      d = Dataset.load(kind, path);
      loaded.put(key, d);
    }
    return d;
  }

  private void runCell(JsonNode c, Timing timing, String dumpDir) {
    Cell cell = new Cell(c);
    Map<String, Object> start = new LinkedHashMap<>();
    start.put("event", "start");
    start.put("serializer", cell.serializer);
    start.put("dataset", cell.dataset);
    emit(start);
    Serializer ser = Registry.byName(cell.serializer);
    if (ser == null) {
      cell.errorAll(
          "error",
          "unknown_serializer",
          "unknown serializer '" + cell.serializer + "'; valid: " + Registry.names());
      return;
    }
    DatasetKind kind = DatasetKind.byId(cell.dataset);
    if (kind == null) {
      cell.errorAll(
          "error",
          "unknown_dataset",
          "unknown dataset '" + cell.dataset + "'; valid: " + DatasetKind.ids());
      return;
    }
    String reason = ser.notApplicable(kind);
    if (reason != null) {
      cell.errorAll("not_applicable", "not_applicable", reason);
      return;
    }
    Dataset data;
    Dataset check;
    try {
      data = load(kind, c.path("data").asText());
      String checkPath =
          c.path("check_data").isTextual() ? c.get("check_data").asText() : c.path("data").asText();
      check = load(kind, checkPath);
    } catch (Throwable t) {
      cell.errorAll("error", "bad_data", describe(t));
      return;
    }
    try {
      measureCell(cell, ser, kind, data, check, timing, dumpDir);
    } catch (Throwable t) {
      t.printStackTrace();
      cell.errorAll("error", "exception", describe(t));
    }
  }

  /** What an operation string asks for: encode or decode, and an optional codec. */
  private static final class OpSpec {
    final String op;
    final boolean encode;
    final String codec;

    OpSpec(String op, boolean encode, String codec) {
      this.op = op;
      this.encode = encode;
      this.codec = codec;
    }

    static OpSpec parse(String op) {
      if (op.equals("encode")) {
        return new OpSpec(op, true, null);
      }
      if (op.equals("decode")) {
        return new OpSpec(op, false, null);
      }
      if (op.startsWith("encode+") && Compressor.create(op.substring(7)) != null) {
        return new OpSpec(op, true, op.substring(7));
      }
      if (op.endsWith("+decode") && Compressor.create(op.substring(0, op.length() - 7)) != null) {
        return new OpSpec(op, false, op.substring(0, op.length() - 7));
      }
      return null;
    }
  }

  private void measureCell(
      Cell cell,
      Serializer ser,
      DatasetKind kind,
      Dataset data,
      Dataset check,
      Timing timing,
      String dumpDir)
      throws Exception {
    Codec codec = ser.codec(kind);
    codec.prepare(data.items);
    // Check, outside timing: a full encode + decode compared with check_data.
    Workload plain = new Workload(codec, data, null);
    byte[] encoded = plain.encode().toByteArray();
    Map<String, Object> sizes = new LinkedHashMap<>();
    sizes.put("encoded", encoded.length);
    if (dumpDir != null) {
      File dir = new File(dumpDir);
      dir.mkdirs();
      Files.write(new File(dir, "java." + ser.name() + "." + kind.id + ".bin").toPath(), encoded);
    }
    String[] firstDiff = {null};
    int[] seen = {0};
    try {
      plain.decode(
          encoded,
          encoded.length,
          (i, m) -> {
            seen[0]++;
            if (firstDiff[0] == null) {
              String d = Diff.first(check.message(i), m);
              if (d != null) {
                firstDiff[0] = (data.kind.stream ? "[" + i + "]" : "") + d;
              }
            }
          });
    } catch (Exception e) {
      // The library could not read back what it wrote: a failed round trip, not a harness error.
      System.err.println("check: " + ser.name() + "/" + kind.id + ": decode raised " + e);
      firstDiff[0] = "decode raised " + describe(e);
    }
    if (firstDiff[0] == null && seen[0] != data.count) {
      firstDiff[0] = "decoded " + seen[0] + " messages, expected " + data.count;
    }
    String detail;
    if (firstDiff[0] == null) {
      detail = data.count + (data.count == 1 ? " message" : " messages") + " equal";
      if (!data.kind.stream && data.items.get(0) instanceof List) {
        detail = ((List<?>) data.items.get(0)).size() + " records equal";
      }
    } else {
      detail = firstDiff[0];
    }
    Map<String, Object> checkJson = new LinkedHashMap<>();
    checkJson.put("ok", firstDiff[0] == null);
    checkJson.put("detail", detail);

    // Sizes after each codec (and the compressed round trip, for the check).
    for (String name : Compressor.NAMES) {
      sizes.put(name, new Workload(codec, data, Compressor.create(name)).compressedSize());
    }

    List<OpSpec> specs = new ArrayList<>();
    List<Sampler.Op> ops = new ArrayList<>();
    for (String op : cell.ops) {
      OpSpec spec = OpSpec.parse(op);
      if (spec == null) {
        continue;
      }
      Workload w =
          new Workload(codec, data, spec.codec == null ? null : Compressor.create(spec.codec));
      if (spec.encode) {
        ops.add(
            n -> {
              for (int k = 0; k < n; k++) {
                Buf b = w.encode();
                sink.consume(b.size());
              }
            });
      } else {
        byte[] in = spec.codec == null ? encoded : w.encode().toByteArray();
        if (spec.codec != null && firstDiff[0] == null) {
          String[] d = {null};
          w.decode(
              in,
              in.length,
              (i, m) -> {
                if (d[0] == null) {
                  d[0] = Diff.first(check.message(i), m);
                }
              });
          if (d[0] != null) {
            throw new IllegalStateException(op + " round trip differs: " + d[0]);
          }
        }
        Sink s = sink;
        ops.add(
            n -> {
              for (int k = 0; k < n; k++) {
                w.decode(in, in.length, (i, m) -> s.consume(m));
              }
            });
      }
      specs.add(spec);
    }

    List<Sampler.Samples> samples = null;
    if (firstDiff[0] == null && !ops.isEmpty()) {
      samples = new Sampler(timing).measure(ops);
    }
    String jvm = jvm();
    int si = 0;
    for (String op : cell.ops) {
      OpSpec spec = OpSpec.parse(op);
      Map<String, Object> r;
      if (spec == null) {
        r = cell.result(op, "unsupported");
        r.put(
            "error",
            error(
                "unsupported",
                "operation '"
                    + op
                    + "' is not supported; the Java runner has encode, decode, encode+{zlib,zstd,lz4}, {zlib,zstd,lz4}+decode"));
        emit(r);
        continue;
      }
      r = cell.result(op, firstDiff[0] == null ? "ok" : "check_failed");
      r.put("check", checkJson);
      r.put("messages", data.count);
      r.put("sizes", sizes);
      if (samples != null) {
        r.put("timing", samples.get(si).toJson(jvm));
      }
      si++;
      emit(r);
    }
  }
}
