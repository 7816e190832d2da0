package serbench.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A user dataset's types file (datasets/README.md plus the user-data types of protocol section 7)
 * and the typed generic value tree built from it: records and maps are {@code LinkedHashMap}s (key
 * order as in the file), lists {@code ArrayList}s, int32 {@code Integer}, uint32 / int64 {@code
 * Long}, uint64 {@code Long} or {@code BigInteger} above 2^63-1, bigint {@code BigInteger}, float64
 * / float32 {@code Double} / {@code Float}, bytes {@code byte[]}, timestamp_ms {@code Instant},
 * enums their ordinal as {@code Integer}, null {@code null}; {@code any} is the generic tree with
 * integers as {@code Long} (or {@code BigInteger}) and other numbers as {@code Double}.
 */
public final class UserTypes {
  /** The kinds of type. */
  public enum Kind {
    INT32,
    UINT32,
    INT64,
    UINT64,
    BIGINT,
    FLOAT32,
    FLOAT64,
    BOOL,
    STRING,
    BYTES,
    TIMESTAMP,
    NULL,
    ANY,
    LIST,
    MAP,
    OPTIONAL,
    RECORD,
    ENUM
  }

  /** One type; records and enums are shared by name (records may be recursive). */
  public static final class Type {
    public final Kind kind;
    public final String name;
    public Type elem;
    public final List<String> fields = new ArrayList<>();
    public final List<Type> fieldTypes = new ArrayList<>();
    public final List<String> symbols = new ArrayList<>();

    Type(Kind kind, String name) {
      this.kind = kind;
      this.name = name;
    }

    @Override
    public String toString() {
      switch (kind) {
        case LIST:
          return "list<" + elem + ">";
        case MAP:
          return "map<string," + elem + ">";
        case OPTIONAL:
          return "optional<" + elem + ">";
        case RECORD:
        case ENUM:
          return name;
        case TIMESTAMP:
          return "timestamp_ms";
        default:
          return kind.name().toLowerCase(java.util.Locale.ROOT);
      }
    }
  }

  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  public final Type message;
  private final Map<String, Type> named = new HashMap<>();
  private final JsonNode defs;

  private UserTypes(JsonNode root) {
    this(root, root.get("message"));
  }

  private UserTypes(JsonNode root, JsonNode m) {
    defs = root.path("types");
    if (m == null || !m.isTextual()) {
      throw new IllegalArgumentException("types: 'message' must name the message type");
    }
    message = parse(m.asText());
  }

  public static UserTypes load(String path) throws Exception {
    return new UserTypes(new ObjectMapper().readTree(new File(path)));
  }

  /** The types of one message of a types file's text (a built-in family may have several). */
  public static UserTypes of(String json, String message) throws Exception {
    return new UserTypes(
        new ObjectMapper().readTree(json),
        com.fasterxml.jackson.databind.node.TextNode.valueOf(message));
  }

  private Type parse(String s) {
    s = s.trim();
    if (s.startsWith("list<") && s.endsWith(">")) {
      return wrap(Kind.LIST, s.substring(5, s.length() - 1));
    }
    if (s.startsWith("optional<") && s.endsWith(">")) {
      return wrap(Kind.OPTIONAL, s.substring(9, s.length() - 1));
    }
    if (s.startsWith("map<") && s.endsWith(">")) {
      String inner = s.substring(4, s.length() - 1).trim();
      if (!inner.startsWith("string")) {
        throw new IllegalArgumentException("types: map keys must be strings: " + s);
      }
      inner = inner.substring(6).trim();
      if (!inner.startsWith(",")) {
        throw new IllegalArgumentException("types: bad map type " + s);
      }
      return wrap(Kind.MAP, inner.substring(1));
    }
    switch (s) {
      case "int32":
        return new Type(Kind.INT32, s);
      case "uint32":
        return new Type(Kind.UINT32, s);
      case "int64":
        return new Type(Kind.INT64, s);
      case "uint64":
        return new Type(Kind.UINT64, s);
      case "bigint":
        return new Type(Kind.BIGINT, s);
      case "float32":
        return new Type(Kind.FLOAT32, s);
      case "float64":
        return new Type(Kind.FLOAT64, s);
      case "bool":
        return new Type(Kind.BOOL, s);
      case "string":
        return new Type(Kind.STRING, s);
      case "bytes":
        return new Type(Kind.BYTES, s);
      case "timestamp_ms":
        return new Type(Kind.TIMESTAMP, s);
      case "null":
        return new Type(Kind.NULL, s);
      case "any":
        return new Type(Kind.ANY, s);
      default:
        return named(s);
    }
  }

  private Type wrap(Kind k, String inner) {
    Type t = new Type(k, null);
    t.elem = parse(inner);
    return t;
  }

  private Type named(String name) {
    Type t = named.get(name);
    if (t != null) {
      return t;
    }
    JsonNode d = defs.get(name);
    if (d == null) {
      throw new IllegalArgumentException("types: unknown type '" + name + "'");
    }
    if (d.has("enum")) {
      t = new Type(Kind.ENUM, name);
      for (JsonNode s : d.get("enum")) {
        t.symbols.add(s.asText());
      }
      named.put(name, t);
      return t;
    }
    if (!d.has("record")) {
      throw new IllegalArgumentException("types: '" + name + "' is neither a record nor an enum");
    }
    t = new Type(Kind.RECORD, name);
    named.put(name, t);
    for (JsonNode f : d.get("record")) {
      t.fields.add(f.get(0).asText());
      t.fieldTypes.add(parse(f.get(1).asText()));
    }
    return t;
  }

  // ---- canonical JSON -> typed tree ------------------------------------------------------

  /** Builds the typed tree of one canonical item; IllegalArgumentException names the path. */
  public Object fromJson(JsonNode n, String path) {
    return fromJson(message, n, path);
  }

  private static IllegalArgumentException bad(String path, Type t, JsonNode n) {
    String v = n == null ? "missing" : n.toString();
    if (v.length() > 60) {
      v = v.substring(0, 57) + "...";
    }
    return new IllegalArgumentException(path + ": " + v + " is not a " + t);
  }

  private static BigInteger integer(Type t, JsonNode n, String path) {
    if (n == null || !n.isIntegralNumber()) {
      throw bad(path, t, n);
    }
    return n.bigIntegerValue();
  }

  private static double floating(Type t, JsonNode n, String path) {
    if (n != null && n.isTextual()) {
      switch (n.asText()) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          throw bad(path, t, n);
      }
    }
    if (n == null || !n.isNumber()) {
      throw bad(path, t, n);
    }
    return n.doubleValue();
  }

  private static Object fromJson(Type t, JsonNode n, String path) {
    switch (t.kind) {
      case INT32:
        {
          BigInteger v = integer(t, n, path);
          if (v.bitLength() > 31) {
            throw bad(path, t, n);
          }
          return v.intValue();
        }
      case UINT32:
        {
          BigInteger v = integer(t, n, path);
          if (v.signum() < 0 || v.bitLength() > 32) {
            throw bad(path, t, n);
          }
          return v.longValue();
        }
      case INT64:
        {
          BigInteger v = integer(t, n, path);
          if (v.bitLength() > 63) {
            throw bad(path, t, n);
          }
          return v.longValue();
        }
      case UINT64:
        {
          BigInteger v = integer(t, n, path);
          if (v.signum() < 0 || v.bitLength() > 64) {
            throw bad(path, t, n);
          }
          return v.bitLength() > 63 ? v : (Object) v.longValue();
        }
      case BIGINT:
        return integer(t, n, path);
      case FLOAT64:
        return floating(t, n, path);
      case FLOAT32:
        return (float) floating(t, n, path);
      case BOOL:
        if (n == null || !n.isBoolean()) {
          throw bad(path, t, n);
        }
        return n.booleanValue();
      case STRING:
        if (n == null || !n.isTextual()) {
          throw bad(path, t, n);
        }
        return n.textValue();
      case BYTES:
        if (n == null || !n.isTextual()) {
          throw bad(path, t, n);
        }
        return Base64.getDecoder().decode(n.textValue());
      case TIMESTAMP:
        return Instant.ofEpochMilli(integer(t, n, path).longValueExact());
      case NULL:
        if (n == null || !n.isNull()) {
          throw bad(path, t, n);
        }
        return null;
      case ANY:
        return any(n);
      case OPTIONAL:
        return n == null || n.isNull() ? null : fromJson(t.elem, n, path);
      case LIST:
        {
          if (n == null || !n.isArray()) {
            throw bad(path, t, n);
          }
          ArrayList<Object> l = new ArrayList<>(n.size());
          int i = 0;
          for (JsonNode e : n) {
            l.add(fromJson(t.elem, e, path + "[" + i++ + "]"));
          }
          return l;
        }
      case MAP:
        {
          if (n == null || !n.isObject()) {
            throw bad(path, t, n);
          }
          LinkedHashMap<String, Object> m = new LinkedHashMap<>();
          for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            m.put(e.getKey(), fromJson(t.elem, e.getValue(), path + key(e.getKey())));
          }
          return m;
        }
      case RECORD:
        {
          if (n == null || !n.isObject()) {
            throw bad(path, t, n);
          }
          LinkedHashMap<String, Object> m = new LinkedHashMap<>();
          for (int i = 0; i < t.fields.size(); i++) {
            String f = t.fields.get(i);
            m.put(f, fromJson(t.fieldTypes.get(i), n.get(f), path + field(f)));
          }
          return m;
        }
      case ENUM:
        {
          BigInteger v = integer(t, n, path);
          if (v.signum() < 0 || v.intValue() >= t.symbols.size() || v.bitLength() > 31) {
            throw bad(path, t, n);
          }
          return v.intValue();
        }
      default:
        throw new IllegalStateException(t.kind.name());
    }
  }

  private static Object any(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isIntegralNumber()) {
      BigInteger v = n.bigIntegerValue();
      return v.bitLength() > 63 ? v : (Object) v.longValue();
    }
    if (n.isNumber()) {
      return n.doubleValue();
    }
    if (n.isTextual()) {
      return n.textValue();
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    if (n.isArray()) {
      ArrayList<Object> l = new ArrayList<>(n.size());
      for (JsonNode e : n) {
        l.add(any(e));
      }
      return l;
    }
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      m.put(e.getKey(), any(e.getValue()));
    }
    return m;
  }

  public static String key(String k) {
    return "['" + k.replace("\\", "\\\\").replace("'", "\\'") + "']";
  }

  /** A generated class's scalar (a boxed Number from a getter) as the tree's value of {@code t}. */
  public static Object treeScalar(Type t, Object x) {
    switch (t.kind) {
      case INT32:
      case ENUM:
        return ((Number) x).intValue();
      case UINT32:
      case INT64:
        return ((Number) x).longValue();
      case FLOAT32:
        return ((Number) x).floatValue();
      case FLOAT64:
        return ((Number) x).doubleValue();
      case TIMESTAMP:
        return Instant.ofEpochMilli(((Number) x).longValue());
      default:
        return x;
    }
  }

  public static String field(String f) {
    return f.matches("[A-Za-z_][A-Za-z0-9_]*") ? "." + f : key(f);
  }

  // ---- decoded generic tree -> typed tree ---------------------------------------------------

  /**
   * Re-applies the declared types to what a schemaless library decoded (its own generic tree: any
   * integer width, text or binary bytes, numbers or date-times for timestamps), giving the typed
   * tree. A value that cannot be the declared type throws IllegalArgumentException with its path.
   */
  public Object apply(Object v, String path) {
    return apply(message, v, path, null);
  }

  /**
   * As {@link #apply(Object, String)}, reading a library's own date-time values with {@code dates}.
   */
  public Object apply(Object v, String path, Function<Object, Instant> dates) {
    return apply(message, v, path, dates);
  }

  private static IllegalArgumentException wrong(String path, Type t, Object v) {
    String s = v == null ? "null" : v.getClass().getSimpleName() + " " + v;
    if (s.length() > 60) {
      s = s.substring(0, 57) + "...";
    }
    return new IllegalArgumentException(path + ": decoded " + s + " is not a " + t);
  }

  private static BigInteger big(Type t, Object v, String path) {
    if (v instanceof BigInteger) {
      return (BigInteger) v;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return BigInteger.valueOf(((Number) v).longValue());
    }
    throw wrong(path, t, v);
  }

  private static Object exact(BigInteger b) {
    return b.bitLength() > 63 ? b : (Object) b.longValue();
  }

  private static double dbl(Type t, Object v, String path) {
    if (v instanceof Number) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof CharSequence) {
      switch (v.toString()) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
    }
    throw wrong(path, t, v);
  }

  @SuppressWarnings("unchecked")
  private static Object apply(Type t, Object v, String path, Function<Object, Instant> dates) {
    switch (t.kind) {
      case INT32:
        {
          BigInteger b = big(t, v, path);
          if (b.bitLength() > 31) {
            throw wrong(path, t, v);
          }
          return b.intValue();
        }
      case UINT32:
      case INT64:
        {
          BigInteger b = big(t, v, path);
          if (b.bitLength() > 63) {
            throw wrong(path, t, v);
          }
          return b.longValue();
        }
      case UINT64:
        {
          BigInteger b = big(t, v, path);
          if (b.signum() < 0) {
            // a library that reads uint64 into a signed long: the same 64 bits
            b = b.add(BigInteger.ONE.shiftLeft(64));
          }
          return exact(b);
        }
      case BIGINT:
        return big(t, v, path);
      case FLOAT64:
        return dbl(t, v, path);
      case FLOAT32:
        return (float) dbl(t, v, path);
      case BOOL:
        if (!(v instanceof Boolean)) {
          throw wrong(path, t, v);
        }
        return v;
      case STRING:
        if (!(v instanceof CharSequence)) {
          throw wrong(path, t, v);
        }
        return v.toString();
      case BYTES:
        if (v instanceof byte[]) {
          return v;
        }
        if (v instanceof CharSequence) {
          return Base64.getDecoder().decode(v.toString());
        }
        if (v instanceof ByteBuffer) {
          ByteBuffer b = ((ByteBuffer) v).duplicate();
          byte[] a = new byte[b.remaining()];
          b.get(a);
          return a;
        }
        throw wrong(path, t, v);
      case TIMESTAMP:
        if (v instanceof Instant) {
          return v;
        }
        if (v instanceof Date) {
          return ((Date) v).toInstant();
        }
        if (v instanceof Long || v instanceof Integer) {
          return Instant.ofEpochMilli(((Number) v).longValue());
        }
        if (dates != null && v != null) {
          Instant i = dates.apply(v);
          if (i != null) {
            return i;
          }
        }
        throw wrong(path, t, v);
      case NULL:
        if (v != null) {
          throw wrong(path, t, v);
        }
        return null;
      case ANY:
        return anyOf(v, path);
      case OPTIONAL:
        return v == null ? null : apply(t.elem, v, path, dates);
      case LIST:
        {
          if (!(v instanceof Collection)) {
            throw wrong(path, t, v);
          }
          ArrayList<Object> l = new ArrayList<>(((Collection<?>) v).size());
          int i = 0;
          for (Object e : (Collection<?>) v) {
            l.add(apply(t.elem, e, path + "[" + i++ + "]", dates));
          }
          return l;
        }
      case MAP:
        {
          if (!(v instanceof Map)) {
            throw wrong(path, t, v);
          }
          LinkedHashMap<String, Object> m = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            String k = String.valueOf(e.getKey());
            m.put(k, apply(t.elem, e.getValue(), path + key(k), dates));
          }
          return m;
        }
      case RECORD:
        {
          if (!(v instanceof Map)) {
            throw wrong(path, t, v);
          }
          Map<String, Object> in = (Map<String, Object>) v;
          LinkedHashMap<String, Object> m = new LinkedHashMap<>();
          for (int i = 0; i < t.fields.size(); i++) {
            String f = t.fields.get(i);
            Object x = in.get(f);
            m.put(f, apply(t.fieldTypes.get(i), x, path + field(f), dates));
          }
          if (in.size() != t.fields.size()) {
            throw new IllegalArgumentException(
                path
                    + ": decoded record has "
                    + in.size()
                    + " fields, expected "
                    + t.fields.size());
          }
          return m;
        }
      case ENUM:
        {
          if (v instanceof CharSequence) {
            int i = t.symbols.indexOf(v.toString());
            if (i >= 0) {
              return i;
            }
          }
          BigInteger b = big(t, v, path);
          if (b.signum() < 0 || b.bitLength() > 31 || b.intValue() >= t.symbols.size()) {
            throw wrong(path, t, v);
          }
          return b.intValue();
        }
      default:
        throw new IllegalStateException(t.kind.name());
    }
  }

  private static Object anyOf(Object v, String path) {
    if (v == null || v instanceof String || v instanceof Boolean || v instanceof Double) {
      return v;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger) {
      return exact((BigInteger) v);
    }
    if (v instanceof Float || v instanceof BigDecimal) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof CharSequence) {
      return v.toString();
    }
    if (v instanceof Collection) {
      ArrayList<Object> l = new ArrayList<>(((Collection<?>) v).size());
      int i = 0;
      for (Object e : (Collection<?>) v) {
        l.add(anyOf(e, path + "[" + i++ + "]"));
      }
      return l;
    }
    if (v instanceof Map) {
      LinkedHashMap<String, Object> m = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        String k = String.valueOf(e.getKey());
        m.put(k, anyOf(e.getValue(), path + key(k)));
      }
      return m;
    }
    throw new IllegalArgumentException(
        path + ": decoded " + v.getClass().getSimpleName() + " is not a JSON value");
  }

  // ---- what a format can carry ---------------------------------------------------------------

  /** The path of the first value (leaf or map key) of the typed tree that matches, or null. */
  public static String find(Object v, Predicate<Object> p, String path) {
    if (p.test(v)) {
      return path;
    }
    if (v instanceof List) {
      int i = 0;
      for (Object e : (List<?>) v) {
        String r = find(e, p, path + "[" + i++ + "]");
        if (r != null) {
          return r;
        }
      }
    } else if (v instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        String r = find(e.getValue(), p, path + key(String.valueOf(e.getKey())));
        if (r != null) {
          return r;
        }
      }
    }
    return null;
  }

  /** True for integers outside [min, max]. */
  public static Predicate<Object> integerOutside(BigInteger min, BigInteger max) {
    return v ->
        v instanceof BigInteger
            && (((BigInteger) v).compareTo(min) < 0 || ((BigInteger) v).compareTo(max) > 0);
  }

  public static final BigInteger MIN_INT64 = LONG_MIN;
  public static final BigInteger MAX_INT64 = LONG_MAX;
  public static final BigInteger MAX_UINT64 = U64_MAX;
}
