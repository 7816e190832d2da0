package serbench.untrusted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.jackson.dataformat.MessagePackExtensionType;
import org.msgpack.value.ExtensionValue;
import org.msgpack.value.IntegerValue;
import org.msgpack.value.TimestampValue;
import org.msgpack.value.Value;

/**
 * The canonical JSON of a decoded generic value (docs/runner-protocol.md section 11), as plain Java
 * values the reply's JSON writer prints: null, Boolean, String, Long, BigInteger, finite Double,
 * List, Map with String keys, and the one-key {@code $} objects for everything else.
 */
public final class Canonical {
  private Canonical() {}

  /** Values nested deeper than this answer {@code $other}. */
  public static final int MAX_DEPTH = 400;

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  public static String hex(byte[] b) {
    char[] out = new char[b.length * 2];
    for (int i = 0; i < b.length; i++) {
      out[2 * i] = HEX[(b[i] >> 4) & 15];
      out[2 * i + 1] = HEX[b[i] & 15];
    }
    return new String(out);
  }

  static Map<String, Object> tagged(String key, Object value) {
    Map<String, Object> m = new LinkedHashMap<>(2);
    m.put(key, value);
    return m;
  }

  static Object tooDeep() {
    return tagged("$other", "nested deeper than " + MAX_DEPTH);
  }

  public static Object number(double d) {
    if (Double.isNaN(d)) {
      return tagged("$float", "NaN");
    }
    if (Double.isInfinite(d)) {
      return tagged("$float", d > 0 ? "Infinity" : "-Infinity");
    }
    return d;
  }

  /** An object when every key is a string, else {@code $map} pairs in the value's order. */
  private static Object map(List<Object[]> pairs) {
    boolean strings = pairs.stream().allMatch(p -> p[0] instanceof String);
    if (strings) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Object[] p : pairs) {
        out.put((String) p[0], p[1]);
      }
      return out;
    }
    List<Object> out = new ArrayList<>(pairs.size());
    for (Object[] p : pairs) {
      out.add(Arrays.asList(p[0], p[1]));
    }
    return tagged("$map", out);
  }

  /** A Jackson tree (JSON, CBOR, MessagePack and BSON parsers all build one). */
  public static Object of(JsonNode n, int depth) {
    if (depth > MAX_DEPTH) {
      return tooDeep();
    }
    switch (n.getNodeType()) {
      case NULL:
        return null;
      case MISSING:
        return tagged("$other", "no value (Jackson MissingNode)");
      case BOOLEAN:
        return n.booleanValue();
      case STRING:
        return n.textValue();
      case BINARY:
        return tagged("$bytes", hex(((BinaryNode) n).binaryValue()));
      case NUMBER:
        if (n.isIntegralNumber()) {
          return n.canConvertToLong() ? (Object) n.longValue() : n.bigIntegerValue();
        }
        if (n.isBigDecimal()) {
          return n.decimalValue();
        }
        return number(n.doubleValue());
      case ARRAY:
        {
          List<Object> out = new ArrayList<>(n.size());
          for (JsonNode x : n) {
            out.add(of(x, depth + 1));
          }
          return out;
        }
      case OBJECT:
        {
          Map<String, Object> out = new LinkedHashMap<>();
          for (Map.Entry<String, JsonNode> e : n.properties()) {
            out.put(e.getKey(), of(e.getValue(), depth + 1));
          }
          return out;
        }
      case POJO:
        return pojo(((POJONode) n).getPojo());
      default:
        return tagged("$other", n.getNodeType() + ": " + clip(n.toString()));
    }
  }

  /** An embedded object of a Jackson binary format: extension types, dates, BSON's own types. */
  private static Object pojo(Object o) {
    if (o == null) {
      return null;
    }
    if (o instanceof byte[]) {
      return tagged("$bytes", hex((byte[]) o));
    }
    if (o instanceof MessagePackExtensionType) {
      MessagePackExtensionType x = (MessagePackExtensionType) o;
      return tagged("$ext", List.of((long) x.getType(), hex(x.getData())));
    }
    if (o instanceof Instant) {
      Instant t = (Instant) o;
      return tagged("$timestamp", List.of(t.getEpochSecond(), (long) t.getNano()));
    }
    if (o instanceof java.util.Date) {
      return timestampMillis(((java.util.Date) o).getTime());
    }
    return tagged("$other", o.getClass().getName() + ": " + clip(String.valueOf(o)));
  }

  private static Object timestampMillis(long ms) {
    return tagged(
        "$timestamp", List.of(Math.floorDiv(ms, 1000L), Math.floorMod(ms, 1000L) * 1_000_000L));
  }

  /**
   * A msgpack-core value. Its strings are decoded here: {@code asString} throws the library's
   * MessageStringCodingException for invalid UTF-8, so this runs inside the decode.
   */
  public static Object of(Value v, int depth) {
    if (depth > MAX_DEPTH) {
      return tooDeep();
    }
    switch (v.getValueType()) {
      case NIL:
        return null;
      case BOOLEAN:
        return v.asBooleanValue().getBoolean();
      case INTEGER:
        {
          IntegerValue i = v.asIntegerValue();
          return i.isInLongRange() ? (Object) i.toLong() : i.toBigInteger();
        }
      case FLOAT:
        return number(v.asFloatValue().toDouble());
      case STRING:
        return v.asStringValue().asString();
      case BINARY:
        return tagged("$bytes", hex(v.asBinaryValue().asByteArray()));
      case ARRAY:
        {
          List<Object> out = new ArrayList<>();
          for (Value x : v.asArrayValue()) {
            out.add(of(x, depth + 1));
          }
          return out;
        }
      case MAP:
        {
          Value[] kv = v.asMapValue().getKeyValueArray();
          List<Object[]> pairs = new ArrayList<>(kv.length / 2);
          for (int i = 0; i + 1 < kv.length; i += 2) {
            pairs.add(new Object[] {of(kv[i], depth + 1), of(kv[i + 1], depth + 1)});
          }
          return map(pairs);
        }
      case EXTENSION:
        {
          if (v.isTimestampValue()) {
            TimestampValue t = v.asTimestampValue();
            return tagged("$timestamp", List.of(t.getEpochSecond(), (long) t.getNano()));
          }
          ExtensionValue x = v.asExtensionValue();
          return tagged("$ext", List.of((long) x.getType(), hex(x.getData())));
        }
      default:
        return tagged("$other", String.valueOf(v.getValueType()));
    }
  }

  /**
   * A value of MessagePack for Java 0.6 (no str/bin split: its raw strings decode as UTF-8 here,
   * where {@code getString} throws the library's MessageTypeException for invalid UTF-8).
   */
  public static Object of(serbench.seeds.msgpack0612.org.msgpack.type.Value v, int depth) {
    if (depth > MAX_DEPTH) {
      return tooDeep();
    }
    switch (v.getType()) {
      case NIL:
        return null;
      case BOOLEAN:
        return v.asBooleanValue().getBoolean();
      case INTEGER:
        {
          BigInteger b = v.asIntegerValue().getBigInteger();
          return b.bitLength() < 64 ? (Object) b.longValue() : b;
        }
      case FLOAT:
        return number(v.asFloatValue().getDouble());
      case RAW:
        return v.asRawValue().getString();
      case ARRAY:
        {
          List<Object> out = new ArrayList<>();
          for (serbench.seeds.msgpack0612.org.msgpack.type.Value x : v.asArrayValue()) {
            out.add(of(x, depth + 1));
          }
          return out;
        }
      case MAP:
        {
          serbench.seeds.msgpack0612.org.msgpack.type.Value[] kv =
              v.asMapValue().getKeyValueArray();
          List<Object[]> pairs = new ArrayList<>(kv.length / 2);
          for (int i = 0; i + 1 < kv.length; i += 2) {
            pairs.add(new Object[] {of(kv[i], depth + 1), of(kv[i + 1], depth + 1)});
          }
          return map(pairs);
        }
      default:
        return tagged("$other", String.valueOf(v.getType()));
    }
  }

  static String clip(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }
}
