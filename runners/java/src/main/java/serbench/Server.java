package serbench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Meter;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.harness.Sink;
import serbench.harness.UserTypes;
import serbench.untrusted.Canonical;
import serbench.untrusted.Untrusted;

/**
 * {@code serve}: one JSON command per line on stdin, exactly one reply line per command on stdout
 * (protocol section 4). The runner has no timing defaults: a {@code sample} runs exactly the
 * batches it asks for.
 */
public final class Server {
  /** Replies nest as deep as the canonical values of section 11 may (four levels per one). */
  private static final ObjectMapper JSON =
      new ObjectMapper(
          JsonFactory.builder()
              .streamWriteConstraints(
                  StreamWriteConstraints.builder()
                      .maxNestingDepth(4 * Canonical.MAX_DEPTH + 16)
                      .build())
              .build());

  private final PrintStream out;
  private final Map<String, Cell> cells = new HashMap<>();
  private final Sink sink = new Sink();
  private final Untrusted untrusted = new Untrusted();

  /** The most recently loaded datasets (data and check_data of the last cells). */
  private final Map<String, Dataset> loaded =
      new LinkedHashMap<>(4, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Dataset> e) {
          return size() > 2;
        }
      };

  public Server(PrintStream out) {
    this.out = out;
  }

  /** A reply that is not well-formed cannot be sent: the command line was bad. */
  static final class BadRequest extends Exception {
    private static final long serialVersionUID = 1L;

    BadRequest(String m) {
      super(m);
    }
  }

  private void reply(Map<String, Object> r) {
    try {
      out.println(JSON.writeValueAsString(r));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    out.flush();
  }

  static Map<String, Object> error(String code, String message, String cell) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("event", "error");
    e.put("code", code);
    e.put("message", message);
    if (cell != null) {
      e.put("cell", cell);
    }
    return e;
  }

  private static Map<String, Object> err(String code, String message) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("code", code);
    e.put("message", message);
    return e;
  }

  public void serve(InputStream in) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (String line; (line = r.readLine()) != null; ) {
      if (line.isBlank()) {
        continue;
      }
      Map<String, Object> rep;
      try {
        rep = handle(line);
      } catch (BadRequest e) {
        rep = error("bad_request", e.getMessage(), null);
      } catch (Throwable t) {
        t.printStackTrace();
        rep = error("exception", Cell.describe(t), null);
      }
      reply(rep);
      if ("bye".equals(rep.get("event"))) {
        return;
      }
    }
  }

  private static String text(JsonNode c, String field) throws BadRequest {
    JsonNode v = c.get(field);
    if (v == null || !v.isTextual()) {
      throw new BadRequest("'" + field + "' must be a string");
    }
    return v.textValue();
  }

  private static String optText(JsonNode c, String field) throws BadRequest {
    JsonNode v = c.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new BadRequest("'" + field + "' must be a string or null");
    }
    return v.textValue();
  }

  private static boolean optBool(JsonNode c, String field, boolean absent) throws BadRequest {
    JsonNode v = c.get(field);
    if (v == null || v.isNull()) {
      return absent;
    }
    if (!v.isBoolean()) {
      throw new BadRequest("'" + field + "' must be a boolean or null");
    }
    return v.booleanValue();
  }

  private static int positive(JsonNode c, String field) throws BadRequest {
    JsonNode v = c.get(field);
    if (v == null || !v.canConvertToInt() || !v.isIntegralNumber() || v.intValue() < 1) {
      throw new BadRequest("'" + field + "' must be an integer >= 1");
    }
    return v.intValue();
  }

  private static String operation(JsonNode c) throws BadRequest {
    String op = text(c, "operation");
    if (Cell.codecOf(op) == null) {
      throw new BadRequest("unknown operation '" + op + "'");
    }
    return op;
  }

  private Map<String, Object> handle(String line) throws Exception {
    JsonNode c;
    try {
      c = JSON.readTree(line);
    } catch (Exception e) {
      throw new BadRequest("not JSON: " + e.getMessage().lines().findFirst().orElse(""));
    }
    if (c == null || !c.isObject()) {
      throw new BadRequest("a command is a JSON object");
    }
    String cmd = text(c, "cmd");
    switch (cmd) {
      case "prepare":
        return prepare(c);
      case "sample":
        return sample(c);
      case "peak_alloc":
        return peakAlloc(c);
      case "release":
        {
          String cell = text(c, "cell");
          cells.remove(cell);
          Map<String, Object> r = new LinkedHashMap<>();
          r.put("event", "released");
          r.put("cell", cell);
          return r;
        }
      case "untrusted_decode":
      case "untrusted_encode":
        return untrusted(c);
      case "quit":
        return Map.of("event", "bye");
      default:
        throw new BadRequest("unknown cmd '" + cmd + "'");
    }
  }

  /** Protocol section 11: bytes this runner did not write. */
  private Map<String, Object> untrusted(JsonNode c) throws BadRequest {
    String cell = text(c, "cell");
    String serName = text(c, "serializer");
    Serializer ser = Registry.byName(serName);
    if (ser == null) {
      return error(
          "unknown_serializer",
          "unknown serializer '" + serName + "'; valid: " + Registry.names(),
          cell);
    }
    return untrusted.handle(c, ser);
  }

  private Dataset load(JsonNode ds, String path) throws Exception {
    String kind = ds.get("kind").asText();
    String name = ds.get("name").asText();
    String types = kind.equals("user") ? ds.get("types").asText() : "";
    String key = kind + "\u0000" + name + "\u0000" + path + "\u0000" + types;
    Dataset d = loaded.get(key);
    if (d == null) {
      d =
          kind.equals("user")
              ? Dataset.loadUser(name, path, UserTypes.load(types))
              : Dataset.load(DatasetKind.byId(name), path);
      loaded.put(key, d);
    }
    return d;
  }

  private Map<String, Object> prepare(JsonNode c) throws Exception {
    String cell = text(c, "cell");
    String serName = text(c, "serializer");
    JsonNode ds = c.get("dataset");
    if (ds == null || !ds.isObject()) {
      throw new BadRequest("'dataset' must be an object {name, kind, data, ...}");
    }
    String dsName = text(ds, "name");
    String kind = text(ds, "kind");
    String dataPath = text(ds, "data");
    String checkPath = optText(ds, "check_data");
    if (!kind.equals("builtin") && !kind.equals("user")) {
      throw new BadRequest("dataset kind must be 'builtin' or 'user'");
    }
    if (kind.equals("user")) {
      text(ds, "types");
      if (ds.get("schemas") == null || !ds.get("schemas").isObject()) {
        throw new BadRequest("a user dataset needs 'schemas' (an object)");
      }
    }
    JsonNode ops = c.get("operations");
    if (ops == null || !ops.isArray() || ops.isEmpty()) {
      throw new BadRequest("'operations' must be a non-empty array");
    }
    for (JsonNode o : ops) {
      if (!o.isTextual()) {
        throw new BadRequest("operations are strings");
      }
    }
    String dumpPath = optText(c, "dump_path");
    String decodeFrom = optText(c, "decode_from");
    boolean verify = optBool(c, "verify", true);
    cells.remove(cell);

    Map<String, Object> r = new LinkedHashMap<>();
    r.put("event", "prepared");
    r.put("cell", cell);
    r.put("status", "error");
    r.put("check", null);
    r.put("messages", null);
    r.put("sizes", null);
    r.put("unsupported", List.of());
    r.put("error", null);

    Serializer ser = Registry.byName(serName);
    if (ser == null) {
      r.put(
          "error",
          err(
              "unknown_serializer",
              "unknown serializer '" + serName + "'; valid: " + Registry.names()));
      return r;
    }
    DatasetKind builtin = null;
    if (kind.equals("builtin")) {
      builtin = DatasetKind.byId(dsName);
      if (builtin == null) {
        r.put(
            "error",
            err(
                "unknown_dataset",
                "unknown dataset '" + dsName + "'; valid: " + DatasetKind.ids()));
        return r;
      }
    }
    String reason = builtin != null ? ser.notApplicable(builtin) : ser.userNotApplicable();
    if (reason != null) {
      r.put("status", "not_applicable");
      r.put("error", err("not_applicable", reason));
      return r;
    }
    Dataset data;
    Dataset check;
    try {
      data = load(ds, dataPath);
      check = checkPath == null ? data : load(ds, checkPath);
      if (kind.equals("user")) {
        data = data.forSerializer(ser, ds.get("types").asText());
      }
    } catch (NotApplicableException e) {
      r.put("status", "not_applicable");
      r.put("error", err("not_applicable", e.getMessage()));
      return r;
    } catch (Throwable t) {
      r.put("error", err("bad_data", Cell.describe(t)));
      return r;
    }
    r.put("messages", data.count);
    Cell x;
    try {
      Codec codec = builtin != null ? ser.codec(builtin) : ser.userCodec(data, ds.get("schemas"));
      x = new Cell(ser, data, check, codec, decodeFrom != null, verify, sink);
      x.prepare(dumpPath, decodeFrom);
      r.put("unsupported", x.prepareOperations(ops));
    } catch (NotApplicableException e) {
      r.put("status", "not_applicable");
      r.put("error", err("not_applicable", e.getMessage()));
      return r;
    } catch (Throwable t) {
      t.printStackTrace();
      r.put("error", err("exception", Cell.describe(t)));
      return r;
    }
    r.put("sizes", x.sizes);
    if (x.verify) {
      Map<String, Object> chk = new LinkedHashMap<>();
      chk.put("ok", x.checkOk);
      chk.put("detail", x.checkDetail);
      r.put("check", chk);
    }
    if (x.checkOk) {
      r.put("status", "ok");
      cells.put(cell, x);
    } else {
      r.put("status", "check_failed");
    }
    return r;
  }

  private Map<String, Object> sample(JsonNode c) throws Exception {
    String cell = text(c, "cell");
    String op = operation(c);
    int iterations = positive(c, "iterations");
    int samples = positive(c, "samples");
    int untimed = 0;
    JsonNode u = c.get("untimed");
    if (u != null) {
      if (!u.canConvertToInt() || !u.isIntegralNumber() || u.intValue() < 0) {
        throw new BadRequest("'untimed' must be an integer >= 0");
      }
      untimed = u.intValue();
    }
    Cell x = cells.get(cell);
    if (x == null) {
      return error("unknown_cell", "cell '" + cell + "' is not prepared (or not ok)", cell);
    }
    if (!x.supports(op)) {
      return error("unsupported", "cell '" + cell + "' cannot time " + op, cell);
    }
    Meter.Samples s;
    try {
      s = Meter.sample(x.batch(op), iterations, samples, untimed);
    } catch (Throwable t) {
      t.printStackTrace();
      return error("exception", Cell.describe(t), cell);
    }
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("event", "samples");
    r.put("cell", cell);
    r.put("operation", op);
    r.put("iterations", iterations);
    r.put("wall_ns", s.wall);
    r.put("cpu_ns", s.cpu);
    r.put("alloc_bytes", s.alloc);
    r.put("alloc_count", null);
    r.put("gc_count", s.gcCount);
    r.put("gc_ns", s.gcNs);
    r.put("compile_ns", s.compileNs);
    return r;
  }

  /** The JVM cannot tell the heap's peak during one operation: bytes is null (README). */
  private Map<String, Object> peakAlloc(JsonNode c) throws Exception {
    String cell = text(c, "cell");
    String op = operation(c);
    Cell x = cells.get(cell);
    if (x == null) {
      return error("unknown_cell", "cell '" + cell + "' is not prepared (or not ok)", cell);
    }
    if (!x.supports(op)) {
      return error("unsupported", "cell '" + cell + "' cannot time " + op, cell);
    }
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("event", "peak_alloc");
    r.put("cell", cell);
    r.put("operation", op);
    r.put("bytes", null);
    return r;
  }
}
