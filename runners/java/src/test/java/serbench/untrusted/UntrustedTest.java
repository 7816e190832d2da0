package serbench.untrusted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.msgpack.value.ValueFactory;
import serbench.Registry;
import serbench.harness.DatasetKind;
import serbench.harness.Serializer;

/** Section 11 of docs/runner-protocol.md: canonical values, and each library's outcomes. */
class UntrustedTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HexFormat HEX = HexFormat.of();

  private static String canon(Object v) throws Exception {
    return JSON.writeValueAsString(v);
  }

  @Test
  void jacksonTreesRenderCanonically() throws Exception {
    JsonNodeFactory f = JsonNodeFactory.instance;
    JsonNode n =
        f.arrayNode()
            .add(f.numberNode(Double.NaN))
            .add(f.numberNode(Double.NEGATIVE_INFINITY))
            .add(f.numberNode(new BigInteger("18446744073709551616")))
            .add(f.binaryNode(new byte[] {0, (byte) 0xff}))
            .add(f.objectNode().put("a", 1.5))
            .add(f.nullNode());
    assertEquals(
        "[{\"$float\":\"NaN\"},{\"$float\":\"-Infinity\"},18446744073709551616,"
            + "{\"$bytes\":\"00ff\"},{\"a\":1.5},null]",
        canon(Canonical.of(n, 0)));
  }

  @Test
  void valuesDeeperThan400AreOther() throws Exception {
    JsonNode n = JSON.readTree("[".repeat(402) + "]".repeat(402));
    Object v = Canonical.of(n, 0);
    for (int i = 0; i <= Canonical.MAX_DEPTH; i++) {
      v = ((List<?>) v).get(0);
    }
    assertEquals("{\"$other\":\"nested deeper than 400\"}", canon(v));
  }

  @Test
  void msgpackValuesRenderCanonically() throws Exception {
    Object v =
        Canonical.of(
            ValueFactory.newArray(
                ValueFactory.newMap(ValueFactory.newInteger(1), ValueFactory.newString("x")),
                ValueFactory.newMap(ValueFactory.newString("k"), ValueFactory.newNil()),
                ValueFactory.newExtension((byte) 5, new byte[] {1}),
                ValueFactory.newTimestamp(1, 2),
                ValueFactory.newFloat(Double.POSITIVE_INFINITY)),
            0);
    assertEquals(
        "[{\"$map\":[[1,\"x\"]]},{\"k\":null},{\"$ext\":[5,\"01\"]},{\"$timestamp\":[1,2]},"
            + "{\"$float\":\"Infinity\"}]",
        canon(v));
  }

  @Test
  void msgpackEncodesCanonicalValues() throws Exception {
    Rows.Row r = Rows.of("msgpack-core");
    assertEquals("d40110", HEX.formatHex(r.encode.encode(JSON.readTree("{\"$ext\":[1,\"10\"]}"))));
    assertEquals("81a16101", HEX.formatHex(r.encode.encode(JSON.readTree("{\"a\":1}"))));
  }

  private static Map<String, Object> decode(String ser, Object dataset, byte[]... inputs)
      throws Exception {
    List<Object> in = new ArrayList<>();
    for (int i = 0; i < inputs.length; i++) {
      in.add(Map.of("id", "" + i, "b64", Base64.getEncoder().encodeToString(inputs[i])));
    }
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("cmd", "untrusted_decode");
    c.put("cell", "u");
    c.put("serializer", ser);
    c.put("dataset", dataset);
    c.put("inputs", in);
    return new Untrusted().handle(JSON.valueToTree(c), Registry.byName(ser));
  }

  private static String outcome(Map<String, Object> reply, int i) throws Exception {
    Map<?, ?> o = (Map<?, ?>) ((List<?>) reply.get("outcomes")).get(i);
    return o.get("outcome") + " " + canon(o.containsKey("value") ? o.get("value") : "");
  }

  @Test
  void genericDecodesAcceptAndReject() throws Exception {
    String[][] cases = {
      {"jackson-json-dynamic", "5b312c2261225d", "[1,\"a\"]", "5b312c"},
      {"jackson-cbor-dynamic", "83016161a16162f6", "[1,\"a\",{\"b\":null}]", "8301"},
      {"jackson-msgpack-dynamic", "9301a16181a162c0", "[1,\"a\",{\"b\":null}]", "9301"},
      {"msgpack-core", "9301a16181a162c0", "[1,\"a\",{\"b\":null}]", "dbffffffff61"},
      {"msgpack-core@0.6.12", "9301a16181a162c0", "[1,\"a\",{\"b\":null}]", "9301"},
      {"bson-dynamic", "0c0000001061000100000000", "{\"a\":1}", "0c00000010"},
    };
    for (String[] c : cases) {
      Map<String, Object> r = decode(c[0], null, HEX.parseHex(c[1]), HEX.parseHex(c[3]));
      assertEquals("accepted " + c[2], outcome(r, 0), c[0]);
      assertEquals("rejected \"\"", outcome(r, 1), c[0]);
    }
  }

  @Test
  void theRowsConversionIsNotTheLibrarys() {
    Exception e = new IllegalArgumentException("No enum constant serbench.model.Gender.");
    e.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("java.lang.Enum", "valueOf", null, 1),
          new StackTraceElement("serbench.model.Gender", "valueOf", null, 1)
        });
    assertTrue(Untrusted.conversion("flexbuffers", e));
    e.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement("com.google.flatbuffers.FlexBuffers", "readUInt", null, 1),
          new StackTraceElement("serbench.lib.FlexBuffersSerializer", "decode", null, 1)
        });
    assertFalse(Untrusted.conversion("flexbuffers", e));
  }

  /** S1's shape, as the generator writes android-users. */
  private static Map<String, Object> androidUsers(Path dir) throws Exception {
    StringBuilder sb = new StringBuilder();
    sb.append("{\"format\":\"serbench-dataset\",\"version\":1,\"name\":\"android-users\",")
        .append("\"scenario\":\"S1\",\"scale\":\"quick\",\"framing\":\"single\",\"count\":1,")
        .append("\"items\":[[");
    for (int i = 0; i < 30; i++) {
      sb.append(i == 0 ? "" : ",")
          .append("{\"id\":" + i + ",\"name\":\"user " + i + "\",\"age\":" + (i * 17) % 50)
          .append(",\"gender\":" + i % 2 + ",\"isMegane\":" + (i % 3 == 0) + "}");
    }
    sb.append("]]}");
    Path p = dir.resolve("android-users.json");
    Files.writeString(p, sb);
    return Map.of("name", "android-users", "kind", "builtin", "data", p.toString());
  }

  /**
   * Every serializer that takes untrusted input decodes its own encoding of android-users as equal,
   * and answers its documented error (or, without one, an error) for a one-byte input.
   */
  @Test
  void typedDecodesAcceptTheirOwnEncodingAndRefuseATruncatedOne(@TempDir Path dir)
      throws Exception {
    Map<String, Object> ds = androidUsers(dir);
    int checked = 0;
    for (Serializer s : Registry.ALL) {
      if (Rows.UNSAFE.containsKey(s.name())
          || s.notApplicable(DatasetKind.byId("android-users")) != null) {
        continue;
      }
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("cmd", "untrusted_encode");
      c.put("cell", "e");
      c.put("serializer", s.name());
      c.put("dataset", ds);
      c.put("message", 0);
      Map<String, Object> e = new Untrusted().handle(JSON.valueToTree(c), s);
      assertNotNull(e.get("b64"), s.name() + ": " + e);
      byte[] own = Base64.getDecoder().decode((String) e.get("b64"));
      Map<String, Object> r = decode(s.name(), ds, own, new byte[] {own[0]});
      assertEquals("accepted {\"$check\":\"equal\"}", outcome(r, 0), s.name());
      String refused = outcome(r, 1);
      boolean documented = !s.name().startsWith("flat") && !s.name().startsWith("flex");
      assertEquals(documented ? "rejected \"\"" : "error \"\"", refused, s.name() + ": " + r);
      checked++;
    }
    assertTrue(checked >= 19, "rows checked: " + checked);
  }
}
