package serbench.untrusted;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import serbench.harness.NotApplicableException;

/**
 * Avro object container files (docs/runner-protocol.md section 11, capability {@code
 * avro_container}): canonical JSON records to Avro's generic values by the schema, written with the
 * library's {@link DataFileWriter}; a file read with its {@link DataFileStream} and the generic
 * values rendered as canonical JSON.
 */
final class AvroContainer {
  private AvroContainer() {}

  /** The whole container file of the canonical records {@code value}. */
  static byte[] write(JsonNode container, JsonNode value)
      throws Untrusted.Failure, NotApplicableException, IOException {
    JsonNode avsc = container.path("schema");
    if (!avsc.isObject() && !avsc.isArray() && !avsc.isTextual()) {
      throw new Untrusted.Failure("bad_request", "container.schema: an Avro schema is missing");
    }
    Schema schema;
    try {
      schema = new Schema.Parser().parse(avsc.toString());
    } catch (AvroRuntimeException e) { // SchemaParseException, or a union Avro forbids
      throw new Untrusted.Failure("bad_request", "container.schema: " + e.getMessage());
    }
    CodecFactory codec = codec(container.path("codec").asText("null"));
    if (!value.isArray()) {
      throw new Untrusted.Failure("bad_request", "value: a container's records are a list");
    }
    List<Object> records = new ArrayList<>(value.size());
    for (int i = 0; i < value.size(); i++) {
      records.add(datum(schema, value.get(i), "$[" + i + "]"));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<Object> w = new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
      w.setCodec(codec);
      w.create(schema, out);
      for (Object r : records) {
        w.append(r);
      }
    }
    return out.toByteArray();
  }

  private static CodecFactory codec(String name) throws Untrusted.Failure {
    switch (name) {
      case "null":
        return CodecFactory.nullCodec();
      case "deflate":
        return CodecFactory.deflateCodec(CodecFactory.DEFAULT_DEFLATE_LEVEL);
      default:
        throw new Untrusted.Failure(
            "bad_request", "container.codec '" + name + "': this runner writes null or deflate");
    }
  }

  /** The canonical JSON list of a container file's records, read with the writer's schema. */
  static Object read(byte[] file) throws IOException {
    List<Object> out = new ArrayList<>();
    try (DataFileStream<Object> in =
        new DataFileStream<>(new ByteArrayInputStream(file), new GenericDatumReader<>())) {
      while (in.hasNext()) {
        out.add(canonical(in.next(null), 0));
      }
    }
    return out;
  }

  /** The one-key {@code $} object's key ({@code $bytes}, {@code $float}), or null. */
  private static String special(JsonNode n) {
    if (n.isObject() && n.size() == 1) {
      String k = n.fieldNames().next();
      return k.startsWith("$") ? k : null;
    }
    return null;
  }

  /** A number, or a {@code $float} NaN or infinity; null for anything else. */
  private static Double number(JsonNode n) {
    if (n.isNumber()) {
      return n.doubleValue();
    }
    if ("$float".equals(special(n))) {
      try {
        return FromCanonical.nonFinite(n.get("$float"));
      } catch (NotApplicableException e) {
        return null;
      }
    }
    return null;
  }

  private static byte[] bytes(JsonNode n, String path) throws NotApplicableException {
    return "$bytes".equals(special(n)) ? FromCanonical.unhex(n.get("$bytes"), path) : null;
  }

  private static boolean plainObject(JsonNode n) {
    return n.isObject() && special(n) == null;
  }

  /** The generic value of {@code n} in {@code s}; NotApplicableException names where it fails. */
  private static Object datum(Schema s, JsonNode n, String path) throws NotApplicableException {
    switch (s.getType()) {
      case NULL:
        if (n.isNull()) {
          return null;
        }
        break;
      case BOOLEAN:
        if (n.isBoolean()) {
          return n.booleanValue();
        }
        break;
      case INT:
        if (n.isIntegralNumber() && n.canConvertToInt()) {
          return n.intValue();
        }
        break;
      case LONG:
        if (n.isIntegralNumber() && n.canConvertToLong()) {
          return n.longValue();
        }
        break;
      case FLOAT:
        {
          Double d = number(n);
          // A finite number past float's range is not carried (a union goes on to double).
          if (d != null && (Float.isFinite(d.floatValue()) || !Double.isFinite(d))) {
            return d.floatValue();
          }
          break;
        }
      case DOUBLE:
        {
          Double d = number(n);
          if (d != null) {
            return d;
          }
          break;
        }
      case STRING:
        if (n.isTextual()) {
          return n.textValue();
        }
        break;
      case BYTES:
        {
          byte[] b = bytes(n, path);
          if (b != null) {
            return ByteBuffer.wrap(b);
          }
          break;
        }
      case FIXED:
        {
          byte[] b = bytes(n, path);
          if (b != null && b.length == s.getFixedSize()) {
            return new GenericData.Fixed(s, b);
          }
          break;
        }
      case ENUM:
        if (n.isTextual() && s.hasEnumSymbol(n.textValue())) {
          return new GenericData.EnumSymbol(s, n.textValue());
        }
        break;
      case ARRAY:
        if (n.isArray()) {
          GenericData.Array<Object> a = new GenericData.Array<>(n.size(), s);
          for (int i = 0; i < n.size(); i++) {
            a.add(datum(s.getElementType(), n.get(i), path + "[" + i + "]"));
          }
          return a;
        }
        break;
      case MAP:
        if (plainObject(n)) {
          Map<String, Object> m = new LinkedHashMap<>();
          for (Map.Entry<String, JsonNode> e : n.properties()) {
            m.put(e.getKey(), datum(s.getValueType(), e.getValue(), path + "." + e.getKey()));
          }
          return m;
        }
        break;
      case RECORD:
        if (plainObject(n)) {
          return record(s, n, path);
        }
        break;
      case UNION:
        for (Schema branch : s.getTypes()) {
          try {
            return datum(branch, n, path);
          } catch (NotApplicableException e) {
            // the next branch may carry it
          }
        }
        throw new NotApplicableException(
            path + ": no branch of " + s + " carries " + Canonical.clip(n.toString()));
      default:
        break;
    }
    throw new NotApplicableException(
        path + ": " + Canonical.clip(n.toString()) + " is not " + s.getType().getName());
  }

  private static GenericData.Record record(Schema s, JsonNode n, String path)
      throws NotApplicableException {
    GenericData.Record r = new GenericData.Record(s);
    for (Schema.Field f : s.getFields()) {
      JsonNode x = n.get(f.name());
      if (x != null) {
        r.put(f.pos(), datum(f.schema(), x, path + "." + f.name()));
      } else if (f.hasDefaultValue()) {
        r.put(
            f.pos(), GenericData.get().deepCopy(f.schema(), GenericData.get().getDefaultValue(f)));
      } else {
        throw new NotApplicableException(path + "." + f.name() + ": missing, without a default");
      }
    }
    for (Iterator<String> k = n.fieldNames(); k.hasNext(); ) {
      String name = k.next();
      if (s.getField(name) == null) {
        throw new NotApplicableException(path + "." + name + ": no such field in " + s.getName());
      }
    }
    return r;
  }

  /** The canonical JSON of a value GenericDatumReader built. */
  private static Object canonical(Object v, int depth) {
    if (depth > Canonical.MAX_DEPTH) {
      return Canonical.tooDeep();
    }
    if (v == null || v instanceof Boolean || v instanceof Long) {
      return v;
    }
    if (v instanceof Integer) {
      return ((Integer) v).longValue();
    }
    if (v instanceof Float || v instanceof Double) {
      return Canonical.number(((Number) v).doubleValue());
    }
    if (v instanceof CharSequence || v instanceof GenericEnumSymbol) {
      return v.toString();
    }
    if (v instanceof ByteBuffer) {
      ByteBuffer b = ((ByteBuffer) v).duplicate();
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return Canonical.tagged("$bytes", Canonical.hex(out));
    }
    if (v instanceof GenericFixed) {
      return Canonical.tagged("$bytes", Canonical.hex(((GenericFixed) v).bytes()));
    }
    if (v instanceof GenericRecord) {
      GenericRecord r = (GenericRecord) v;
      Map<String, Object> out = new LinkedHashMap<>();
      for (Schema.Field f : r.getSchema().getFields()) {
        out.put(f.name(), canonical(r.get(f.pos()), depth + 1));
      }
      return out;
    }
    if (v instanceof Map) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        out.put(String.valueOf(e.getKey()), canonical(e.getValue(), depth + 1));
      }
      return out;
    }
    if (v instanceof Iterable) {
      List<Object> out = new ArrayList<>();
      for (Object x : (Iterable<?>) v) {
        out.add(canonical(x, depth + 1));
      }
      return out;
    }
    return Canonical.tagged("$other", v.getClass().getName() + ": " + Canonical.clip(v.toString()));
  }
}
