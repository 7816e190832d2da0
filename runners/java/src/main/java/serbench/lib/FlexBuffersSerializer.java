package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.flatbuffers.FlexBuffers;
import com.google.flatbuffers.FlexBuffers.Reference;
import com.google.flatbuffers.FlexBuffersBuilder;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.harness.UserTypes;
import serbench.harness.UserTypes.Type;
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
 * FlexBuffers (FlatBuffers' schemaless format, flatbuffers-java's FlexBuffersBuilder and reader):
 * every record a map keyed by field name, enums as their symbol, timestamps as int64 epoch ms.
 * Decode is a full decode into the model objects (built-in datasets) or the typed generic tree
 * (user datasets, read back through the declared types).
 */
public final class FlexBuffersSerializer extends Serializer {
  public FlexBuffersSerializer() {
    super(
        "flexbuffers",
        "flexbuffers",
        "com.google.flatbuffers:flatbuffers-java",
        libVersion("flatbuffers"),
        List.of("binary", "schemaless", "map-layout", "copying-decode", "enum-as-ordinal"),
        List.of("com/google/flatbuffers/"));
  }

  @Override
  public String userNotApplicable() {
    return null;
  }

  // ---- what FlexBuffersBuilder does not expose -----------------------------------------------

  /**
   * flatbuffers-java's builder (2.0.8, and upstream still) writes no Null value and keeps its keyed
   * unsigned writers private, so a map cannot hold a UInt or a Null through the public API; and its
   * 32-bit UInt sign-extends (a uint32 of 2^31 or more in a 64-bit wide vector or map is written as
   * a negative 64-bit value: 4294967295 reads back as 2^64-1). These handles reach the builder's
   * key writer, value stack and value constructor, so the bytes are the format's standard Null and
   * UInt with the narrowest width, as the C++ builder writes them.
   */
  private static final class Hidden {
    static final int FBT_NULL = 0;
    static final int FBT_UINT = 2;
    static final MethodHandle PUT_KEY;
    static final MethodHandle STACK;
    static final MethodHandle VALUE;

    static {
      try {
        MethodHandles.Lookup l =
            MethodHandles.privateLookupIn(FlexBuffersBuilder.class, MethodHandles.lookup());
        Class<?> value = Class.forName(FlexBuffersBuilder.class.getName() + "$Value");
        PUT_KEY =
            l.findVirtual(
                FlexBuffersBuilder.class, "putKey", MethodType.methodType(int.class, String.class));
        STACK = l.findGetter(FlexBuffersBuilder.class, "stack", ArrayList.class);
        // Value(int key, int type, int minBitWidth, long iValue)
        VALUE =
            MethodHandles.privateLookupIn(value, MethodHandles.lookup())
                .findConstructor(
                    value,
                    MethodType.methodType(void.class, int.class, int.class, int.class, long.class));
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    @SuppressWarnings("unchecked")
    static void put(FlexBuffersBuilder b, String key, int type, int width, long v) {
      try {
        int k = (int) PUT_KEY.invokeExact(b, key);
        ((ArrayList<Object>) STACK.invokeExact(b)).add(VALUE.invoke(k, type, width, v));
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    }

    /**
     * Writes a container's key before its contents, as the C++ builder does (FlexBuffersBuilder
     * writes it at endMap/endVector; its key pool then finds this one), so bytes match.
     */
    static void key(FlexBuffersBuilder b, String key) {
      if (key == null) {
        return;
      }
      try {
        int unused = (int) PUT_KEY.invokeExact(b, key);
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    }

    static void putNull(FlexBuffersBuilder b, String key) {
      put(b, key, FBT_NULL, 0, 0);
    }

    /** An unsigned value (all 64 bits of {@code v}) at its narrowest width: 8, 16, 32 or 64. */
    static void putUInt(FlexBuffersBuilder b, String key, long v) {
      int width =
          Long.compareUnsigned(v, 0xFFL) <= 0
              ? 0
              : Long.compareUnsigned(v, 0xFFFFL) <= 0
                  ? 1
                  : Long.compareUnsigned(v, 0xFFFFFFFFL) <= 0 ? 2 : 3;
      put(b, key, FBT_UINT, width, v);
    }
  }

  private static int startMap(FlexBuffersBuilder b, String key) {
    Hidden.key(b, key);
    return b.startMap();
  }

  private static int startVector(FlexBuffersBuilder b, String key) {
    Hidden.key(b, key);
    return b.startVector();
  }

  // ---- the codec frame: one reused builder, one message per buffer ---------------------------

  private interface Writer {
    void write(FlexBuffersBuilder b, Object message) throws NotApplicableException;
  }

  private interface Reader {
    Object read(Reference root);
  }

  private static Codec codec(Writer writer, Reader reader) {
    FlexBuffersBuilder b = new FlexBuffersBuilder(1 << 16);
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws NotApplicableException {
        b.clear();
        writer.write(b, message);
        ByteBuffer bytes = b.finish();
        int n = bytes.remaining();
        out.ensure(n);
        System.arraycopy(bytes.array(), bytes.position(), out.array(), out.size(), n);
        out.advance(n);
      }

      @Override
      public Object decode(byte[] buf, int off, int len) {
        return reader.read(FlexBuffers.getRoot(ByteBuffer.wrap(buf, off, len)));
      }
    };
  }

  // ---- built-in datasets: the model objects as maps keyed by field name ----------------------

  @Override
  public Codec codec(DatasetKind kind) {
    switch (kind.seed) {
      case ANDROID_USERS:
        return codec(
            (b, m) -> {
              int v = b.startVector();
              for (Object s : (List<?>) m) {
                sampleData(b, (SampleData) s);
              }
              b.endVector(null, v, false, false);
            },
            r -> {
              FlexBuffers.Vector v = r.asVector();
              ArrayList<SampleData> out = new ArrayList<>(v.size());
              for (int i = 0; i < v.size(); i++) {
                FlexBuffers.Map s = v.get(i).asMap();
                out.add(
                    new SampleData(
                        s.get("id").asLong(),
                        s.get("name").asString(),
                        s.get("age").asInt(),
                        Gender.valueOf(s.get("gender").asString()),
                        s.get("isMegane").asBoolean()));
              }
              return out;
            });
      case TEST1:
        return codec(
            (b, m) -> pairOfInts(b, null, (int) ((Test1) m).a, (int) ((Test1) m).b, true),
            r -> new Test1(r.asMap().get("a").asUInt(), r.asMap().get("b").asUInt()));
      case TEST2:
        return codec(
            (b, m) -> pairOfInts(b, null, ((Test2) m).a, ((Test2) m).b, false),
            r -> new Test2(r.asMap().get("a").asInt(), r.asMap().get("b").asInt()));
      case TEST3:
        return codec(
            (b, m) -> test3(b, null, (Test3) m), r -> new Test3(r.asMap().get("s").asString()));
      case TEST4:
        return codec(
            (b, m) -> {
              Test4 t = (Test4) m;
              int s = b.startMap();
              pairOfInts(b, "t1", (int) t.t1.a, (int) t.t1.b, true);
              pairOfInts(b, "t2", t.t2.a, t.t2.b, false);
              test3(b, "t3", t.t3);
              b.endMap(null, s);
            },
            r -> {
              FlexBuffers.Map t = r.asMap();
              FlexBuffers.Map t1 = t.get("t1").asMap();
              FlexBuffers.Map t2 = t.get("t2").asMap();
              return new Test4(
                  new Test1(t1.get("a").asUInt(), t1.get("b").asUInt()),
                  new Test2(t2.get("a").asInt(), t2.get("b").asInt()),
                  new Test3(t.get("t3").asMap().get("s").asString()));
            });
      case ONE_MB_DICT:
        return codec(
            (b, m) -> {
              int s = b.startMap();
              for (Map.Entry<?, ?> e : ((Map<?, ?>) m).entrySet()) {
                b.putString((String) e.getKey(), (String) e.getValue());
              }
              b.endMap(null, s);
            },
            r -> {
              FlexBuffers.Map m = r.asMap();
              FlexBuffers.KeyVector keys = m.keys();
              FlexBuffers.Vector values = m.values();
              HashMap<String, String> out = new HashMap<>(keys.size() * 2);
              for (int i = 0; i < keys.size(); i++) {
                out.put(keys.get(i).toString(), values.get(i).asString());
              }
              return out;
            });
      case CLICK_MAPS:
        return codec(FlexBuffersSerializer::clickMap, FlexBuffersSerializer::clickMap);
      case LOG_RECORDS:
        return codec(FlexBuffersSerializer::testClasses, FlexBuffersSerializer::testClasses);
      default:
        try {
          // Any other built-in: its generated model's typed tree, as for a user dataset.
          return overTree(kind.model(), treeCodec(types(kind)));
        } catch (Exception e) {
          throw new IllegalStateException(kind.id + ": " + e.getMessage(), e);
        }
    }
  }

  private static void sampleData(FlexBuffersBuilder b, SampleData s) {
    int m = b.startMap();
    b.putInt("id", s.id);
    b.putString("name", s.name);
    b.putInt("age", s.age);
    b.putString("gender", s.gender.name());
    b.putBoolean("isMegane", s.isMegane);
    b.endMap(null, m);
  }

  /** S2's Test1 (uint32, as its types declare) or Test2 (int32). */
  private static void pairOfInts(
      FlexBuffersBuilder b, String key, int a, int bValue, boolean unsigned) {
    int m = startMap(b, key);
    if (unsigned) {
      Hidden.putUInt(b, "a", Integer.toUnsignedLong(a));
      Hidden.putUInt(b, "b", Integer.toUnsignedLong(bValue));
    } else {
      b.putInt("a", a);
      b.putInt("b", bValue);
    }
    b.endMap(key, m);
  }

  private static void test3(FlexBuffersBuilder b, String key, Test3 t) {
    int m = startMap(b, key);
    b.putString("s", t.s);
    b.endMap(key, m);
  }

  private static void clickMap(FlexBuffersBuilder b, Object message) {
    ClickMap c = (ClickMap) message;
    int m = b.startMap();
    b.putString("url", c.url);
    b.putString("day", c.day);
    int vp = startMap(b, "viewport");
    b.putInt("width", c.viewport.width);
    b.putInt("height", c.viewport.height);
    b.endMap("viewport", vp);
    int clicks = startMap(b, "clicks");
    for (Map.Entry<String, Click> e : c.clicks.entrySet()) {
      Click k = e.getValue();
      int one = startMap(b, e.getKey());
      b.putInt("x", k.x);
      b.putInt("y", k.y);
      b.putInt("count", k.count);
      b.putInt("lastClick", k.lastClick);
      b.putString("selector", k.selector);
      b.endMap(e.getKey(), one);
    }
    b.endMap("clicks", clicks);
    b.endMap(null, m);
  }

  private static Object clickMap(Reference r) {
    FlexBuffers.Map c = r.asMap();
    FlexBuffers.Map vp = c.get("viewport").asMap();
    FlexBuffers.Map clicks = c.get("clicks").asMap();
    FlexBuffers.KeyVector keys = clicks.keys();
    FlexBuffers.Vector values = clicks.values();
    HashMap<String, Click> out = new HashMap<>(keys.size() * 2);
    for (int i = 0; i < keys.size(); i++) {
      FlexBuffers.Map k = values.get(i).asMap();
      out.put(
          keys.get(i).toString(),
          new Click(
              k.get("x").asInt(),
              k.get("y").asInt(),
              k.get("count").asInt(),
              k.get("lastClick").asLong(),
              k.get("selector").asString()));
    }
    return new ClickMap(
        c.get("url").asString(),
        c.get("day").asString(),
        new Viewport(vp.get("width").asInt(), vp.get("height").asInt()),
        out);
  }

  private static void testClasses(FlexBuffersBuilder b, Object message) {
    int v = b.startVector();
    for (Object o : (List<?>) message) {
      TestClass t = (TestClass) o;
      int m = b.startMap();
      b.putString("MyProperty1", t.MyProperty1);
      b.putInt("MyProperty2", t.MyProperty2);
      b.putInt("MyProperty3", t.MyProperty3.toEpochMilli());
      b.putBoolean("MyProperty4", t.MyProperty4);
      int pairs = startVector(b, "MyProperty5");
      for (Pair p : t.MyProperty5) {
        int one = b.startMap();
        b.putString("key", p.key);
        b.putString("value", p.value);
        b.endMap(null, one);
      }
      b.endVector("MyProperty5", pairs, false, false);
      b.endMap(null, m);
    }
    b.endVector(null, v, false, false);
  }

  private static Object testClasses(Reference r) {
    FlexBuffers.Vector v = r.asVector();
    ArrayList<TestClass> out = new ArrayList<>(v.size());
    for (int i = 0; i < v.size(); i++) {
      FlexBuffers.Map t = v.get(i).asMap();
      FlexBuffers.Vector ps = t.get("MyProperty5").asVector();
      ArrayList<Pair> pairs = new ArrayList<>(ps.size());
      for (int j = 0; j < ps.size(); j++) {
        FlexBuffers.Map p = ps.get(j).asMap();
        pairs.add(new Pair(p.get("key").asString(), p.get("value").asString()));
      }
      out.add(
          new TestClass(
              t.get("MyProperty1").asString(),
              t.get("MyProperty2").asInt(),
              Instant.ofEpochMilli(t.get("MyProperty3").asLong()),
              t.get("MyProperty4").asBoolean(),
              pairs));
    }
    return out;
  }

  // ---- user datasets: the typed generic tree, walked with its declared types -----------------

  private static Codec treeCodec(UserTypes types) {
    return codec(
        (b, m) -> put(b, null, types.message, m, null), r -> types.apply(generic(r), "$", null));
  }

  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) throws NotApplicableException {
    UserTypes types = data.types;
    Codec c = treeCodec(types);
    // outside timing: a value FlexBuffers cannot carry is not applicable, with its path
    FlexBuffersBuilder b = new FlexBuffersBuilder();
    for (int i = 0; i < data.items.size(); i++) {
      b.clear();
      put(b, null, types.message, data.items.get(i), "$[" + i + "]");
    }
    return c;
  }

  private static NotApplicableException cannot(String what, String path) {
    return new NotApplicableException("flexbuffers: " + what + " at " + path);
  }

  /**
   * Writes {@code v} as type {@code t}. {@code path} is null inside timing: every message was
   * written once with its paths at {@code userCodec}, where a value that cannot be carried says so.
   */
  private static void put(FlexBuffersBuilder b, String key, Type t, Object v, String path)
      throws NotApplicableException {
    if (key != null && key.indexOf('\0') >= 0) {
      throw cannot("key with NUL", path);
    }
    switch (t.kind) {
      case OPTIONAL:
        if (v == null) {
          Hidden.putNull(b, key);
        } else {
          put(b, key, t.elem, v, path);
        }
        return;
      case NULL:
        Hidden.putNull(b, key);
        return;
      case INT32:
      case INT64:
        b.putInt(key, ((Number) v).longValue());
        return;
      case TIMESTAMP:
        b.putInt(key, ((Instant) v).toEpochMilli());
        return;
      case UINT32:
        Hidden.putUInt(b, key, ((Number) v).longValue());
        return;
      case UINT64:
        // a BigInteger above 2^63-1 keeps its 64 bits in the long
        Hidden.putUInt(b, key, ((Number) v).longValue());
        return;
      case BIGINT:
        throw cannot(v + " (bigint: FlexBuffers integers are 64-bit)", path);
      case FLOAT32:
        b.putFloat(key, ((Number) v).floatValue());
        return;
      case FLOAT64:
        b.putFloat(key, ((Number) v).doubleValue());
        return;
      case BOOL:
        b.putBoolean(key, (Boolean) v);
        return;
      case STRING:
        b.putString(key, (String) v);
        return;
      case BYTES:
        b.putBlob(key, (byte[]) v);
        return;
      case ENUM:
        b.putString(key, t.symbols.get((Integer) v));
        return;
      case ANY:
        putAny(b, key, v, path);
        return;
      case LIST:
        {
          int s = startVector(b, key);
          int i = 0;
          for (Object e : (List<?>) v) {
            put(b, null, t.elem, e, path == null ? null : path + "[" + i + "]");
            i++;
          }
          b.endVector(key, s, false, false);
          return;
        }
      case MAP:
        {
          int s = startMap(b, key);
          for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            String k = (String) e.getKey();
            put(b, k, t.elem, e.getValue(), path == null ? null : path + UserTypes.key(k));
          }
          b.endMap(key, s);
          return;
        }
      case RECORD:
        {
          Map<?, ?> m = (Map<?, ?>) v;
          int s = startMap(b, key);
          for (int i = 0; i < t.fields.size(); i++) {
            String f = t.fields.get(i);
            put(
                b,
                f,
                t.fieldTypes.get(i),
                m.get(f),
                path == null ? null : path + UserTypes.field(f));
          }
          b.endMap(key, s);
          return;
        }
      default:
        throw new IllegalStateException(t.kind.name());
    }
  }

  private static void putAny(FlexBuffersBuilder b, String key, Object v, String path)
      throws NotApplicableException {
    if (key != null && key.indexOf('\0') >= 0) {
      throw cannot("key with NUL", path);
    }
    if (v == null) {
      Hidden.putNull(b, key);
    } else if (v instanceof Boolean) {
      b.putBoolean(key, (Boolean) v);
    } else if (v instanceof BigInteger) {
      throw cannot(v + " (beyond int64)", path);
    } else if (v instanceof Long || v instanceof Integer) {
      b.putInt(key, ((Number) v).longValue());
    } else if (v instanceof Number) {
      b.putFloat(key, ((Number) v).doubleValue());
    } else if (v instanceof String) {
      b.putString(key, (String) v);
    } else if (v instanceof List) {
      int s = startVector(b, key);
      int i = 0;
      for (Object e : (List<?>) v) {
        putAny(b, null, e, path == null ? null : path + "[" + i + "]");
        i++;
      }
      b.endVector(key, s, false, false);
    } else {
      int s = startMap(b, key);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        String k = (String) e.getKey();
        putAny(b, k, e.getValue(), path == null ? null : path + UserTypes.key(k));
      }
      b.endMap(key, s);
    }
  }

  /** FlexBuffers' own tree as Java values; {@link UserTypes#apply} then applies the types. */
  private static Object generic(Reference r) {
    if (r.isNull()) {
      return null;
    }
    if (r.isBoolean()) {
      return r.asBoolean();
    }
    if (r.isUInt()) {
      return r.asUInt(); // uint64 above 2^63-1 comes back negative: apply() restores it
    }
    if (r.isInt()) {
      return r.asLong();
    }
    if (r.isFloat()) {
      return r.asFloat();
    }
    if (r.isString()) {
      return r.asString();
    }
    if (r.isBlob()) {
      return r.asBlob().getBytes();
    }
    if (r.isMap()) {
      FlexBuffers.Map m = r.asMap();
      FlexBuffers.KeyVector keys = m.keys();
      FlexBuffers.Vector values = m.values();
      LinkedHashMap<String, Object> out = new LinkedHashMap<>();
      for (int i = 0; i < keys.size(); i++) {
        out.put(keys.get(i).toString(), generic(values.get(i)));
      }
      return out;
    }
    if (r.isVector()) {
      FlexBuffers.Vector v = r.asVector();
      ArrayList<Object> out = new ArrayList<>(v.size());
      for (int i = 0; i < v.size(); i++) {
        out.add(generic(v.get(i)));
      }
      return out;
    }
    throw new IllegalArgumentException("flexbuffers: unexpected value of type " + r.getType());
  }
}
