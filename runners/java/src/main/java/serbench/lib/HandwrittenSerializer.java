package serbench.lib;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
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
 * Field-by-field writer (DataOutputStream) and reader (ByteBuffer) with no library: S1's Parcelable
 * stand-in. Strings are an int32 byte length and UTF-8; lists and maps an int32 count.
 */
public final class HandwrittenSerializer extends Serializer {
  public HandwrittenSerializer() {
    super(
        "handwritten",
        "handwritten",
        "java.io/java.nio (JDK)",
        System.getProperty("java.version"),
        List.of("binary", "schema-required", "copying-decode", "handwritten"),
        List.of());
  }

  private interface Writer {
    void write(DataOutputStream o, Object m) throws IOException;
  }

  private interface Reader {
    Object read(ByteBuffer b);
  }

  @Override
  public String userNotApplicable() {
    return "hand-written field-by-field code exists only for the built-in datasets' types";
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    return kind.seed == DatasetKind.Seed.OTHER
        ? "handwritten: the codec is written by hand per seed dataset (S1's Parcelable stand-in);"
            + " there is none for this dataset"
        : null;
  }

  @Override
  public Codec codec(DatasetKind kind) throws NotApplicableException {
    Writer w;
    Reader r;
    switch (kind.seed) {
      case ANDROID_USERS:
        w = (o, m) -> writeSamples(o, m);
        r = HandwrittenSerializer::readSamples;
        break;
      case TEST1:
        w = (o, m) -> writeTest1(o, (Test1) m);
        r = HandwrittenSerializer::readTest1;
        break;
      case TEST2:
        w = (o, m) -> writeTest2(o, (Test2) m);
        r = HandwrittenSerializer::readTest2;
        break;
      case TEST3:
        w = (o, m) -> writeString(o, ((Test3) m).s);
        r = b -> new Test3(readString(b));
        break;
      case TEST4:
        w =
            (o, m) -> {
              Test4 t = (Test4) m;
              writeTest1(o, t.t1);
              writeTest2(o, t.t2);
              writeString(o, t.t3.s);
            };
        r = b -> new Test4(readTest1(b), readTest2(b), new Test3(readString(b)));
        break;
      case ONE_MB_DICT:
        w = (o, m) -> writeDict(o, m);
        r = HandwrittenSerializer::readDict;
        break;
      case CLICK_MAPS:
        w = (o, m) -> writeClickMap(o, (ClickMap) m);
        r = HandwrittenSerializer::readClickMap;
        break;
      case LOG_RECORDS:
        w = (o, m) -> writeLog(o, m);
        r = HandwrittenSerializer::readLog;
        break;
      default:
        throw new NotApplicableException(notApplicable(kind));
    }
    Writer writer = w;
    Reader reader = r;
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws IOException {
        DataOutputStream o = new DataOutputStream(out);
        writer.write(o, message);
        o.flush();
      }

      @Override
      public Object decode(byte[] buf, int off, int len) {
        return reader.read(ByteBuffer.wrap(buf, off, len));
      }
    };
  }

  private static void writeString(DataOutputStream o, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    o.writeInt(b.length);
    o.write(b);
  }

  private static String readString(ByteBuffer b) {
    int n = b.getInt();
    String s = new String(b.array(), b.arrayOffset() + b.position(), n, StandardCharsets.UTF_8);
    b.position(b.position() + n);
    return s;
  }

  @SuppressWarnings("unchecked")
  private static void writeSamples(DataOutputStream o, Object m) throws IOException {
    List<SampleData> list = (List<SampleData>) m;
    o.writeInt(list.size());
    for (SampleData s : list) {
      o.writeLong(s.id);
      writeString(o, s.name);
      o.writeInt(s.age);
      o.writeByte(s.gender.ordinal());
      o.writeBoolean(s.isMegane);
    }
  }

  private static final Gender[] GENDERS = Gender.values();

  private static Object readSamples(ByteBuffer b) {
    int n = b.getInt();
    ArrayList<SampleData> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long id = b.getLong();
      String name = readString(b);
      int age = b.getInt();
      Gender g = GENDERS[b.get()];
      boolean megane = b.get() != 0;
      list.add(new SampleData(id, name, age, g, megane));
    }
    return list;
  }

  private static void writeTest1(DataOutputStream o, Test1 t) throws IOException {
    o.writeInt((int) t.a); // uint32: its 32 bits
    o.writeInt((int) t.b);
  }

  private static Test1 readTest1(ByteBuffer b) {
    int a = b.getInt();
    return new Test1(Integer.toUnsignedLong(a), Integer.toUnsignedLong(b.getInt()));
  }

  private static void writeTest2(DataOutputStream o, Test2 t) throws IOException {
    o.writeInt(t.a);
    o.writeInt(t.b);
  }

  private static Test2 readTest2(ByteBuffer b) {
    int a = b.getInt();
    return new Test2(a, b.getInt());
  }

  @SuppressWarnings("unchecked")
  private static void writeDict(DataOutputStream o, Object m) throws IOException {
    Map<String, String> d = (Map<String, String>) m;
    o.writeInt(d.size());
    for (Map.Entry<String, String> e : d.entrySet()) {
      writeString(o, e.getKey());
      writeString(o, e.getValue());
    }
  }

  private static Object readDict(ByteBuffer b) {
    int n = b.getInt();
    HashMap<String, String> d = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String k = readString(b);
      d.put(k, readString(b));
    }
    return d;
  }

  private static void writeClickMap(DataOutputStream o, ClickMap c) throws IOException {
    writeString(o, c.url);
    writeString(o, c.day);
    o.writeInt(c.viewport.width);
    o.writeInt(c.viewport.height);
    o.writeInt(c.clicks.size());
    for (Map.Entry<String, Click> e : c.clicks.entrySet()) {
      writeString(o, e.getKey());
      Click k = e.getValue();
      o.writeInt(k.x);
      o.writeInt(k.y);
      o.writeInt(k.count);
      o.writeLong(k.lastClick);
      writeString(o, k.selector);
    }
  }

  private static Object readClickMap(ByteBuffer b) {
    String url = readString(b);
    String day = readString(b);
    int w = b.getInt();
    Viewport vp = new Viewport(w, b.getInt());
    int n = b.getInt();
    HashMap<String, Click> clicks = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String key = readString(b);
      int x = b.getInt();
      int y = b.getInt();
      int count = b.getInt();
      long last = b.getLong();
      clicks.put(key, new Click(x, y, count, last, readString(b)));
    }
    return new ClickMap(url, day, vp, clicks);
  }

  @SuppressWarnings("unchecked")
  private static void writeLog(DataOutputStream o, Object m) throws IOException {
    List<TestClass> list = (List<TestClass>) m;
    o.writeInt(list.size());
    for (TestClass t : list) {
      writeString(o, t.MyProperty1);
      o.writeInt(t.MyProperty2);
      o.writeLong(t.MyProperty3.toEpochMilli());
      o.writeBoolean(t.MyProperty4);
      o.writeInt(t.MyProperty5.size());
      for (Pair p : t.MyProperty5) {
        writeString(o, p.key);
        writeString(o, p.value);
      }
    }
  }

  private static Object readLog(ByteBuffer b) {
    int n = b.getInt();
    ArrayList<TestClass> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String p1 = readString(b);
      int p2 = b.getInt();
      Instant p3 = Instant.ofEpochMilli(b.getLong());
      boolean p4 = b.get() != 0;
      int k = b.getInt();
      ArrayList<Pair> pairs = new ArrayList<>(k);
      for (int j = 0; j < k; j++) {
        String key = readString(b);
        pairs.add(new Pair(key, readString(b)));
      }
      list.add(new TestClass(p1, p2, p3, p4, pairs));
    }
    return list;
  }
}
