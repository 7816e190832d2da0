package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import serbench.harness.Serializer;

/**
 * {@code serve} in-process on the hand-made user datasets of src/test/resources/user (protocol
 * section 7): every serializer that takes user datasets round-trips them, or says why not.
 */
class ServeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path USER = Path.of("src/test/resources/user").toAbsolutePath();
  private static final String DESCRIPTORS =
      Path.of("target/test-descriptors/user.pb").toAbsolutePath().toString();

  private static List<JsonNode> serve(List<Object> commands) throws Exception {
    StringBuilder in = new StringBuilder();
    for (Object c : commands) {
      in.append(c instanceof String ? (String) c : JSON.writeValueAsString(c)).append('\n');
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new Server(new PrintStream(out, true, StandardCharsets.UTF_8))
        .serve(new ByteArrayInputStream(in.toString().getBytes(StandardCharsets.UTF_8)));
    List<JsonNode> replies = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      replies.add(JSON.readTree(line));
    }
    assertEquals(commands.size(), replies.size());
    return replies;
  }

  private static Map<String, Object> user(String name, Map<String, Object> schemas) {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("name", name);
    d.put("kind", "user");
    d.put("data", USER.resolve(name + ".json").toString());
    d.put("types", USER.resolve(name + ".types.json").toString());
    d.put("schemas", schemas);
    return d;
  }

  /**
   * The fixture's own .proto (the orchestrator's, compiled by protoc with its glue at build time)
   * and, for protobuf-dynamic, a descriptor set of the same messages.
   */
  private static Map<String, Object> proto(String name, String message) {
    return Map.of(
        "path",
        USER.resolve(name + ".proto").toString(),
        "descriptor_set",
        DESCRIPTORS,
        "message",
        message);
  }

  private static Map<String, Object> thrift(String name, String root) {
    return Map.of("path", USER.resolve(name + ".thrift").toString(), "root", root);
  }

  /** The hand-made .fbs beside a fixture (the orchestrator's, compiled by flatc at build time). */
  private static Map<String, Object> fbs(String name, String root) {
    return Map.of("path", USER.resolve(name + ".fbs").toString(), "root", root);
  }

  private static Map<String, Object> prepare(String cell, String ser, Map<String, Object> ds) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("cmd", "prepare");
    c.put("cell", cell);
    c.put("serializer", ser);
    c.put("dataset", ds);
    c.put("operations", List.of("encode", "decode", "zstd+decode"));
    return c;
  }

  private static Map<String, Object> sample(String cell, String op) {
    return Map.of("cmd", "sample", "cell", cell, "operation", op, "iterations", 2, "samples", 3);
  }

  /** Status per serializer and dataset, e.g. "jackson-msgpack/misc" -> "not_applicable". */
  private static Map<String, JsonNode> prepareAll(Map<String, Map<String, Object>> sets)
      throws Exception {
    List<Object> cmds = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (Serializer s : Registry.ALL) {
      for (Map.Entry<String, Map<String, Object>> e : sets.entrySet()) {
        String key = s.name() + "/" + e.getKey();
        keys.add(key);
        cmds.add(prepare(key, s.name(), e.getValue()));
        cmds.add(sample(key, "decode"));
      }
    }
    List<JsonNode> replies = serve(cmds);
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      JsonNode p = replies.get(2 * i);
      JsonNode s = replies.get(2 * i + 1);
      if (p.get("status").asText().equals("ok")) {
        assertEquals("samples", s.get("event").asText(), keys.get(i) + ": " + s);
        assertEquals(3, s.get("wall_ns").size());
      } else {
        assertEquals("unknown_cell", s.get("code").asText(), keys.get(i));
      }
      out.put(keys.get(i), p);
    }
    return out;
  }

  @Test
  void userDatasetsRoundTripOrSayWhyNot() throws Exception {
    Map<String, Map<String, Object>> sets = new LinkedHashMap<>();
    sets.put(
        "events",
        user(
            "events",
            Map.of(
                "proto",
                proto("events", "Event"),
                "thrift",
                thrift("events", "Event"),
                "avsc",
                Map.of("path", USER + "/events.avsc"),
                "fbs",
                fbs("events", "Event"))));
    sets.put(
        "scores",
        user(
            "scores",
            Map.of(
                "proto",
                proto("scores", "Root"),
                "thrift",
                thrift("scores", "Root"),
                "avsc",
                Map.of("path", USER + "/scores.avsc"),
                "fbs",
                fbs("scores", "Root"))));
    sets.put(
        "edge",
        user(
            "edge",
            Map.of(
                "proto",
                proto("edge", "Edge"),
                "thrift",
                Map.of("unavailable", THRIFT_EDGE),
                "avsc",
                Map.of("path", USER + "/edge.avsc"),
                "fbs",
                fbs("edge", "Edge"))));
    sets.put(
        "misc",
        user(
            "misc",
            Map.of(
                "proto", Map.of("unavailable", "protobuf: $.huge is a bigint"),
                "avsc", Map.of("unavailable", "avro: $.big is uint64"),
                "fbs", Map.of("unavailable", FBS_MISC),
                "thrift", Map.of("unavailable", "thrift: $.big is uint64"))));
    Map<String, JsonNode> got = prepareAll(sets);
    List<String> notApplicable =
        List.of(
            "handwritten/misc",
            "protobuf/misc",
            "msgpack-core/misc",
            "jackson-xml/",
            "thrift/edge",
            "thrift/misc",
            "flatbuffers/misc",
            "jackson-msgpack/misc",
            "jackson-msgpack-dynamic/misc",
            "bson/misc",
            "bson-dynamic/misc",
            "avro/misc",
            "protobuf-dynamic/misc",
            "flexbuffers/misc",
            // the seeds' library versions: Kryo 3 on the generated classes, without Instant
            "kryo@3.0.3/events",
            "kryo@3.0.3/misc",
            "kryo-unregistered@3.0.3/events",
            "kryo-unregistered@3.0.3/misc",
            "kryo-deflate@3.0.3/events",
            "kryo-deflate@3.0.3/misc",
            "msgpack-core@",
            "protobuf@");
    for (Map.Entry<String, JsonNode> e : got.entrySet()) {
      String key = e.getKey();
      JsonNode r = e.getValue();
      boolean na = notApplicable.stream().anyMatch(key::startsWith);
      assertEquals(na ? "not_applicable" : "ok", r.get("status").asText(), key + ": " + r);
      if (na) {
        assertTrue(r.get("error").get("message").asText().length() > 10, key);
      }
    }
    assertEquals(
        "msgpack: -170141183460469231731687303715884105728 at $[1]['huge'] is outside MessagePack's"
            + " integers (int64 / uint64)",
        got.get("jackson-msgpack/misc").get("error").get("message").asText());
    assertEquals(
        "flexbuffers: 5 (bigint: FlexBuffers integers are 64-bit) at $[0].huge",
        got.get("flexbuffers/misc").get("error").get("message").asText());
    assertEquals(
        "msgpack-core: $.huge is bigint: the generated positional code needs a declared type;"
            + " give it one in the types file and add the dataset again with --types",
        got.get("msgpack-core/misc").get("error").get("message").asText());
    assertEquals(FBS_MISC, got.get("flatbuffers/misc").get("error").get("message").asText());
    assertEquals(THRIFT_EDGE, got.get("thrift/edge").get("error").get("message").asText());
    assertEquals(
        "handwritten: $.anything is any (JSON of any shape): a field-by-field layout needs its"
            + " type; give it one in the types file and add the dataset again with --types",
        got.get("handwritten/misc").get("error").get("message").asText());
    // the same protobuf bytes through protoc's classes as through DynamicMessage
    for (String ds : List.of("events", "scores", "edge")) {
      assertEquals(
          got.get("protobuf-dynamic/" + ds).get("sizes").get("encoded").asInt(),
          got.get("protobuf/" + ds).get("sizes").get("encoded").asInt(),
          ds);
    }
  }

  private static final String THRIFT_EDGE =
      "thrift: $.none[*] is a list or map whose values are all null";

  /**
   * protobuf and thrift on user data go through the glue TypeGen generates after protoc and thrift
   * (not the reflective fallback): scores, five doubles in message / struct Root, is 42 bytes in
   * protobuf (tag, length, 40 packed) and 49 in thrift's binary protocol (field header 3, list
   * header 5, 40, stop 1).
   */
  @Test
  void protobufAndThriftUseTheGeneratedGlue() throws Exception {
    String pkg =
        serbench.harness.TypedModels.user(USER.resolve("scores.types.json").toString())
            .getClass()
            .getPackageName();
    Class.forName(pkg + ".SerbenchProtobuf");
    Class.forName(pkg + ".SerbenchThrift");
    Map<String, Object> ds =
        user(
            "scores", Map.of("proto", proto("scores", "Root"), "thrift", thrift("scores", "Root")));
    List<JsonNode> r = serve(List.of(prepare("p", "protobuf", ds), prepare("t", "thrift", ds)));
    assertEquals("ok", r.get(0).get("status").asText(), r.get(0).toString());
    assertEquals(42, r.get(0).get("sizes").get("encoded").asInt());
    assertEquals("ok", r.get(1).get("status").asText(), r.get(1).toString());
    assertEquals(49, r.get(1).get("sizes").get("encoded").asInt());
  }

  private static final String FBS_MISC =
      "flatbuffers: $.huge holds integers beyond 64 bits (type bigint)";

  /**
   * flatbuffers on user data goes through the glue TypeGen generates beside the fixture's model:
   * scores is one message, a list of five doubles wrapped in table Root (-0.0, Infinity and
   * 2.5e-300 among them): 4 (root offset) + 2 (padding) + 6 (vtable: its size, the table's, one
   * slot) + 8 (the table: its vtable offset, the vector's offset) + 4 (length) + 40 (the doubles,
   * 8-aligned) = 64 bytes; decode gives back every double, bit for bit.
   */
  @Test
  void flatBuffersRoundTripsAUserListWithExactSize() throws Exception {
    Map<String, Object> ds = user("scores", Map.of("fbs", fbs("scores", "Root")));
    JsonNode r = serve(List.of(prepare("s", "flatbuffers", ds))).get(0);
    assertEquals("ok", r.get("status").asText(), r.toString());
    assertEquals(64, r.get("sizes").get("encoded").asInt(), r.toString());
    Map<String, Object> events = user("events", Map.of("fbs", fbs("events", "Event")));
    r = serve(List.of(prepare("e", "flatbuffers", events))).get(0);
    assertEquals("ok", r.get("status").asText(), r.toString());
  }

  /**
   * handwritten on user data is the codec TypeGen generates beside the fixture's model, with exact
   * sizes: scores is a count and five doubles (44); events 126, 59 and 84 bytes a message (nullable
   * fields a presence byte, the enum four bytes, the child record its fields), five of them with a
   * one-byte length prefix each (459); edge 68, 20 and 28 (null fields nothing, an empty
   * list&lt;null&gt; its count) plus prefixes (119); nulls two messages of int32 and a count (18).
   */
  @Test
  void handwrittenRoundTripsUserDatasetsWithExactSizes() throws Exception {
    Map<String, Integer> sizes = Map.of("scores", 44, "events", 459, "edge", 119, "nulls", 18);
    for (Map.Entry<String, Integer> e : sizes.entrySet()) {
      JsonNode r = serve(List.of(prepare("h", "handwritten", user(e.getKey(), Map.of())))).get(0);
      assertEquals("ok", r.get("status").asText(), e.getKey() + ": " + r);
      assertEquals(e.getValue(), r.get("sizes").get("encoded").asInt(), e.getKey());
    }
  }

  /** A list only ever null is a [bool] vector that stays empty: a null element is refused. */
  @Test
  void flatBuffersRefusesANullInAListOfNulls() throws Exception {
    Map<String, Object> ds = user("nulls", Map.of("fbs", fbs("nulls", "Nulls")));
    JsonNode r = serve(List.of(prepare("n", "flatbuffers", ds))).get(0);
    assertEquals("not_applicable", r.get("status").asText(), r.toString());
    assertEquals(
        "flatbuffers: null at $[1].none[0] in a list only ever null (a [bool] vector that stays"
            + " empty: a vector has no null)",
        r.get("error").get("message").asText());
  }

  @Test
  void flexBuffersRefusesAKeyWithNul() throws Exception {
    Path dir = Files.createTempDirectory("serbench");
    Files.writeString(
        dir.resolve("nul.types.json"), "{\"message\": \"map<string,int32>\", \"types\": {}}");
    Files.writeString(
        dir.resolve("nul.json"),
        "{\"format\":\"serbench-dataset\",\"version\":1,\"name\":\"nul\",\"scenario\":\"user\","
            + "\"scale\":\"user\",\"framing\":\"single\",\"count\":1,"
            + "\"items\":[{\"a\":1,\"b\\u0000c\":2}]}");
    Map<String, Object> ds = new LinkedHashMap<>();
    ds.put("name", "nul");
    ds.put("kind", "user");
    ds.put("data", dir.resolve("nul.json").toString());
    ds.put("types", dir.resolve("nul.types.json").toString());
    ds.put("schemas", Map.of());
    JsonNode r = serve(List.of(prepare("n", "flexbuffers", ds))).get(0);
    assertEquals("not_applicable", r.get("status").asText(), r.toString());
    assertEquals(
        "flexbuffers: key with NUL at $[0]['b\u0000c']", r.get("error").get("message").asText());
  }

  @Test
  void aUserDatasetThatComesBackDifferentFailsTheCheck() throws Exception {
    Path dir = Files.createTempDirectory("serbench");
    String text = Files.readString(USER.resolve("events.json"));
    Path tampered = dir.resolve("events.json");
    Files.writeString(tampered, text.replace("\"label\":\"kid\"", "\"label\":\"kit\""));
    Map<String, Object> ds = user("events", Map.of());
    ds.put("check_data", tampered.toString());
    JsonNode r = serve(List.of(prepare("t", "jackson-json", ds))).get(0);
    assertEquals("check_failed", r.get("status").asText());
    assertEquals("$[0]['child']['label']: 'kit' != 'kid'", r.get("check").get("detail").asText());
  }

  /**
   * verify false: encoded once, no check and no codec sizes; tampered check data, which would fail
   * both the round trip and zstd+decode's, fails nothing. A non-boolean verify is refused.
   */
  @Test
  void aPrepareWithoutVerifySkipsTheCheck() throws Exception {
    Path dir = Files.createTempDirectory("serbench");
    String text = Files.readString(USER.resolve("events.json"));
    Path tampered = dir.resolve("events.json");
    Files.writeString(tampered, text.replace("\"label\":\"kid\"", "\"label\":\"kit\""));
    Map<String, Object> full = prepare("v", "jackson-json", user("events", Map.of()));
    Map<String, Object> ds = user("events", Map.of());
    ds.put("check_data", tampered.toString());
    Map<String, Object> light = prepare("w", "jackson-json", ds);
    light.put("verify", false);
    Map<String, Object> bad = prepare("b", "jackson-json", ds);
    bad.put("verify", "no");
    List<JsonNode> r =
        serve(
            List.of(
                full,
                light,
                sample("w", "encode"),
                sample("w", "decode"),
                sample("w", "zstd+decode"),
                bad));
    assertTrue(r.get(0).get("check").get("ok").asBoolean(), r.get(0).toString());
    assertEquals("ok", r.get(1).get("status").asText(), r.get(1).toString());
    assertTrue(r.get(1).get("check").isNull());
    assertEquals(r.get(0).get("messages"), r.get(1).get("messages"));
    assertEquals(
        JSON.createObjectNode().set("encoded", r.get(0).get("sizes").get("encoded")),
        r.get(1).get("sizes"));
    for (int i = 2; i < 5; i++) {
      assertEquals(3, r.get(i).get("wall_ns").size(), r.get(i).toString());
    }
    assertEquals("bad_request", r.get(5).get("code").asText());
  }

  @Test
  void errorsKeepItServing() throws Exception {
    List<JsonNode> r =
        serve(
            List.of(
                "{not json",
                Map.of("cmd", "fly"),
                Map.of(
                    "cmd",
                    "sample",
                    "cell",
                    "x",
                    "operation",
                    "encode",
                    "iterations",
                    1,
                    "samples",
                    1),
                Map.of("cmd", "quit")));
    assertEquals("bad_request", r.get(0).get("code").asText());
    assertEquals("bad_request", r.get(1).get("code").asText());
    assertEquals("unknown_cell", r.get(2).get("code").asText());
    assertEquals("bye", r.get(3).get("event").asText());
  }
}
