package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.harness.UserTypes;
import serbench.model.Click;
import serbench.model.ClickMap;
import serbench.model.Gender;
import serbench.model.Pair;
import serbench.model.SampleData;
import serbench.model.Test1;
import serbench.model.Test2;
import serbench.model.Test3;
import serbench.model.Test4;
import serbench.model.TestClass;
import serbench.model.Viewport;

/**
 * Apache Avro binary encoding with generic records, from the dataset .avsc files (copied onto the
 * classpath at build time). Encode builds the generic records from the model objects; decode builds
 * the model objects from the generic records (both timed).
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

  private static Schema unionMember(Schema union, String name) {
    for (Schema s : union.getTypes()) {
      if (s.getName().equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException(name + " not in " + union);
  }

  private interface To {
    Object convert(Object m);
  }

  private interface From {
    Object convert(Object avro);
  }

  @Override
  public Codec codec(DatasetKind kind) throws Exception {
    Schema schema;
    To to;
    From from;
    switch (kind.seed) {
      case ANDROID_USERS:
        {
          schema = load("android-users/android_users.avsc");
          Schema list = schema;
          Schema item = list.getField("sampleData").schema().getElementType();
          Schema gender = item.getField("gender").schema();
          to = m -> sampleList(list, item, gender, m);
          from = AvroSerializer::fromSampleList;
          break;
        }
      case TEST1:
      case TEST2:
      case TEST3:
      case TEST4:
        {
          Schema union = load("pb-vs-msgpack/pb_vs_msgpack.avsc");
          Schema t1 = unionMember(union, "Test1");
          Schema t2 = unionMember(union, "Test2");
          Schema t3 = unionMember(union, "Test3");
          Schema t4 = unionMember(union, "Test4");
          switch (kind.seed) {
            case TEST1:
              schema = t1;
              to = m -> test1(t1, (Test1) m);
              from = a -> fromTest1((GenericRecord) a);
              break;
            case TEST2:
              schema = t2;
              to = m -> test2(t2, (Test2) m);
              from = a -> fromTest2((GenericRecord) a);
              break;
            case TEST3:
              schema = t3;
              to = m -> test3(t3, (Test3) m);
              from = a -> fromTest3((GenericRecord) a);
              break;
            default:
              schema = t4;
              to =
                  m -> {
                    Test4 t = (Test4) m;
                    GenericData.Record r = new GenericData.Record(t4);
                    r.put(0, test1(t1, t.t1));
                    r.put(1, test2(t2, t.t2));
                    r.put(2, test3(t3, t.t3));
                    return r;
                  };
              from =
                  a -> {
                    GenericRecord r = (GenericRecord) a;
                    return new Test4(
                        fromTest1((GenericRecord) r.get(0)),
                        fromTest2((GenericRecord) r.get(1)),
                        fromTest3((GenericRecord) r.get(2)));
                  };
          }
          break;
        }
      case ONE_MB_DICT:
        schema = load("one-mb-dict/one_mb_dict.avsc");
        to = m -> m;
        from =
            a -> {
              HashMap<String, String> d = new HashMap<>();
              for (Map.Entry<?, ?> e : ((Map<?, ?>) a).entrySet()) {
                d.put(e.getKey().toString(), e.getValue().toString());
              }
              return d;
            };
        break;
      case CLICK_MAPS:
        {
          schema = load("click-maps/click_maps.avsc");
          Schema cm = schema;
          Schema vp = cm.getField("viewport").schema();
          Schema click = cm.getField("clicks").schema().getValueType();
          to = m -> clickMap(cm, vp, click, (ClickMap) m);
          from = a -> fromClickMap((GenericRecord) a);
          break;
        }
      case LOG_RECORDS:
        {
          schema = load("log-records/log_records.avsc");
          Schema item = schema.getElementType();
          Schema pair = item.getField("MyProperty5").schema().getElementType();
          to = m -> log(item, pair, m);
          from = AvroSerializer::fromLog;
          break;
        }
      default:
        // Any other built-in: the family's generated .avsc, walked side by side with its types as
        // for a user dataset, from and to the generated model's objects.
        return overTree(
            kind.model(),
            treeCodec(
                load(kind.family() + "/" + kind.family().replace('-', '_') + ".avsc"),
                types(kind).message));
    }
    return codec(schema, to, from);
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

  private static Codec codec(Schema schema, To toAvro, From fromAvro) {
    GenericDatumWriter<Object> writer = new GenericDatumWriter<>(schema);
    GenericDatumReader<Object> reader = new GenericDatumReader<>(schema);
    return new Codec() {
      private BinaryEncoder encoder;
      private BinaryDecoder decoder;

      @Override
      public void encode(Object message, Buf out) throws IOException {
        encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
        writer.write(toAvro.convert(message), encoder);
        encoder.flush();
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws IOException {
        decoder = DecoderFactory.get().binaryDecoder(buf, off, len, decoder);
        Object a = reader.read(null, decoder);
        if (!decoder.isEnd()) {
          throw new IOException("trailing bytes after the message");
        }
        return fromAvro.convert(a);
      }
    };
  }

  private static final Gender[] GENDERS = Gender.values();

  @SuppressWarnings("unchecked")
  private static Object sampleList(Schema list, Schema item, Schema gender, Object m) {
    List<SampleData> in = (List<SampleData>) m;
    List<Object> out = new ArrayList<>(in.size());
    for (SampleData s : in) {
      GenericData.Record r = new GenericData.Record(item);
      r.put(0, s.id);
      r.put(1, s.name);
      r.put(2, s.age);
      r.put(3, new GenericData.EnumSymbol(gender, s.gender.name()));
      r.put(4, s.isMegane);
      out.add(r);
    }
    GenericData.Record l = new GenericData.Record(list);
    l.put(0, out);
    return l;
  }

  private static Object fromSampleList(Object a) {
    List<?> in = (List<?>) ((GenericRecord) a).get(0);
    ArrayList<SampleData> out = new ArrayList<>(in.size());
    for (Object o : in) {
      GenericRecord r = (GenericRecord) o;
      out.add(
          new SampleData(
              (Long) r.get(0),
              r.get(1).toString(),
              (Integer) r.get(2),
              Gender.valueOf(r.get(3).toString()),
              (Boolean) r.get(4)));
    }
    return out;
  }

  private static GenericData.Record test1(Schema s, Test1 t) {
    GenericData.Record r = new GenericData.Record(s);
    r.put(0, t.a);
    r.put(1, t.b);
    return r;
  }

  private static Test1 fromTest1(GenericRecord r) {
    return new Test1((Integer) r.get(0), (Integer) r.get(1));
  }

  private static GenericData.Record test2(Schema s, Test2 t) {
    GenericData.Record r = new GenericData.Record(s);
    r.put(0, t.a);
    r.put(1, t.b);
    return r;
  }

  private static Test2 fromTest2(GenericRecord r) {
    return new Test2((Integer) r.get(0), (Integer) r.get(1));
  }

  private static GenericData.Record test3(Schema s, Test3 t) {
    GenericData.Record r = new GenericData.Record(s);
    r.put(0, t.s);
    return r;
  }

  private static Test3 fromTest3(GenericRecord r) {
    return new Test3(r.get(0).toString());
  }

  private static Object clickMap(Schema cm, Schema vp, Schema click, ClickMap c) {
    GenericData.Record v = new GenericData.Record(vp);
    v.put(0, c.viewport.width);
    v.put(1, c.viewport.height);
    HashMap<String, Object> clicks = new HashMap<>();
    for (Map.Entry<String, Click> e : c.clicks.entrySet()) {
      Click k = e.getValue();
      GenericData.Record r = new GenericData.Record(click);
      r.put(0, k.x);
      r.put(1, k.y);
      r.put(2, k.count);
      r.put(3, k.lastClick);
      r.put(4, k.selector);
      clicks.put(e.getKey(), r);
    }
    GenericData.Record r = new GenericData.Record(cm);
    r.put(0, c.url);
    r.put(1, c.day);
    r.put(2, v);
    r.put(3, clicks);
    return r;
  }

  private static Object fromClickMap(GenericRecord r) {
    GenericRecord v = (GenericRecord) r.get(2);
    HashMap<String, Click> clicks = new HashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) r.get(3)).entrySet()) {
      GenericRecord k = (GenericRecord) e.getValue();
      clicks.put(
          e.getKey().toString(),
          new Click(
              (Integer) k.get(0),
              (Integer) k.get(1),
              (Integer) k.get(2),
              (Long) k.get(3),
              k.get(4).toString()));
    }
    return new ClickMap(
        r.get(0).toString(),
        r.get(1).toString(),
        new Viewport((Integer) v.get(0), (Integer) v.get(1)),
        clicks);
  }

  @SuppressWarnings("unchecked")
  private static Object log(Schema item, Schema pair, Object m) {
    List<TestClass> in = (List<TestClass>) m;
    List<Object> out = new ArrayList<>(in.size());
    for (TestClass t : in) {
      List<Object> pairs = new ArrayList<>(t.MyProperty5.size());
      for (Pair p : t.MyProperty5) {
        GenericData.Record pr = new GenericData.Record(pair);
        pr.put(0, p.key);
        pr.put(1, p.value);
        pairs.add(pr);
      }
      GenericData.Record r = new GenericData.Record(item);
      r.put(0, t.MyProperty1);
      r.put(1, t.MyProperty2);
      r.put(2, t.MyProperty3.toEpochMilli());
      r.put(3, t.MyProperty4);
      r.put(4, pairs);
      out.add(r);
    }
    return out;
  }

  private static Object fromLog(Object a) {
    List<?> in = (List<?>) a;
    ArrayList<TestClass> out = new ArrayList<>(in.size());
    for (Object o : in) {
      GenericRecord r = (GenericRecord) o;
      List<?> ps = (List<?>) r.get(4);
      ArrayList<Pair> pairs = new ArrayList<>(ps.size());
      for (Object p : ps) {
        GenericRecord pr = (GenericRecord) p;
        pairs.add(new Pair(pr.get(0).toString(), pr.get(1).toString()));
      }
      out.add(
          new TestClass(
              r.get(0).toString(),
              (Integer) r.get(1),
              Instant.ofEpochMilli((Long) r.get(2)),
              (Boolean) r.get(3),
              pairs));
    }
    return out;
  }
}
