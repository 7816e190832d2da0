package serbench.lib;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.core.buffer.ArrayBufferInput;
import org.msgpack.core.buffer.OutputStreamBufferOutput;
import serbench.harness.Buf;
import serbench.harness.DatasetKind;
import serbench.harness.MessageConsumer;
import serbench.harness.NotApplicableException;
import serbench.harness.SelfDelimitingCodec;
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
 * msgpack-core (msgpack-java) written by hand in the seed's positional layout: a record is an array
 * of its fields in order, an enum its ordinal, S1's list header an array16, S2's Test3 a bare
 * string, a timestamp int64 milliseconds. Streams are plain concatenation.
 */
public final class MsgpackCoreSerializer extends Serializer {
  public MsgpackCoreSerializer() {
    super(
        "msgpack-core",
        "msgpack",
        "org.msgpack:msgpack-core",
        libVersion("msgpack"),
        List.of(
            "binary",
            "schemaless",
            "copying-decode",
            "positional",
            "enum-as-ordinal",
            "timestamp-as-number"),
        List.of("org/msgpack/core/", "org/msgpack/value/"));
  }

  private interface Writer {
    void write(MessagePacker p, Object m) throws IOException;
  }

  private interface Reader {
    Object read(MessageUnpacker u) throws IOException;
  }

  private static final Gender[] GENDERS = Gender.values();

  @Override
  public String userNotApplicable() {
    return "msgpack-core is written by hand for the seed's positional layout of the built-in types: user datasets go through jackson-msgpack (the generic value tree)";
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    return kind.seed == DatasetKind.Seed.OTHER
        ? "msgpack-core: the positional layout is written by hand per seed dataset (the seeds fixed"
            + " it); there is none for this dataset"
        : null;
  }

  @Override
  public SelfDelimitingCodec codec(DatasetKind kind) throws NotApplicableException {
    Writer w;
    Reader r;
    switch (kind.seed) {
      case ANDROID_USERS:
        w = MsgpackCoreSerializer::writeSamples;
        r = MsgpackCoreSerializer::readSamples;
        break;
      case TEST1:
        w = (p, m) -> p.packArrayHeader(2).packLong(((Test1) m).a).packLong(((Test1) m).b);
        r = u -> readTest1(u);
        break;
      case TEST2:
        w = (p, m) -> p.packArrayHeader(2).packInt(((Test2) m).a).packInt(((Test2) m).b);
        r = u -> readTest2(u);
        break;
      case TEST3:
        w = (p, m) -> p.packString(((Test3) m).s);
        r = u -> new Test3(u.unpackString());
        break;
      case TEST4:
        w =
            (p, m) -> {
              Test4 t = (Test4) m;
              p.packArrayHeader(3);
              p.packArrayHeader(2).packLong(t.t1.a).packLong(t.t1.b);
              p.packArrayHeader(2).packInt(t.t2.a).packInt(t.t2.b);
              p.packString(t.t3.s);
            };
        r =
            u -> {
              expect(u.unpackArrayHeader(), 3);
              return new Test4(readTest1(u), readTest2(u), new Test3(u.unpackString()));
            };
        break;
      case ONE_MB_DICT:
        w = MsgpackCoreSerializer::writeDict;
        r = MsgpackCoreSerializer::readDict;
        break;
      case CLICK_MAPS:
        w = (p, m) -> writeClickMap(p, (ClickMap) m);
        r = MsgpackCoreSerializer::readClickMap;
        break;
      case LOG_RECORDS:
        w = MsgpackCoreSerializer::writeLog;
        r = MsgpackCoreSerializer::readLog;
        break;
      default:
        throw new NotApplicableException(notApplicable(kind));
    }
    return new PackCodec(w, r);
  }

  /** Reuses one packer and one unpacker, re-pointed at each call's buffer. */
  private static final class PackCodec implements SelfDelimitingCodec {
    private final Writer writer;
    private final Reader reader;
    private final OutputStreamBufferOutput output =
        new OutputStreamBufferOutput(OutputStream.nullOutputStream());
    private final MessagePacker packer = MessagePack.newDefaultPacker(output);
    private final ArrayBufferInput input = new ArrayBufferInput(new byte[0]);
    private final MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(input);

    PackCodec(Writer writer, Reader reader) {
      this.writer = writer;
      this.reader = reader;
    }

    @Override
    public void encode(Object message, Buf out) throws IOException {
      output.reset(out);
      writer.write(packer, message);
      packer.flush();
    }

    @Override
    public Object decode(byte[] buf, int off, int len) throws IOException {
      input.reset(buf, off, len);
      unpacker.reset(input);
      Object m = reader.read(unpacker);
      if (unpacker.hasNext()) {
        throw new IOException("trailing bytes after the message");
      }
      return m;
    }

    @Override
    public void encodeStream(Object[] items, int count, Buf out) throws IOException {
      output.reset(out);
      MessagePacker p = packer;
      int j = 0;
      for (int i = 0; i < count; i++) {
        writer.write(p, items[j]);
        if (++j == items.length) {
          j = 0;
        }
      }
      p.flush();
    }

    @Override
    public void decodeStream(byte[] buf, int off, int len, int count, MessageConsumer consumer)
        throws Exception {
      input.reset(buf, off, len);
      unpacker.reset(input);
      for (int i = 0; i < count; i++) {
        consumer.accept(i, reader.read(unpacker));
      }
      if (unpacker.hasNext()) {
        throw new IOException("trailing bytes after " + count + " messages");
      }
    }
  }

  private static void expect(int got, int want) throws IOException {
    if (got != want) {
      throw new IOException("array of " + got + ", expected " + want);
    }
  }

  @SuppressWarnings("unchecked")
  private static void writeSamples(MessagePacker p, Object m) throws IOException {
    List<SampleData> list = (List<SampleData>) m;
    // The seed's list header is an array16 even for 30 elements (0xdc + big-endian length).
    int n = list.size();
    if (n > 0xffff) {
      p.packArrayHeader(n);
    } else {
      p.writePayload(new byte[] {(byte) 0xdc, (byte) (n >>> 8), (byte) n});
    }
    for (SampleData s : list) {
      p.packArrayHeader(5);
      p.packLong(s.id);
      p.packString(s.name);
      p.packInt(s.age);
      p.packInt(s.gender.ordinal());
      p.packBoolean(s.isMegane);
    }
  }

  private static Object readSamples(MessageUnpacker u) throws IOException {
    int n = u.unpackArrayHeader();
    ArrayList<SampleData> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      expect(u.unpackArrayHeader(), 5);
      long id = u.unpackLong();
      String name = u.unpackString();
      int age = u.unpackInt();
      Gender g = GENDERS[u.unpackInt()];
      list.add(new SampleData(id, name, age, g, u.unpackBoolean()));
    }
    return list;
  }

  private static Test1 readTest1(MessageUnpacker u) throws IOException {
    expect(u.unpackArrayHeader(), 2);
    long a = u.unpackLong();
    return new Test1(a, u.unpackLong());
  }

  private static Test2 readTest2(MessageUnpacker u) throws IOException {
    expect(u.unpackArrayHeader(), 2);
    int a = u.unpackInt();
    return new Test2(a, u.unpackInt());
  }

  @SuppressWarnings("unchecked")
  private static void writeDict(MessagePacker p, Object m) throws IOException {
    Map<String, String> d = (Map<String, String>) m;
    p.packMapHeader(d.size());
    for (Map.Entry<String, String> e : d.entrySet()) {
      p.packString(e.getKey());
      p.packString(e.getValue());
    }
  }

  private static Object readDict(MessageUnpacker u) throws IOException {
    int n = u.unpackMapHeader();
    HashMap<String, String> d = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String k = u.unpackString();
      d.put(k, u.unpackString());
    }
    return d;
  }

  private static void writeClickMap(MessagePacker p, ClickMap c) throws IOException {
    p.packArrayHeader(4);
    p.packString(c.url);
    p.packString(c.day);
    p.packArrayHeader(2).packInt(c.viewport.width).packInt(c.viewport.height);
    p.packMapHeader(c.clicks.size());
    for (Map.Entry<String, Click> e : c.clicks.entrySet()) {
      Click k = e.getValue();
      p.packString(e.getKey());
      p.packArrayHeader(5).packInt(k.x).packInt(k.y).packInt(k.count).packLong(k.lastClick);
      p.packString(k.selector);
    }
  }

  private static Object readClickMap(MessageUnpacker u) throws IOException {
    expect(u.unpackArrayHeader(), 4);
    String url = u.unpackString();
    String day = u.unpackString();
    expect(u.unpackArrayHeader(), 2);
    int w = u.unpackInt();
    Viewport vp = new Viewport(w, u.unpackInt());
    int n = u.unpackMapHeader();
    HashMap<String, Click> clicks = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String key = u.unpackString();
      expect(u.unpackArrayHeader(), 5);
      int x = u.unpackInt();
      int y = u.unpackInt();
      int count = u.unpackInt();
      long last = u.unpackLong();
      clicks.put(key, new Click(x, y, count, last, u.unpackString()));
    }
    return new ClickMap(url, day, vp, clicks);
  }

  @SuppressWarnings("unchecked")
  private static void writeLog(MessagePacker p, Object m) throws IOException {
    List<TestClass> list = (List<TestClass>) m;
    p.packArrayHeader(list.size());
    for (TestClass t : list) {
      p.packArrayHeader(5);
      p.packString(t.MyProperty1);
      p.packInt(t.MyProperty2);
      p.packLong(t.MyProperty3.toEpochMilli());
      p.packBoolean(t.MyProperty4);
      p.packArrayHeader(t.MyProperty5.size());
      for (Pair pair : t.MyProperty5) {
        p.packArrayHeader(2).packString(pair.key).packString(pair.value);
      }
    }
  }

  private static Object readLog(MessageUnpacker u) throws IOException {
    int n = u.unpackArrayHeader();
    ArrayList<TestClass> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      expect(u.unpackArrayHeader(), 5);
      String p1 = u.unpackString();
      int p2 = u.unpackInt();
      Instant p3 = Instant.ofEpochMilli(u.unpackLong());
      boolean p4 = u.unpackBoolean();
      int k = u.unpackArrayHeader();
      ArrayList<Pair> pairs = new ArrayList<>(k);
      for (int j = 0; j < k; j++) {
        expect(u.unpackArrayHeader(), 2);
        String key = u.unpackString();
        pairs.add(new Pair(key, u.unpackString()));
      }
      list.add(new TestClass(p1, p2, p3, p4, pairs));
    }
    return list;
  }
}
