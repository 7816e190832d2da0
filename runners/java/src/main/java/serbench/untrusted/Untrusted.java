package serbench.untrusted;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Diff;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;

/**
 * Bytes this runner did not write (docs/runner-protocol.md section 11): {@code untrusted_decode}
 * and {@code untrusted_encode}.
 *
 * <p>Only the error type a library documents for bad input answers {@code rejected} ({@link Rows});
 * any other exception answers {@code error}, which the orchestrator counts as a crash.
 * StackOverflowError is caught into {@code error} as well: the JVM throws it in the decoding thread
 * and unwinds the stack cleanly, like Python's RecursionError. Every other Error is left alone:
 * under the orchestrator's limits OutOfMemoryError ends the JVM (-XX:+ExitOnOutOfMemoryError), and
 * the process dying is the outcome it bisects for.
 *
 * <p>A typed decode answers {@code {"$check": "equal"}} when the decoded message equals the
 * dataset's message 0 (the one the orchestrator corrupts), else the first differing path. What the
 * library accepted but the row's conversion to the model refused answers {@code accepted} with an
 * {@code $other} value: the library did not fail.
 */
public final class Untrusted {
  private static final int MAX_ERROR = 300;

  /** What a row refusing bytes after one message says (the row's framing, not a crash). */
  private static final String TRAILING = "trailing bytes after";

  /** A row bound to a built-in dataset, kept for the next batch of the same target. */
  private static final class Typed {
    final Dataset data;
    final Codec codec;

    Typed(Dataset data, Codec codec) {
      this.data = data;
      this.codec = codec;
    }
  }

  private final Map<String, Typed> typed = new HashMap<>();

  /** A reply the command cannot go on from (the protocol's {@code error} event). */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;
    final String code;

    Failure(String code, String message) {
      super(message);
      this.code = code;
    }
  }

  /** The reply to an {@code untrusted_decode} or {@code untrusted_encode} command. */
  public Map<String, Object> handle(JsonNode c, Serializer ser) {
    String cell = c.path("cell").asText();
    try {
      boolean encode = c.path("cmd").asText().equals("untrusted_encode");
      JsonNode container = c.get("container");
      if (container != null && (container.isObject() || container.asBoolean())) {
        return container(c, cell, ser, container, encode);
      }
      JsonNode ds = c.get("dataset");
      return ds != null && ds.isObject()
          ? typed(c, cell, ser, ds, encode)
          : generic(c, cell, ser, encode);
    } catch (Failure f) {
      return error(f.code, f.getMessage(), cell);
    }
  }

  static Map<String, Object> error(String code, String message, String cell) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("event", "error");
    e.put("code", code);
    e.put("message", message);
    e.put("cell", cell);
    return e;
  }

  private static Rows.Row row(Serializer ser) throws Failure {
    String unsafe = Rows.UNSAFE.get(ser.name());
    if (unsafe != null) {
      throw new Failure("unsupported", unsafe + ": it does not take untrusted input");
    }
    Rows.Row r = Rows.of(ser.name());
    if (r == null) {
      throw new Failure("unsupported", ser.name() + " does not take untrusted input here yet");
    }
    return r;
  }

  private Map<String, Object> generic(JsonNode c, String cell, Serializer ser, boolean encode)
      throws Failure {
    Rows.Row r = row(ser);
    if (encode) {
      if (r.encode == null) {
        throw new Failure("unsupported", ser.name() + " does not encode generic values here");
      }
      byte[] out;
      try {
        out = r.encode.encode(c.path("value"));
      } catch (NotApplicableException e) {
        throw new Failure("not_applicable", e.getMessage());
      } catch (Exception e) {
        throw new Failure("exception", describe(e));
      }
      return encoded(cell, out);
    }
    if (r.generic == null) {
      throw new Failure("unsupported", ser.name() + " has no generic-value decode: name a dataset");
    }
    return decodeAll(c, cell, r, r.generic);
  }

  /** The object container file variants (capability avro_container). */
  private static Map<String, Object> container(
      JsonNode c, String cell, Serializer ser, JsonNode container, boolean encode) throws Failure {
    Rows.Row r = row(ser);
    if (encode ? r.containerWrite == null : r.containerRead == null) {
      throw new Failure("unsupported", ser.name() + " has no object container files here");
    }
    if (!encode) {
      return decodeAll(c, cell, r, r.containerRead);
    }
    if (!container.isObject()) {
      throw new Failure("bad_request", "'container' of untrusted_encode is {schema, codec}");
    }
    try {
      return encoded(cell, r.containerWrite.encode(container, c.path("value")));
    } catch (Failure f) {
      throw f;
    } catch (NotApplicableException e) {
      throw new Failure("not_applicable", e.getMessage());
    } catch (Exception e) {
      throw new Failure("exception", describe(e));
    }
  }

  private Typed bind(Serializer ser, JsonNode ds) throws Failure {
    if (!ds.path("kind").asText().equals("builtin")) {
      throw new Failure("unsupported", "untrusted input against user datasets is not supported");
    }
    String name = ds.path("name").asText();
    String path = ds.path("data").asText();
    DatasetKind kind = DatasetKind.byId(name);
    if (kind == null) {
      throw new Failure(
          "unknown_dataset", "unknown dataset '" + name + "'; valid: " + DatasetKind.ids());
    }
    String reason = ser.notApplicable(kind);
    if (reason != null) {
      throw new Failure("not_applicable", reason);
    }
    String key = ser.name() + "\u0000" + path;
    Typed t = typed.get(key);
    if (t == null) {
      Dataset data;
      try {
        data = Dataset.load(kind, path);
      } catch (Exception e) {
        throw new Failure("bad_data", describe(e));
      }
      try {
        Codec codec = ser.codec(kind);
        codec.prepare(data.items);
        t = new Typed(data, codec);
      } catch (NotApplicableException e) {
        throw new Failure("not_applicable", e.getMessage());
      } catch (Exception e) {
        throw new Failure("exception", describe(e));
      }
      typed.clear(); // one target at a time: keep memory for the decodes
      typed.put(key, t);
    }
    return t;
  }

  private Map<String, Object> typed(
      JsonNode c, String cell, Serializer ser, JsonNode ds, boolean encode) throws Failure {
    Rows.Row r = row(ser);
    Typed t = bind(ser, ds);
    if (encode) {
      Buf out = new Buf();
      try {
        t.codec.encode(t.data.message(c.path("message").asInt(0)), out);
      } catch (Exception e) {
        throw new Failure("exception", describe(e));
      }
      return encoded(cell, java.util.Arrays.copyOf(out.array(), out.size()));
    }
    Object expected = t.data.message(0);
    return decodeAll(
        c,
        cell,
        r,
        b -> {
          Object m = t.codec.decode(b, 0, b.length);
          return new Checked(expected, t.data.checkable(m));
        });
  }

  /** A typed decode's result, compared with the expected message outside the decode's time. */
  private static final class Checked {
    final Object expected;
    final Object actual;

    Checked(Object expected, Object actual) {
      this.expected = expected;
      this.actual = actual;
    }

    Object render() {
      String d;
      try {
        d = Diff.first(expected, actual);
      } catch (RuntimeException | StackOverflowError e) {
        d = "not comparable: " + describe(e);
      }
      return Canonical.tagged("$check", d == null ? "equal" : "$" + d);
    }
  }

  private static Map<String, Object> encoded(String cell, byte[] b) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("event", "untrusted_encoded");
    r.put("cell", cell);
    r.put("b64", Base64.getEncoder().encodeToString(b));
    return r;
  }

  private static byte[] input(JsonNode in) throws Failure {
    JsonNode path = in.get("path");
    try {
      if (path != null && path.isTextual()) {
        return Files.readAllBytes(Path.of(path.textValue()));
      }
      JsonNode b64 = in.get("b64");
      if (b64 == null || !b64.isTextual()) {
        throw new Failure(
            "bad_request", "input '" + in.path("id").asText() + "' has no b64 or path");
      }
      return Base64.getDecoder().decode(b64.textValue());
    } catch (Failure f) {
      throw f;
    } catch (Exception e) {
      throw new Failure("bad_request", "input '" + in.path("id").asText() + "': " + describe(e));
    }
  }

  private static Map<String, Object> decodeAll(
      JsonNode c, String cell, Rows.Row r, Rows.Decode decode) throws Failure {
    JsonNode inputs = c.get("inputs");
    if (inputs == null || !inputs.isArray()) {
      throw new Failure("bad_request", "'inputs' must be an array");
    }
    List<Object> outcomes = new ArrayList<>(inputs.size());
    for (JsonNode in : inputs) {
      byte[] b = input(in);
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("id", in.path("id").asText());
      long start = System.nanoTime();
      Object value = null;
      Throwable failed = null;
      try {
        value = decode.decode(b);
      } catch (Exception | StackOverflowError e) {
        failed = e;
      }
      long ns = System.nanoTime() - start;
      if (failed == null) {
        o.put("outcome", "accepted");
        o.put("value", value instanceof Checked ? ((Checked) value).render() : value);
      } else if (!rejected(r, failed) && conversion(c.path("serializer").asText(), failed)) {
        o.put("outcome", "accepted");
        o.put("value", Canonical.tagged("$other", "does not fit the model: " + describe(failed)));
      } else {
        o.put("outcome", rejected(r, failed) ? "rejected" : "error");
        o.put("error", describe(failed));
      }
      o.put("ns", ns);
      outcomes.add(o);
    }
    Map<String, Object> rep = new LinkedHashMap<>();
    rep.put("event", "untrusted_decoded");
    rep.put("cell", cell);
    rep.put("outcomes", outcomes);
    return rep;
  }

  /**
   * The library's documented error, or the row's own refusal of bytes after its one message (it
   * reads exactly one message, as a caller that frames its messages does).
   */
  static boolean rejected(Rows.Row r, Throwable t) {
    String m = t.getMessage();
    return r.rejects.test(t) || (m != null && m.startsWith(TRAILING));
  }

  /**
   * Whether the runner's own conversion of what the library decoded threw (a row mapping an enum
   * ordinal or name to the model), not the library: the first frame outside the JDK is in the
   * runner's rows, model or harness. The handwritten row's reader is the decoder under test.
   */
  static boolean conversion(String serializer, Throwable t) {
    if (serializer.equals("handwritten")) {
      return false;
    }
    for (StackTraceElement f : t.getStackTrace()) {
      String c = f.getClassName();
      if (c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("sun.")) {
        continue;
      }
      return c.startsWith("serbench.lib.")
          || c.startsWith("serbench.model.")
          || c.startsWith("serbench.harness.");
    }
    return false;
  }

  static String describe(Throwable t) {
    String m = t.getClass().getName() + (t.getMessage() != null ? ": " + t.getMessage() : "");
    return m.length() > MAX_ERROR ? m.substring(0, MAX_ERROR) : m;
  }
}
