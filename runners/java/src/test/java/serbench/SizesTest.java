package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.junit.jupiter.api.Test;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Compressor;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Diff;
import serbench.harness.Serializer;
import serbench.harness.Workload;
import serbench.model.Gender;
import serbench.model.SampleData;

/**
 * Byte-exact sizes that follow from the data (scenarios S1 and S2) and round trips of every
 * serializer, on datasets built here exactly as the generator builds them.
 */
class SizesTest {
  /** S1's shape: 30 records, id 0..29, name "user " + id (ages, genders, glasses arbitrary). */
  private static Dataset s1(Path dir) throws Exception {
    StringBuilder sb = new StringBuilder();
    sb.append("{\"format\":\"serbench-dataset\",\"version\":1,\"name\":\"android-users\",")
        .append(
            "\"scenario\":\"S1\",\"scale\":\"quick\",\"framing\":\"single\",\"count\":1,\"items\":[[");
    for (int i = 0; i < 30; i++) {
      sb.append(i == 0 ? "" : ",")
          .append("{\"id\":")
          .append(i)
          .append(",\"name\":\"user ")
          .append(i)
          .append("\",\"age\":")
          .append((i * 17) % 50)
          .append(",\"gender\":")
          .append(i % 2)
          .append(",\"isMegane\":")
          .append(i % 3 == 0)
          .append("}");
    }
    sb.append("]]}");
    return write(dir, "android-users", sb.toString());
  }

  private static Dataset s2(Path dir, int test, int count) throws Exception {
    String s = "a".repeat(8192);
    String item;
    switch (test) {
      case 1:
        item = "{\"a\":1,\"b\":2}";
        break;
      case 2:
        item = "{\"a\":-1,\"b\":-2}";
        break;
      case 3:
        item = "{\"s\":\"" + s + "\"}";
        break;
      default:
        item = "{\"t1\":{\"a\":1,\"b\":2},\"t2\":{\"a\":-1,\"b\":-2},\"t3\":{\"s\":\"" + s + "\"}}";
    }
    String name = "pb-vs-msgpack-test" + test;
    return write(
        dir,
        name,
        "{\"format\":\"serbench-dataset\",\"version\":1,\"name\":\""
            + name
            + "\",\"scenario\":\"S2\",\"scale\":\"quick\",\"framing\":\"stream\",\"count\":"
            + count
            + ",\"items\":["
            + item
            + "]}");
  }

  private static Dataset write(Path dir, String name, String json) throws Exception {
    Path p = dir.resolve(name + ".json");
    Files.writeString(p, json);
    return Dataset.load(DatasetKind.byId(name), p.toString());
  }

  private static int encodedSize(String serializer, Dataset d) throws Exception {
    Serializer s = Registry.byName(serializer);
    Codec c = s.codec(d.kind);
    c.prepare(d.items);
    Workload w = new Workload(c, d, null);
    byte[] b = w.encode().toByteArray();
    List<Object> back = new ArrayList<>();
    w.decode(b, b.length, (i, m) -> back.add(m));
    assertEquals(d.count, back.size());
    for (int i = 0; i < back.size(); i++) {
      assertNull(Diff.first(d.message(i), back.get(i)), serializer);
    }
    return b.length;
  }

  @Test
  void s1Sizes() throws Exception {
    Dataset d = s1(Files.createTempDirectory("serbench"));
    assertEquals(560, encodedSize("protobuf", d));
    assertEquals(383, encodedSize("msgpack-core", d));
    // the Parcelable stand-in: count 4, then per record id 8, name 4 + 6 or 7, age 4, gender 1
    // (S1's one-byte enum), isMegane 1
    assertEquals(744, encodedSize("handwritten", d));
    // the generated glue writes what the hand-written seed code wrote
    assertEquals(1376, encodedSize("flatbuffers", d));
    assertEquals(1311, encodedSize("flexbuffers", d));
  }

  /** The seed's own library versions write the seed's published sizes. */
  @Test
  void s1SizesInTheSeedsVersions() throws Exception {
    Dataset d = s1(Files.createTempDirectory("serbench"));
    assertEquals(560, encodedSize("protobuf@2.6.1", d));
    assertEquals(383, encodedSize("msgpack-core@0.6.12", d));
  }

  @Test
  void s2SizesPerMessage() throws Exception {
    Path dir = Files.createTempDirectory("serbench");
    int n = 16;
    int[] pb = {5, 23, 8197, 8230};
    int[] mp = {3, 3, 8195, 8202};
    // handwritten: u32 a, b; u32 length + 8,192; both; each with its one- or two-byte prefix
    int[] hw = {9, 9, 8198, 8214};
    // the generated glue writes what the hand-written seed code wrote, plus the length prefix
    int[] fb = {25, 25, 8222, 8290};
    int[] fx = {18, 18, 8216, 8274};
    for (int t = 1; t <= 4; t++) {
      Dataset d = s2(dir, t, n);
      assertEquals(hw[t - 1] * n, encodedSize("handwritten", d), "handwritten Test" + t);
      assertEquals(pb[t - 1] * n, encodedSize("protobuf", d), "protobuf Test" + t);
      assertEquals(pb[t - 1] * n, encodedSize("protobuf@2.6.1", d), "protobuf@2.6.1 Test" + t);
      assertEquals(mp[t - 1] * n, encodedSize("msgpack-core", d), "msgpack-core Test" + t);
      assertEquals(fb[t - 1] * n, encodedSize("flatbuffers", d), "flatbuffers Test" + t);
      assertEquals(fx[t - 1] * n, encodedSize("flexbuffers", d), "flexbuffers Test" + t);
    }
  }

  @Test
  void everySerializerRoundTripsS1AndS2() throws Exception {
    Path dir = Files.createTempDirectory("serbench");
    List<Dataset> sets = new ArrayList<>();
    sets.add(s1(dir));
    for (int t = 1; t <= 4; t++) {
      sets.add(s2(dir, t, 3));
    }
    for (Serializer s : Registry.ALL) {
      for (Dataset d : sets) {
        if (s.notApplicable(d.kind) != null) {
          continue;
        }
        assertNotNull(Integer.valueOf(encodedSize(s.name(), d)));
      }
    }
  }

  /**
   * A built-in with no hand-written code (S6, from its types.json alone): every serializer
   * round-trips it or says why not.
   */
  @Test
  void everySerializerRoundTripsMeshOrSaysWhy() throws Exception {
    String v = "{\"x\":0.5,\"y\":0.25,\"z\":5.9604645E-8}";
    String t = "{\"v0\":" + v + ",\"v1\":" + v + ",\"v2\":" + v + ",\"normal\":" + v + "}";
    Dataset d =
        write(
            Files.createTempDirectory("serbench"),
            "mesh",
            "{\"format\":\"serbench-dataset\",\"version\":1,\"name\":\"mesh\",\"scenario\":\"S6\","
                + "\"scale\":\"quick\",\"framing\":\"single\",\"count\":1,\"items\":[{\"triangles\":["
                + t
                + ","
                + t
                + "]}]}");
    for (Serializer s : Registry.ALL) {
      if (s.notApplicable(d.kind) == null) {
        assertNotNull(Integer.valueOf(encodedSize(s.name(), d)), s.name());
      }
    }
    assertEquals(2 * (4 * (2 + 3 * 5) + 2), encodedSize("protobuf", d));
    assertEquals(4 + 2 * 4 * 3 * 4, encodedSize("handwritten", d)); // count, 24 float32
    // a record of one field is its bare value: the list of triangles, each an array of 4 arrays
    assertEquals(1 + 2 * (1 + 4 * (1 + 3 * 5)), encodedSize("msgpack-core", d));
  }

  @Test
  void streamCompressedSizeFromDistinctItemsIsTheRealSize() throws Exception {
    Dataset d = s2(Files.createTempDirectory("serbench"), 4, 5);
    for (String ser : new String[] {"protobuf", "msgpack-core", "kryo"}) {
      for (String name : Compressor.NAMES) {
        Codec c = Registry.byName(ser).codec(d.kind);
        long real = new Workload(c, d, Compressor.create(name)).encode().size();
        assertEquals(
            real, new Workload(c, d, Compressor.create(name)).compressedSize(), ser + name);
      }
    }
  }

  @Test
  void diffNamesTheFirstDifference() {
    List<SampleData> a = new ArrayList<>();
    List<SampleData> b = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      a.add(new SampleData(i, "user " + i, 13, Gender.Male, false));
      b.add(new SampleData(i, "user " + i, i == 17 ? 31 : 13, Gender.Male, false));
    }
    assertEquals("[17].age: 13 != 31", Diff.first(a, b));
    Map<String, String> m1 = new HashMap<>(Map.of("k", "v"));
    Map<String, String> m2 = new HashMap<>(Map.of("k", "w"));
    assertEquals("['k']: 'v' != 'w'", Diff.first(m1, m2));
  }

  @Test
  void codecsRoundTripAndLz4IsAStandardFrame() throws Exception {
    byte[] src = "abcdefghijklmnopqrstuvwxyz".repeat(40000).getBytes();
    for (String name : Compressor.NAMES) {
      Compressor c = Compressor.create(name);
      Buf z = new Buf();
      c.compress(src, 0, src.length, z);
      Buf back = new Buf();
      c.decompress(z.array(), 0, z.size(), back);
      assertEquals(src.length, back.size(), name);
      if (name.equals("lz4")) {
        byte[] viaStream =
            new LZ4FrameInputStream(new ByteArrayInputStream(z.toByteArray())).readAllBytes();
        assertEquals(src.length, viaStream.length);
      }
    }
  }
}
