package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.flatbuffers.FlatBufferBuilder;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.fbs.android_users.SampleList;
import serbench.fbs.click_maps.ClicksEntry;
import serbench.fbs.log_records.TestClassList;
import serbench.fbs.one_mb_dict.Dict;
import serbench.fbs.one_mb_dict.Entry;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.FlatBuffersGlue;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.harness.TypedModel;
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
 * FlatBuffers (flatbuffers-java, code from Debian's flatc of the same version) from
 * datasets/*&#47;*.fbs at build time. Decode here is a full decode into the model objects; the lazy
 * accessor form FlatBuffers is known for would be a separate lazy-access row.
 */
public final class FlatBuffersSerializer extends Serializer {
  public FlatBuffersSerializer() {
    super(
        "flatbuffers",
        "flatbuffers",
        "com.google.flatbuffers:flatbuffers-java",
        libVersion("flatbuffers"),
        List.of("binary", "schema-required", "copying-decode", "generated", "unvalidated"),
        List.of("com/google/flatbuffers/"));
  }

  private interface Build {
    int build(FlatBufferBuilder b, Object m);
  }

  private interface Read {
    Object read(ByteBuffer bb);
  }

  @Override
  public String userNotApplicable() {
    return null;
  }

  @Override
  public boolean typedUser() {
    return true;
  }

  /**
   * A user dataset: flatc's classes for its .fbs (generated at build time into {@code
   * serbench.typed.t<sha>.fb}), filled and read by the glue TypeGen generated beside its typed
   * model ({@link FlatBuffersGlue}). A value the .fbs cannot carry is refused here, with its path.
   */
  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) throws Exception {
    userSchema(schemas, "fbs", "path", "flatbuffers: the dataset has no .fbs");
    FlatBuffersGlue glue = glue(data.model);
    if (glue.notApplicable() != null) {
      throw new NotApplicableException(glue.notApplicable());
    }
    for (int i = 0; i < data.items.size(); i++) {
      String at = data.stream ? "$[" + i + "]" : "$";
      nullElements(data.types.message, data.model.toTree(data.items.get(i)), at);
    }
    return codec((b, m) -> glue.build(b, m), glue::read);
  }

  private static FlatBuffersGlue glue(TypedModel model) throws Exception {
    String pkg = model.getClass().getPackageName() + ".";
    for (String name = "SerbenchFlatBuffers"; name.length() < 30; name += "_") {
      try {
        Class<?> c = Class.forName(pkg + name);
        if (FlatBuffersGlue.class.isAssignableFrom(c)) {
          return (FlatBuffersGlue) c.getConstructor().newInstance();
        }
      } catch (ClassNotFoundException e) {
        break;
      }
    }
    throw new NotApplicableException(
        "flatbuffers: no glue generated for this dataset's .fbs: run `serbench build -r java`");
  }

  /**
   * A list only ever null is a {@code [bool]} that stays empty (protocol section 7): a vector
   * cannot hold a null, so an element there is not applicable, with its path.
   */
  private static void nullElements(UserTypes.Type t, Object v, String path)
      throws NotApplicableException {
    if (v == null) {
      return;
    }
    switch (t.kind) {
      case OPTIONAL:
        nullElements(t.elem, v, path);
        return;
      case RECORD:
        for (int i = 0; i < t.fields.size(); i++) {
          String f = t.fields.get(i);
          nullElements(t.fieldTypes.get(i), ((Map<?, ?>) v).get(f), path + UserTypes.field(f));
        }
        return;
      case MAP:
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          nullElements(t.elem, e.getValue(), path + UserTypes.key((String) e.getKey()));
        }
        return;
      case LIST:
        List<?> l = (List<?>) v;
        if (t.elem.kind == UserTypes.Kind.NULL && !l.isEmpty()) {
          throw new NotApplicableException(
              "flatbuffers: null at "
                  + path
                  + "[0] in a list only ever null (a [bool] vector that stays empty: a vector"
                  + " has no null)");
        }
        for (int j = 0; j < l.size(); j++) {
          nullElements(t.elem, l.get(j), path + "[" + j + "]");
        }
        return;
      default:
    }
  }

  @Override
  public Codec codec(DatasetKind kind) throws Exception {
    Build build;
    Read read;
    switch (kind.seed) {
      case ANDROID_USERS:
        build = FlatBuffersSerializer::sampleList;
        read = bb -> fromSampleList(SampleList.getRootAsSampleList(bb));
        break;
      case TEST1:
        build = (b, m) -> test1(b, (Test1) m);
        read = bb -> fromTest1(serbench.fbs.pb_vs_msgpack.Test1.getRootAsTest1(bb));
        break;
      case TEST2:
        build = (b, m) -> test2(b, (Test2) m);
        read = bb -> fromTest2(serbench.fbs.pb_vs_msgpack.Test2.getRootAsTest2(bb));
        break;
      case TEST3:
        build = (b, m) -> test3(b, (Test3) m);
        read = bb -> new Test3(serbench.fbs.pb_vs_msgpack.Test3.getRootAsTest3(bb).s());
        break;
      case TEST4:
        build =
            (b, m) -> {
              Test4 t = (Test4) m;
              int t3 = test3(b, t.t3);
              int t2 = test2(b, t.t2);
              int t1 = test1(b, t.t1);
              return serbench.fbs.pb_vs_msgpack.Test4.createTest4(b, t1, t2, t3);
            };
        read =
            bb -> {
              serbench.fbs.pb_vs_msgpack.Test4 t =
                  serbench.fbs.pb_vs_msgpack.Test4.getRootAsTest4(bb);
              return new Test4(fromTest1(t.t1()), fromTest2(t.t2()), new Test3(t.t3().s()));
            };
        break;
      case ONE_MB_DICT:
        build = FlatBuffersSerializer::dict;
        read = bb -> fromDict(Dict.getRootAsDict(bb));
        break;
      case CLICK_MAPS:
        build = (b, m) -> clickMap(b, (ClickMap) m);
        read = bb -> fromClickMap(serbench.fbs.click_maps.ClickMap.getRootAsClickMap(bb));
        break;
      case LOG_RECORDS:
        build = FlatBuffersSerializer::log;
        read = bb -> fromLog(TestClassList.getRootAsTestClassList(bb));
        break;
      default:
        {
          // Any other built-in: flatc's classes for its family, built and read through their
          // generated static builders and accessors by reflection, from and to the model's objects.
          Reflective r = new Reflective(kind.family().replace('-', '_'), types(kind).message);
          TypedModel model = kind.model();
          build = (b, m) -> r.table(b, r.root, model.toTree(m));
          read = bb -> model.fromTree(r.read(r.root, r.rootAs(bb)));
        }
    }
    return codec(build, read);
  }

  private static Codec codec(Build builds, Read reads) {
    FlatBufferBuilder builder = new FlatBufferBuilder(4096);
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) {
        builder.clear();
        builder.finish(builds.build(builder, message));
        ByteBuffer bb = builder.dataBuffer();
        out.write(bb.array(), bb.arrayOffset() + bb.position(), bb.remaining());
      }

      @Override
      public Object decode(byte[] buf, int off, int len) {
        return reads.read(ByteBuffer.wrap(buf, off, len));
      }
    };
  }

  /**
   * flatc's generated Java classes of one family driven by reflection over the typed generic tree:
   * a record's table through {@code start<T>}, {@code add<Field>}, {@code end<T>} and the field
   * accessors, a list through {@code create<Field>Vector}, {@code <field>Length} and {@code
   * <field>(j)} (flatc's naming: fields in camel case). Covers records, lists of records, strings
   * or scalars, strings, scalars and enums (a types file with anything else is not applicable,
   * naming it).
   */
  private static final class Reflective {
    final String pkg;
    final UserTypes.Type root;
    final Map<String, Method> methods = new HashMap<>();

    Reflective(String familySnake, UserTypes.Type message) throws NotApplicableException {
      pkg = "serbench.fbs." + familySnake + ".";
      root = message;
      check(message, "$", new java.util.HashSet<>());
    }

    private void check(UserTypes.Type t, String path, java.util.Set<String> seen)
        throws NotApplicableException {
      switch (t.kind) {
        case RECORD:
          if (seen.add(t.name)) {
            classOf(t);
            for (int i = 0; i < t.fields.size(); i++) {
              check(t.fieldTypes.get(i), path + "." + t.fields.get(i), seen);
            }
          }
          return;
        case LIST:
          if (t.elem.kind == UserTypes.Kind.LIST) {
            throw new NotApplicableException("flatbuffers: a list of lists at " + path);
          }
          check(t.elem, path + "[*]", seen);
          return;
        case INT32:
        case UINT32:
        case INT64:
        case FLOAT32:
        case FLOAT64:
        case BOOL:
        case STRING:
        case TIMESTAMP:
        case ENUM:
          return;
        default:
          throw new NotApplicableException(
              "flatbuffers: the reflective path over flatc's classes does not cover "
                  + t
                  + " at "
                  + path);
      }
    }

    private Class<?> classOf(UserTypes.Type t) throws NotApplicableException {
      try {
        return Class.forName(pkg + t.name);
      } catch (ClassNotFoundException e) {
        throw new NotApplicableException("flatbuffers: no class " + pkg + t.name + " from flatc");
      }
    }

    /** flatc's camel case of a field name; {@code upper} for the builders' names. */
    private static String camel(String name, boolean upper) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (i == 0 && upper) {
          b.append(Character.toUpperCase(c));
        } else if (c == '_' && i + 1 < name.length()) {
          b.append(Character.toUpperCase(name.charAt(++i)));
        } else {
          b.append(c);
        }
      }
      return b.toString();
    }

    /** The one public method of {@code c} named {@code name} with {@code arity} parameters. */
    private Method method(Class<?> c, String name, int arity) {
      return methods.computeIfAbsent(
          c.getName() + "#" + name + "/" + arity,
          k -> {
            for (Method m : c.getMethods()) {
              if (m.getName().equals(name) && m.getParameterCount() == arity) {
                return m;
              }
            }
            throw new IllegalStateException("flatbuffers: no " + c.getName() + "." + name);
          });
    }

    private static Object invoke(Method m, Object target, Object... args) {
      try {
        return m.invoke(target, args);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }

    Object rootAs(ByteBuffer bb) {
      try {
        Class<?> c = classOf(root);
        return invoke(method(c, "getRootAs" + c.getSimpleName(), 1), null, bb);
      } catch (NotApplicableException e) {
        throw new IllegalStateException(e.getMessage());
      }
    }

    /** A scalar of the tree as the type a generated builder takes. */
    private static Object scalar(Class<?> p, Object v) {
      if (p == boolean.class) {
        return v;
      }
      if (v instanceof Instant) {
        v = ((Instant) v).toEpochMilli();
      }
      Number n = (Number) v;
      if (p == byte.class) {
        return n.byteValue();
      } else if (p == short.class) {
        return n.shortValue();
      } else if (p == int.class) {
        return n.intValue();
      } else if (p == long.class) {
        return n.longValue();
      } else if (p == float.class) {
        return n.floatValue();
      }
      return n.doubleValue();
    }

    /** The offset of a table built from a record of the tree (children first). */
    int table(FlatBufferBuilder b, UserTypes.Type t, Object v) {
      Class<?> c;
      try {
        c = classOf(t);
      } catch (NotApplicableException e) {
        throw new IllegalStateException(e.getMessage());
      }
      Map<?, ?> m = (Map<?, ?>) v;
      int n = t.fields.size();
      Object[] values = new Object[n];
      for (int i = 0; i < n; i++) {
        UserTypes.Type ft = t.fieldTypes.get(i);
        Object x = m.get(t.fields.get(i));
        if (x == null) {
          continue;
        }
        switch (ft.kind) {
          case STRING:
            values[i] = b.createString((String) x);
            break;
          case RECORD:
            values[i] = table(b, ft, x);
            break;
          case LIST:
            values[i] = vector(b, c, camel(t.fields.get(i), true), ft.elem, (List<?>) x);
            break;
          default:
            values[i] = x;
        }
      }
      invoke(method(c, "start" + c.getSimpleName(), 1), null, b);
      for (int i = 0; i < n; i++) {
        if (values[i] != null) {
          Method add = method(c, "add" + camel(t.fields.get(i), true), 2);
          invoke(add, null, b, scalar(add.getParameterTypes()[1], values[i]));
        }
      }
      return (Integer) invoke(method(c, "end" + c.getSimpleName(), 1), null, b);
    }

    private int vector(FlatBufferBuilder b, Class<?> c, String field, UserTypes.Type e, List<?> l) {
      Method create = method(c, "create" + field + "Vector", 2);
      Class<?> component = create.getParameterTypes()[1].getComponentType();
      Object array = Array.newInstance(component, l.size());
      for (int j = 0; j < l.size(); j++) {
        Object x = l.get(j);
        if (e.kind == UserTypes.Kind.RECORD) {
          x = table(b, e, x);
        } else if (e.kind == UserTypes.Kind.STRING) {
          x = b.createString((String) x);
        }
        Array.set(array, j, scalar(component, x));
      }
      return (Integer) invoke(create, null, b, array);
    }

    /** The tree of a record from its generated table object. */
    Object read(UserTypes.Type t, Object table) {
      Class<?> c = table.getClass();
      Map<String, Object> out = new LinkedHashMap<>();
      for (int i = 0; i < t.fields.size(); i++) {
        UserTypes.Type ft = t.fieldTypes.get(i);
        String name = camel(t.fields.get(i), false);
        Object x;
        if (ft.kind == UserTypes.Kind.LIST) {
          int n = (Integer) invoke(method(c, name + "Length", 0), table);
          Method get = method(c, name, 1);
          List<Object> l = new ArrayList<>(n);
          for (int j = 0; j < n; j++) {
            Object e = invoke(get, table, j);
            l.add(
                ft.elem.kind == UserTypes.Kind.RECORD
                    ? read(ft.elem, e)
                    : UserTypes.treeScalar(ft.elem, e));
          }
          x = l;
        } else {
          x = invoke(method(c, name, 0), table);
          if (x != null) {
            x = ft.kind == UserTypes.Kind.RECORD ? read(ft, x) : UserTypes.treeScalar(ft, x);
          }
        }
        out.put(t.fields.get(i), x);
      }
      return out;
    }
  }

  @SuppressWarnings("unchecked")
  private static int sampleList(FlatBufferBuilder b, Object m) {
    List<SampleData> in = (List<SampleData>) m;
    int[] offs = new int[in.size()];
    for (int i = 0; i < offs.length; i++) {
      SampleData s = in.get(i);
      int name = b.createString(s.name);
      offs[i] =
          serbench.fbs.android_users.SampleData.createSampleData(
              b, s.id, name, s.age, (byte) s.gender.ordinal(), s.isMegane);
    }
    return SampleList.createSampleList(b, SampleList.createSampleDataVector(b, offs));
  }

  private static final Gender[] GENDERS = Gender.values();

  private static Object fromSampleList(SampleList l) {
    int n = l.sampleDataLength();
    ArrayList<SampleData> out = new ArrayList<>(n);
    serbench.fbs.android_users.SampleData s = new serbench.fbs.android_users.SampleData();
    for (int i = 0; i < n; i++) {
      l.sampleData(s, i);
      out.add(new SampleData(s.id(), s.name(), s.age(), GENDERS[s.gender()], s.isMegane()));
    }
    return out;
  }

  private static int test1(FlatBufferBuilder b, Test1 t) {
    return serbench.fbs.pb_vs_msgpack.Test1.createTest1(b, t.a & 0xFFFFFFFFL, t.b & 0xFFFFFFFFL);
  }

  private static Test1 fromTest1(serbench.fbs.pb_vs_msgpack.Test1 t) {
    return new Test1(t.a(), t.b());
  }

  private static int test2(FlatBufferBuilder b, Test2 t) {
    return serbench.fbs.pb_vs_msgpack.Test2.createTest2(b, t.a, t.b);
  }

  private static Test2 fromTest2(serbench.fbs.pb_vs_msgpack.Test2 t) {
    return new Test2(t.a(), t.b());
  }

  private static int test3(FlatBufferBuilder b, Test3 t) {
    return serbench.fbs.pb_vs_msgpack.Test3.createTest3(b, b.createString(t.s));
  }

  @SuppressWarnings("unchecked")
  private static int dict(FlatBufferBuilder b, Object m) {
    Map<String, String> d = (Map<String, String>) m;
    int[] offs = new int[d.size()];
    int i = 0;
    for (Map.Entry<String, String> e : d.entrySet()) {
      int k = b.createString(e.getKey());
      int v = b.createString(e.getValue());
      offs[i++] = Entry.createEntry(b, k, v);
    }
    return Dict.createDict(b, Dict.createEntriesVector(b, offs));
  }

  private static Object fromDict(Dict d) {
    HashMap<String, String> out = new HashMap<>();
    Entry e = new Entry();
    for (int i = 0, n = d.entriesLength(); i < n; i++) {
      d.entries(e, i);
      out.put(e.key(), e.value());
    }
    return out;
  }

  private static int clickMap(FlatBufferBuilder b, ClickMap c) {
    int[] offs = new int[c.clicks.size()];
    int i = 0;
    for (Map.Entry<String, Click> e : c.clicks.entrySet()) {
      Click k = e.getValue();
      int key = b.createString(e.getKey());
      int sel = b.createString(k.selector);
      int click = serbench.fbs.click_maps.Click.createClick(b, k.x, k.y, k.count, k.lastClick, sel);
      offs[i++] = ClicksEntry.createClicksEntry(b, key, click);
    }
    int clicks = serbench.fbs.click_maps.ClickMap.createClicksVector(b, offs);
    int url = b.createString(c.url);
    int day = b.createString(c.day);
    int vp =
        serbench.fbs.click_maps.Viewport.createViewport(b, c.viewport.width, c.viewport.height);
    return serbench.fbs.click_maps.ClickMap.createClickMap(b, url, day, vp, clicks);
  }

  private static Object fromClickMap(serbench.fbs.click_maps.ClickMap m) {
    HashMap<String, Click> clicks = new HashMap<>();
    ClicksEntry e = new ClicksEntry();
    serbench.fbs.click_maps.Click k = new serbench.fbs.click_maps.Click();
    for (int i = 0, n = m.clicksLength(); i < n; i++) {
      m.clicks(e, i);
      e.value(k);
      clicks.put(e.key(), new Click(k.x(), k.y(), k.count(), k.lastClick(), k.selector()));
    }
    serbench.fbs.click_maps.Viewport vp = m.viewport();
    return new ClickMap(m.url(), m.day(), new Viewport(vp.width(), vp.height()), clicks);
  }

  @SuppressWarnings("unchecked")
  private static int log(FlatBufferBuilder b, Object m) {
    List<TestClass> in = (List<TestClass>) m;
    int[] offs = new int[in.size()];
    for (int i = 0; i < offs.length; i++) {
      TestClass t = in.get(i);
      int[] pairs = new int[t.MyProperty5.size()];
      for (int j = 0; j < pairs.length; j++) {
        Pair p = t.MyProperty5.get(j);
        int k = b.createString(p.key);
        int v = b.createString(p.value);
        pairs[j] = serbench.fbs.log_records.Pair.createPair(b, k, v);
      }
      int pv = serbench.fbs.log_records.TestClass.createMyProperty5Vector(b, pairs);
      int p1 = b.createString(t.MyProperty1);
      offs[i] =
          serbench.fbs.log_records.TestClass.createTestClass(
              b, p1, t.MyProperty2, t.MyProperty3.toEpochMilli(), t.MyProperty4, pv);
    }
    return TestClassList.createTestClassList(b, TestClassList.createItemsVector(b, offs));
  }

  private static Object fromLog(TestClassList l) {
    int n = l.itemsLength();
    ArrayList<TestClass> out = new ArrayList<>(n);
    serbench.fbs.log_records.TestClass t = new serbench.fbs.log_records.TestClass();
    serbench.fbs.log_records.Pair p = new serbench.fbs.log_records.Pair();
    for (int i = 0; i < n; i++) {
      l.items(t, i);
      int k = t.myProperty5Length();
      ArrayList<Pair> pairs = new ArrayList<>(k);
      for (int j = 0; j < k; j++) {
        t.myProperty5(p, j);
        pairs.add(new Pair(p.key(), p.value()));
      }
      out.add(
          new TestClass(
              t.myProperty1(),
              t.myProperty2(),
              Instant.ofEpochMilli(t.myProperty3()),
              t.myProperty4(),
              pairs));
    }
    return out;
  }
}
