package serbench.harness;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import serbench.model.BuiltinModels;

/**
 * The built-in datasets: name, framing, and the generated model (serbench.model, from the family's
 * types.json) that gives the Java type of one message and builds it from the canonical JSON.
 */
public enum DatasetKind {
  ANDROID_USERS("android-users", false),
  TEST1("pb-vs-msgpack-test1", true),
  TEST2("pb-vs-msgpack-test2", true),
  TEST3("pb-vs-msgpack-test3", true),
  TEST4("pb-vs-msgpack-test4", true),
  ONE_MB_DICT("one-mb-dict", false),
  CLICK_MAPS("click-maps", true),
  LOG_RECORDS("log-records", false);

  public final String id;
  public final boolean stream;

  /** The Java type of one message (generic for lists and maps). */
  public final Type type;

  DatasetKind(String id, boolean stream) {
    this.id = id;
    this.stream = stream;
    this.type = model().javaType();
  }

  /** The generated model of this dataset's message. */
  public TypedModel model() {
    TypedModel m = BuiltinModels.forDataset(id);
    if (m == null) {
      throw new IllegalStateException("no generated model for " + id + ": rebuild the runner");
    }
    return m;
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
}
