package serbench.harness;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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
 * The built-in datasets: name, framing, the Java type of one message and how to build it from the
 * canonical JSON (datasets/README.md).
 */
public enum DatasetKind {
  ANDROID_USERS(
      "android-users",
      false,
      new TypeReference<ArrayList<SampleData>>() {}.getType(),
      DatasetKind::sampleList),
  TEST1("pb-vs-msgpack-test1", true, Test1.class, DatasetKind::test1),
  TEST2("pb-vs-msgpack-test2", true, Test2.class, DatasetKind::test2),
  TEST3("pb-vs-msgpack-test3", true, Test3.class, DatasetKind::test3),
  TEST4("pb-vs-msgpack-test4", true, Test4.class, DatasetKind::test4),
  ONE_MB_DICT(
      "one-mb-dict",
      false,
      new TypeReference<HashMap<String, String>>() {}.getType(),
      DatasetKind::stringMap),
  CLICK_MAPS("click-maps", true, ClickMap.class, DatasetKind::clickMap),
  LOG_RECORDS(
      "log-records",
      false,
      new TypeReference<ArrayList<TestClass>>() {}.getType(),
      DatasetKind::testClassList);

  public final String id;
  public final boolean stream;

  /** The Java type of one message (generic for lists and maps). */
  public final Type type;

  private final Function<JsonNode, Object> fromJson;

  DatasetKind(String id, boolean stream, Type type, Function<JsonNode, Object> fromJson) {
    this.id = id;
    this.stream = stream;
    this.type = type;
    this.fromJson = fromJson;
  }

  public Object fromJson(JsonNode item) {
    return fromJson.apply(item);
  }

  public static DatasetKind byId(String id) {
    for (DatasetKind k : values()) {
      if (k.id.equals(id)) {
        return k;
      }
    }
    return null;
  }

  public static List<String> ids() {
    List<String> ids = new ArrayList<>();
    for (DatasetKind k : values()) {
      ids.add(k.id);
    }
    return ids;
  }

  private static Object sampleList(JsonNode n) {
    ArrayList<SampleData> list = new ArrayList<>(n.size());
    for (JsonNode r : n) {
      list.add(
          new SampleData(
              r.get("id").asLong(),
              r.get("name").asText(),
              r.get("age").asInt(),
              Gender.values()[r.get("gender").asInt()],
              r.get("isMegane").asBoolean()));
    }
    return list;
  }

  private static Test1 t1(JsonNode n) {
    return new Test1(n.get("a").asInt(), n.get("b").asInt());
  }

  private static Test2 t2(JsonNode n) {
    return new Test2(n.get("a").asInt(), n.get("b").asInt());
  }

  private static Test3 t3(JsonNode n) {
    return new Test3(n.get("s").asText());
  }

  private static Object test1(JsonNode n) {
    return t1(n);
  }

  private static Object test2(JsonNode n) {
    return t2(n);
  }

  private static Object test3(JsonNode n) {
    return t3(n);
  }

  private static Object test4(JsonNode n) {
    return new Test4(t1(n.get("t1")), t2(n.get("t2")), t3(n.get("t3")));
  }

  private static Object stringMap(JsonNode n) {
    HashMap<String, String> m = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      m.put(e.getKey(), e.getValue().asText());
    }
    return m;
  }

  private static Object clickMap(JsonNode n) {
    JsonNode vp = n.get("viewport");
    HashMap<String, Click> clicks = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.get("clicks").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode c = e.getValue();
      clicks.put(
          e.getKey(),
          new Click(
              c.get("x").asInt(),
              c.get("y").asInt(),
              c.get("count").asInt(),
              c.get("lastClick").asLong(),
              c.get("selector").asText()));
    }
    return new ClickMap(
        n.get("url").asText(),
        n.get("day").asText(),
        new Viewport(vp.get("width").asInt(), vp.get("height").asInt()),
        clicks);
  }

  private static Object testClassList(JsonNode n) {
    ArrayList<TestClass> list = new ArrayList<>(n.size());
    for (JsonNode r : n) {
      ArrayList<Pair> pairs = new ArrayList<>();
      for (JsonNode p : r.get("MyProperty5")) {
        pairs.add(new Pair(p.get("key").asText(), p.get("value").asText()));
      }
      list.add(
          new TestClass(
              r.get("MyProperty1").asText(),
              r.get("MyProperty2").asInt(),
              Instant.ofEpochMilli(r.get("MyProperty3").asLong()),
              r.get("MyProperty4").asBoolean(),
              pairs));
    }
    return list;
  }
}
