package serbench.untrusted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.msgpack.jackson.dataformat.MessagePackExtensionType;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import serbench.harness.NotApplicableException;

/**
 * A canonical value (docs/runner-protocol.md section 11) as a library's generic tree, for {@code
 * untrusted_encode}; NotApplicableException names what the tree cannot carry.
 */
final class FromCanonical {
  private FromCanonical() {}

  /** The one-key {@code $} object's key, or null for plain JSON. */
  private static String special(JsonNode n) {
    if (n.isObject() && n.size() == 1) {
      String k = n.fieldNames().next();
      return k.startsWith("$") ? k : null;
    }
    return null;
  }

  static byte[] unhex(JsonNode n, String where) throws NotApplicableException {
    String s = n.asText();
    if (!n.isTextual() || s.length() % 2 != 0) {
      throw new NotApplicableException(where + ": not a hex string");
    }
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = Character.digit(s.charAt(2 * i), 16);
      int lo = Character.digit(s.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw new NotApplicableException(where + ": not a hex string");
      }
      out[i] = (byte) (hi << 4 | lo);
    }
    return out;
  }

  static double nonFinite(JsonNode n) throws NotApplicableException {
    switch (n.asText()) {
      case "NaN":
        return Double.NaN;
      case "Infinity":
        return Double.POSITIVE_INFINITY;
      case "-Infinity":
        return Double.NEGATIVE_INFINITY;
      default:
        throw new NotApplicableException("$float " + n + " is not NaN or +-Infinity");
    }
  }

  private static byte extType(JsonNode pair) throws NotApplicableException {
    if (!pair.isArray() || pair.size() != 2 || !pair.get(0).canConvertToInt()) {
      throw new NotApplicableException("$ext is [type, hex]");
    }
    int t = pair.get(0).intValue();
    if (t < -128 || t > 127) {
      throw new NotApplicableException("$ext type " + t + " is outside -128..127");
    }
    return (byte) t;
  }

  /** The msgpack-core value: it carries every canonical form but tags, simple values, undefined. */
  static Value msgpack(JsonNode n) throws NotApplicableException {
    String k = special(n);
    if (k != null) {
      JsonNode x = n.get(k);
      switch (k) {
        case "$bytes":
          return ValueFactory.newBinary(unhex(x, k));
        case "$float":
          return ValueFactory.newFloat(nonFinite(x));
        case "$ext":
          return ValueFactory.newExtension(extType(x), unhex(x.get(1), k));
        case "$timestamp":
          if (!x.isArray() || x.size() != 2 || !x.get(1).canConvertToInt()) {
            throw new NotApplicableException("$timestamp is [seconds, nanoseconds]");
          }
          return ValueFactory.newTimestamp(x.get(0).longValue(), x.get(1).intValue());
        case "$map":
          {
            List<Value> kv = new ArrayList<>();
            for (JsonNode pair : x) {
              kv.add(msgpack(pair.get(0)));
              kv.add(msgpack(pair.get(1)));
            }
            return ValueFactory.newMap(kv.toArray(new Value[0]));
          }
        default:
          throw new NotApplicableException(k + " has no MessagePack value");
      }
    }
    switch (n.getNodeType()) {
      case NULL:
        return ValueFactory.newNil();
      case BOOLEAN:
        return ValueFactory.newBoolean(n.booleanValue());
      case STRING:
        return ValueFactory.newString(n.textValue());
      case NUMBER:
        if (n.isIntegralNumber()) {
          return n.canConvertToLong()
              ? ValueFactory.newInteger(n.longValue())
              : ValueFactory.newInteger(n.bigIntegerValue());
        }
        return ValueFactory.newFloat(n.doubleValue());
      case ARRAY:
        {
          List<Value> out = new ArrayList<>(n.size());
          for (JsonNode x : n) {
            out.add(msgpack(x));
          }
          return ValueFactory.newArray(out);
        }
      case OBJECT:
        {
          List<Value> kv = new ArrayList<>();
          for (Map.Entry<String, JsonNode> e : n.properties()) {
            kv.add(ValueFactory.newString(e.getKey()));
            kv.add(msgpack(e.getValue()));
          }
          return ValueFactory.newMap(kv.toArray(new Value[0]));
        }
      default:
        throw new NotApplicableException(n.getNodeType() + " is not a canonical value");
    }
  }

  /** What a Jackson format's tree carries beyond JSON. */
  enum Carries {
    JSON,
    CBOR,
    MSGPACK
  }

  /** The Jackson tree its generator writes: string keys only; bytes and floats per format. */
  static JsonNode jackson(JsonNode n, Carries c) throws NotApplicableException {
    JsonNodeFactory f = JsonNodeFactory.instance;
    String k = special(n);
    if (k != null) {
      JsonNode x = n.get(k);
      if (k.equals("$bytes") && c != Carries.JSON) {
        return f.binaryNode(unhex(x, k));
      }
      if (k.equals("$float") && c != Carries.JSON) {
        return f.numberNode(nonFinite(x));
      }
      if (k.equals("$ext") && c == Carries.MSGPACK) {
        return f.pojoNode(new MessagePackExtensionType(extType(x), unhex(x.get(1), k)));
      }
      throw new NotApplicableException(k + " has no value in this library's " + c + " tree");
    }
    if (n.isArray()) {
      ArrayNode out = f.arrayNode(n.size());
      for (JsonNode x : n) {
        out.add(jackson(x, c));
      }
      return out;
    }
    if (n.isObject()) {
      ObjectNode out = f.objectNode();
      for (Map.Entry<String, JsonNode> e : n.properties()) {
        out.set(e.getKey(), jackson(e.getValue(), c));
      }
      return out;
    }
    return n;
  }
}
