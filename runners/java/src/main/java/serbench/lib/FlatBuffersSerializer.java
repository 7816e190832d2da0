package serbench.lib;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import serbench.fbs.android_users.SampleList;
import serbench.fbs.click_maps.ClicksEntry;
import serbench.fbs.log_records.TestClassList;
import serbench.fbs.one_mb_dict.Dict;
import serbench.fbs.one_mb_dict.Entry;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.DatasetKind;
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
    return "flatbuffers-java has only generated accessors (no reflection or dynamic API); the runner is built before user datasets exist";
  }

  @Override
  public Codec codec(DatasetKind kind) {
    Build build;
    Read read;
    switch (kind) {
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
        throw new IllegalArgumentException(kind.id);
    }
    FlatBufferBuilder builder = new FlatBufferBuilder(4096);
    Build builds = build;
    Read reads = read;
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
