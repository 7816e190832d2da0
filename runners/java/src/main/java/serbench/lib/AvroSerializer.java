package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import serbench.harness.AvroGlue;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.harness.UserTypes;

/**
 * Apache Avro binary encoding with generic records, from the dataset .avsc files (copied onto the
 * classpath at build time). Encode builds the generic records from the model objects; decode builds
 * the model objects from the generic records (both timed), by the glue TypeGen generates.
 */
public final class AvroSerializer extends Serializer {
  public AvroSerializer() {
    super(
        "avro",
        "avro",
        "org.apache.avro:avro",
        libVersion("avro"),
        List.of("binary", "schema-required", "copying-decode", "dynamic"),
        List.of("org/apache/avro/", "com/fasterxml/jackson/"));
  }

  private static Schema load(String path) throws IOException {
    try (InputStream in = AvroSerializer.class.getResourceAsStream("/schemas/" + path)) {
      if (in == null) {
        throw new IOException("schema " + path + " missing from the classpath");
      }
      return new Schema.Parser().parse(in);
    }
  }

  /**
   * A built-in dataset: the glue TypeGen generated between its model and generic records of its
   * family's .avsc ({@link AvroGlue}); without glue (the build said why) the family's .avsc walked
   * side by side with its types, as for a user dataset, from and to the model's objects.
   */
  @Override
  public Codec codec(DatasetKind kind) throws Exception {
    Schema avsc = load(kind.family() + "/" + kind.family().replace('-', '_') + ".avsc");
    AvroGlue glue = kind.glue(AvroGlue.class, "Avro");
    if (glue == null) {
      return overTree(kind.model(), treeCodec(avsc, types(kind).message));
    }
    return codec(glue.bind(avsc), glue::toAvro, glue::fromAvro);
  }

  @Override
  public String userNotApplicable() {
    return null;
  }

  /**
   * User datasets: generic records from the dataset's .avsc, walked side by side with its types
   * (record fields by position, optional as a union with null, timestamp_ms as a long).
   */
  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) throws Exception {
    JsonNode avsc = userSchema(schemas, "avsc", "path", "avro: the dataset has no .avsc schema");
    Schema schema = new Schema.Parser().parse(new File(avsc.get("path").asText()));
    UserTypes.Type type = data.types.message;
    for (int i = 0; i < data.items.size(); i++) {
      toAvro(type, schema, data.items.get(i), "$[" + i + "]");
    }
    return treeCodec(schema, type);
  }

  private static Codec treeCodec(Schema schema, UserTypes.Type type) {
    return codec(
        schema,
        m -> {
          try {
            return toAvro(type, schema, m, "$");
          } catch (NotApplicableException e) {
            throw new IllegalStateException(e.getMessage());
          }
        },
        a -> fromAvro(type, schema, a, "$"));
  }

  private static NotApplicableException mismatch(String path, UserTypes.Type t, Schema s) {
    return new NotApplicableException(
        "avro: " + t + " at " + path + " does not match the schema's " + s.getType());
  }

  private static Object toAvro(UserTypes.Type t, Schema s, Object v, String path)
      throws NotApplicableException {
    if (s.getType() == Schema.Type.UNION) {
      if (v == null) {
        for (Schema b : s.getTypes()) {
          if (b.getType() == Schema.Type.NULL) {
            return null;
          }
        }
        throw new NotApplicableException("avro: null at " + path + " but the union has no null");
      }
      UserTypes.Type inner = t.kind == UserTypes.Kind.OPTIONAL ? t.elem : t;
      for (Schema b : s.getTypes()) {
        if (b.getType() != Schema.Type.NULL) {
          return toAvro(inner, b, v, path);
        }
      }
      throw mismatch(path, t, s);
    }
    if (t.kind == UserTypes.Kind.OPTIONAL) {
      if (v == null) {
        throw new NotApplicableException("avro: null at " + path + " but the schema has no union");
      }
      t = t.elem;
    }
    switch (s.getType()) {
      case RECORD:
        {
          if (t.kind != UserTypes.Kind.RECORD || s.getFields().size() != t.fields.size()) {
            throw mismatch(path, t, s);
          }
          Map<?, ?> m = (Map<?, ?>) v;
          GenericData.Record r = new GenericData.Record(s);
          for (int i = 0; i < t.fields.size(); i++) {
            String f = t.fields.get(i);
            r.put(
                i,
                toAvro(
                    t.fieldTypes.get(i),
                    s.getFields().get(i).schema(),
                    m.get(f),
                    path + UserTypes.field(f)));
          }
          return r;
        }
      case ARRAY:
        {
          if (t.kind != UserTypes.Kind.LIST) {
            throw mismatch(path, t, s);
          }
          List<?> l = (List<?>) v;
          List<Object> a = new ArrayList<>(l.size());
          int i = 0;
          for (Object e : l) {
            a.add(toAvro(t.elem, s.getElementType(), e, path + "[" + i++ + "]"));
          }
          return a;
        }
      case MAP:
        {
          if (t.kind != UserTypes.Kind.MAP) {
            throw mismatch(path, t, s);
          }
          Map<String, Object> a = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            String k = (String) e.getKey();
            a.put(k, toAvro(t.elem, s.getValueType(), e.getValue(), path + UserTypes.key(k)));
          }
          return a;
        }
      case ENUM:
        if (t.kind != UserTypes.Kind.ENUM) {
          throw mismatch(path, t, s);
        }
        return new GenericData.EnumSymbol(s, t.symbols.get((Integer) v));
      case STRING:
        if (!(v instanceof String)) {
          throw mismatch(path, t, s);
        }
        return v;
      case BYTES:
        if (!(v instanceof byte[])) {
          throw mismatch(path, t, s);
        }
        return ByteBuffer.wrap((byte[]) v);
      case INT:
        if (!(v instanceof Integer)) {
          throw mismatch(path, t, s);
        }
        return v;
      case LONG:
        if (v instanceof Instant) {
          return ((Instant) v).toEpochMilli();
        }
        if (!(v instanceof Long || v instanceof Integer)) {
          throw mismatch(path, t, s);
        }
        return ((Number) v).longValue();
      case FLOAT:
      case DOUBLE:
      case BOOLEAN:
        return v;
      case NULL:
        if (v != null) {
          throw mismatch(path, t, s);
        }
        return null;
      default:
        throw mismatch(path, t, s);
    }
  }

  private static Object fromAvro(UserTypes.Type t, Schema s, Object a, String path) {
    if (s.getType() == Schema.Type.UNION) {
      if (a == null) {
        return null;
      }
      Schema b = s.getTypes().get(GenericData.get().resolveUnion(s, a));
      return fromAvro(t.kind == UserTypes.Kind.OPTIONAL ? t.elem : t, b, a, path);
    }
    if (t.kind == UserTypes.Kind.OPTIONAL) {
      t = t.elem;
    }
    switch (s.getType()) {
      case RECORD:
        {
          GenericRecord r = (GenericRecord) a;
          LinkedHashMap<String, Object> m = new LinkedHashMap<>();
          for (int i = 0; i < t.fields.size(); i++) {
            m.put(
                t.fields.get(i),
                fromAvro(t.fieldTypes.get(i), s.getFields().get(i).schema(), r.get(i), path));
          }
          return m;
        }
      case ARRAY:
        {
          List<?> l = (List<?>) a;
          ArrayList<Object> out = new ArrayList<>(l.size());
          for (Object e : l) {
            out.add(fromAvro(t.elem, s.getElementType(), e, path));
          }
          return out;
        }
      case MAP:
        {
          LinkedHashMap<String, Object> m = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) a).entrySet()) {
            m.put(e.getKey().toString(), fromAvro(t.elem, s.getValueType(), e.getValue(), path));
          }
          return m;
        }
      case ENUM:
        return s.getEnumOrdinal(a.toString());
      case STRING:
        return a.toString();
      case BYTES:
        {
          ByteBuffer b = ((ByteBuffer) a).duplicate();
          byte[] out = new byte[b.remaining()];
          b.get(out);
          return out;
        }
      case LONG:
        if (t.kind == UserTypes.Kind.TIMESTAMP) {
          return Instant.ofEpochMilli((Long) a);
        }
        return t.kind == UserTypes.Kind.INT32 ? (Object) ((Long) a).intValue() : a;
      case INT:
        return t.kind == UserTypes.Kind.INT32 ? a : (Object) ((Integer) a).longValue();
      default:
        return a;
    }
  }

  private static Codec codec(
      Schema schema, UnaryOperator<Object> toAvro, UnaryOperator<Object> fromAvro) {
    GenericDatumWriter<Object> writer = new GenericDatumWriter<>(schema);
    GenericDatumReader<Object> reader = new GenericDatumReader<>(schema);
    return new Codec() {
      private BinaryEncoder encoder;
      private BinaryDecoder decoder;

      @Override
      public void encode(Object message, Buf out) throws IOException {
        encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
        writer.write(toAvro.apply(message), encoder);
        encoder.flush();
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws IOException {
        decoder = DecoderFactory.get().binaryDecoder(buf, off, len, decoder);
        Object a = reader.read(null, decoder);
        if (!decoder.isEnd()) {
          throw new IOException("trailing bytes after the message");
        }
        return fromAvro.apply(a);
      }
    };
  }
}
