package serbench.untrusted;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import serbench.Registry;

/** Avro's interop test (section 11, avro_container): the datum through this runner's row. */
class AvroContainerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path INTEROP = Path.of("../../testdata/conformance/avro-interop");

  private static Map<String, Object> call(Map<String, Object> c) {
    return new Untrusted().handle(JSON.valueToTree(c), Registry.byName("avro"));
  }

  private static Map<String, Object> command(String cmd) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("cmd", cmd);
    c.put("cell", "a");
    c.put("serializer", "avro");
    return c;
  }

  private static byte[] write(String codec, JsonNode records) throws Exception {
    Map<String, Object> c = command("untrusted_encode");
    c.put(
        "container",
        Map.of("schema", JSON.readTree(INTEROP.resolve("interop.avsc").toFile()), "codec", codec));
    c.put("value", records);
    Map<String, Object> r = call(c);
    assertEquals("untrusted_encoded", r.get("event"), r.toString());
    return Base64.getDecoder().decode((String) r.get("b64"));
  }

  private static Map<?, ?> read(byte[] file) {
    Map<String, Object> c = command("untrusted_decode");
    c.put("container", true);
    c.put("inputs", List.of(Map.of("id", "f", "b64", Base64.getEncoder().encodeToString(file))));
    return (Map<?, ?>) ((List<?>) call(c).get("outcomes")).get(0);
  }

  @Test
  void theDatumWrittenWithEachCodecReadsBackEqual() throws Exception {
    JsonNode records = JSON.readTree(INTEROP.resolve("datum.json").toFile()).get("records");
    for (String codec : new String[] {"null", "deflate"}) {
      byte[] file = write(codec, records);
      assertArrayEquals("Obj\u0001".getBytes("ISO-8859-1"), Arrays.copyOf(file, 4), codec);
      Map<?, ?> o = read(file);
      assertEquals("accepted", o.get("outcome"), codec + ": " + o);
      // Through text on both sides, so that both trees hold the same node types.
      JsonNode back = JSON.readTree(JSON.writeValueAsString(o.get("value")));
      assertEquals(JSON.readTree(JSON.writeValueAsString(records)), back, codec);
    }
  }

  /**
   * A file cut inside its header is rejected. A file cut inside its last block reads as ending
   * before that block: DataFileStream.hasNext takes an EOFException there for the end of the file,
   * and the orchestrator classes the shorter list as a wrong value.
   */
  @Test
  void aTruncatedFileIsRejected() throws Exception {
    JsonNode records = JSON.readTree(INTEROP.resolve("datum.json").toFile()).get("records");
    for (String codec : new String[] {"null", "deflate"}) {
      int header = write(codec, JSON.createArrayNode()).length;
      byte[] file = write(codec, records);
      for (int len = 0; len < header; len++) {
        Map<?, ?> o = read(Arrays.copyOf(file, len));
        assertEquals("rejected", o.get("outcome"), codec + " " + len + ": " + o);
      }
      Map<?, ?> o = read(Arrays.copyOf(file, file.length - 1));
      assertEquals("accepted", o.get("outcome"), codec + ": " + o);
      assertEquals(List.of(), o.get("value"), codec);
    }
  }

  @Test
  void aUnionTakesItsFirstBranchThatCarriesTheValue() throws Exception {
    String avsc =
        "{\"type\":\"record\",\"name\":\"U\",\"fields\":[{\"name\":\"u\",\"type\":"
            + "[\"null\",\"int\",\"double\",{\"type\":\"array\",\"items\":\"string\"},"
            + "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]},\"string\"]}]}";
    Map<String, Object> c = command("untrusted_encode");
    c.put("container", Map.of("schema", JSON.readTree(avsc), "codec", "null"));
    c.put(
        "value",
        JSON.readTree(
            "[{\"u\":null},{\"u\":7},{\"u\":1099511627776},{\"u\":[\"x\"]},{\"u\":\"A\"},{\"u\":\"B\"}]"));
    Map<String, Object> r = call(c);
    Map<?, ?> o = read(Base64.getDecoder().decode((String) r.get("b64")));
    assertEquals(
        // Past int's range 2^40 is a double's; "A" is the enum's symbol, "B" only a string.
        "[{\"u\":null},{\"u\":7},{\"u\":1.099511627776E12},{\"u\":[\"x\"]},{\"u\":\"A\"},"
            + "{\"u\":\"B\"}]",
        JSON.writeValueAsString(o.get("value")));
  }

  @Test
  void aValueTheSchemaCannotCarryIsNotApplicable() throws Exception {
    Map<String, Object> c = command("untrusted_encode");
    c.put(
        "container",
        Map.of(
            "schema",
            JSON.readTree("{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}"),
            "codec",
            "null"));
    c.put("value", JSON.readTree("[{\"$bytes\":\"00\"}]"));
    Map<String, Object> r = call(c);
    assertEquals("not_applicable", r.get("code"), r.toString());
    assertTrue(((String) r.get("message")).startsWith("$[0]: "), r.toString());
  }
}
