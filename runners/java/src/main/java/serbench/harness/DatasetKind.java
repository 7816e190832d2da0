package serbench.harness;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import serbench.model.BuiltinModels;

/**
 * A built-in dataset: its id and the generated model (serbench.model, from the family's types.json)
 * that gives the Java type of one message and builds it from the canonical JSON. The set is the
 * generated {@link BuiltinModels#IDS}, so a new datasets/&lt;family&gt;/types.json needs no change
 * here; the framing is read from the canonical file.
 */
public final class DatasetKind {
  /**
   * The seeds' datasets, which the hand-written codecs and conversions know (their byte layouts
   * were fixed by the seeds); every other built-in is {@link #OTHER} and goes through the generic
   * paths or is not applicable.
   */
  public enum Seed {
    ANDROID_USERS("android-users"),
    TEST1("pb-vs-msgpack-test1"),
    TEST2("pb-vs-msgpack-test2"),
    TEST3("pb-vs-msgpack-test3"),
    TEST4("pb-vs-msgpack-test4"),
    ONE_MB_DICT("one-mb-dict"),
    CLICK_MAPS("click-maps"),
    LOG_RECORDS("log-records"),
    OTHER(null);

    final String id;

    Seed(String id) {
      this.id = id;
    }

    static Seed of(String id) {
      for (Seed s : values()) {
        if (id.equals(s.id)) {
          return s;
        }
      }
      return OTHER;
    }
  }

  private static final Map<String, DatasetKind> ALL = new LinkedHashMap<>();

  static {
    for (String id : BuiltinModels.IDS) {
      ALL.put(id, new DatasetKind(id));
    }
  }

  public final String id;

  /** Which seed dataset this is, or {@link Seed#OTHER}. */
  public final Seed seed;

  /** The Java type of one message (generic for lists and maps). */
  public final Type type;

  private DatasetKind(String id) {
    this.id = id;
    this.seed = Seed.of(id);
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

  /**
   * The glue {@code TypeGen --glue} generated between this dataset's model and {@code library}'s
   * classes ("Protobuf", "Thrift"), or null when the build has none (TypeGen said why).
   */
  public <T> T glue(Class<T> type, String library) throws ReflectiveOperationException {
    Class<?> c;
    try {
      c = Class.forName(BuiltinModels.GLUE.get(id) + library);
    } catch (ClassNotFoundException e) {
      return null;
    }
    return type.cast(c.getConstructor().newInstance());
  }

  /** The family's folder under datasets/ (and under the generated schemas). */
  public String family() {
    return BuiltinModels.FAMILIES.get(id);
  }

  /** Every built-in dataset, sorted by id. */
  public static List<DatasetKind> values() {
    return new ArrayList<>(ALL.values());
  }

  public static DatasetKind byId(String id) {
    return ALL.get(id);
  }

  /**
   * The built-in models' records and enums in a fixed order, which registration ids follow: the
   * seeds' families ({@code seeds}, in {@link Seed} order, so S1 to S5 keep the ids and bytes they
   * had) or every other family (by id); within a family the classes a message holds come before the
   * message's own.
   */
  public static List<Class<?>> modelClasses(boolean seeds) {
    return modelClasses(k -> (k.seed != Seed.OTHER) == seeds);
  }

  /** {@link #modelClasses(boolean)} of the datasets {@code which} keeps, in the same order. */
  public static List<Class<?>> modelClasses(Predicate<DatasetKind> which) {
    Set<Class<?>> out = new LinkedHashSet<>();
    List<DatasetKind> kinds = new ArrayList<>(ALL.values());
    kinds.sort(Comparator.comparing(k -> k.seed)); // stable: OTHER last, by id
    for (DatasetKind k : kinds) {
      if (which.test(k)) {
        TypedModel m = k.model();
        Map<String, Class<?>> byName = new HashMap<>();
        for (Class<?> c : m.classes()) {
          byName.put(c.getSimpleName(), c);
        }
        try {
          heldFirst(UserTypes.of(m.typesJson(), m.message()).message, byName, out);
        } catch (Exception e) {
          throw new IllegalStateException(k.id + ": " + e.getMessage(), e);
        }
        out.addAll(m.classes()); // any class the message does not reach
      }
    }
    return new ArrayList<>(out);
  }

  private static void heldFirst(UserTypes.Type t, Map<String, Class<?>> byName, Set<Class<?>> out) {
    if (t.kind == UserTypes.Kind.RECORD || t.kind == UserTypes.Kind.ENUM) {
      Class<?> c = byName.remove(t.name); // removed: visited once, even when recursive
      if (c == null) {
        return;
      }
      for (UserTypes.Type f : t.fieldTypes) {
        heldFirst(f, byName, out);
      }
      out.add(c);
    } else if (t.elem != null) {
      heldFirst(t.elem, byName, out);
    }
  }

  public static List<String> ids() {
    return new ArrayList<>(ALL.keySet());
  }

  @Override
  public String toString() {
    return id;
  }
}
