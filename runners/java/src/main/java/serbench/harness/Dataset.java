package serbench.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A canonical dataset file loaded into native objects: the generated model classes for a built-in
 * dataset, the typed generic value tree ({@link UserTypes}) for a user dataset (its model classes
 * for a typed serializer, {@link #forSerializer}).
 */
public final class Dataset {
  public final String name;

  /** The built-in dataset, or null for a user dataset. */
  public final DatasetKind kind;

  /** The user dataset's types, or null for a built-in dataset. */
  public final UserTypes types;

  /**
   * For a user dataset given to a typed serializer: the generated model its items are instances of
   * (the check compares their trees); null when the items are the typed generic tree.
   */
  public final TypedModel model;

  public final boolean stream;
  public final int count;
  public final List<Object> items;

  private Dataset(
      String name,
      DatasetKind kind,
      UserTypes types,
      TypedModel model,
      boolean stream,
      int count,
      List<Object> items) {
    this.name = name;
    this.kind = kind;
    this.types = types;
    this.model = model;
    this.stream = stream;
    this.count = count;
    this.items = Collections.unmodifiableList(items);
  }

  /**
   * The dataset as serializer {@code s} takes it: a user dataset's items as the classes of its
   * generated model when {@code s} is typed (NotApplicableException when the runner was built
   * without that model), else this dataset.
   */
  public Dataset forSerializer(Serializer s, String typesPath) throws Exception {
    if (kind != null || !s.typedUser()) {
      return this;
    }
    TypedModel m = TypedModels.user(typesPath);
    if (m == null) {
      throw new NotApplicableException(
          "typed model not built for this dataset's types: run `serbench build -r java`");
    }
    List<Object> typed = new ArrayList<>(items.size());
    for (Object item : items) {
      typed.add(m.fromTree(item));
    }
    return new Dataset(name, null, types, m, stream, count, typed);
  }

  /** What the check compares: the typed generic tree of a decoded message. */
  public Object checkable(Object decoded) {
    return model == null ? decoded : model.toTree(decoded);
  }

  /** Message {@code i} of the dataset. */
  public Object message(int i) {
    return items.get(i % items.size());
  }

  private static JsonNode envelope(String path) throws Exception {
    JsonNode root = new ObjectMapper().readTree(new File(path));
    if (root == null || !"serbench-dataset".equals(root.path("format").asText())) {
      throw new IllegalArgumentException(path + " is not a serbench dataset file");
    }
    int count = root.path("count").asInt(-1);
    JsonNode items = root.path("items");
    if (count < 1 || !items.isArray() || items.size() < 1) {
      throw new IllegalArgumentException(path + ": missing count or items");
    }
    String framing = root.path("framing").asText();
    if (!framing.equals("stream") && !framing.equals("single")) {
      throw new IllegalArgumentException(path + ": unexpected framing '" + framing + "'");
    }
    return root;
  }

  /** Loads and validates a canonical file; throws IllegalArgumentException for bad data. */
  public static Dataset load(DatasetKind kind, String path) throws Exception {
    JsonNode root = envelope(path);
    if (!kind.id.equals(root.path("name").asText())) {
      throw new IllegalArgumentException(
          path + " holds dataset '" + root.path("name").asText() + "', not '" + kind.id + "'");
    }
    // The framing is the canonical file's (datasets/README.md), checked by envelope().
    boolean stream = root.path("framing").asText().equals("stream");
    TypedModel model = kind.model();
    UserTypes types = UserTypes.of(model.typesJson(), model.message());
    List<Object> list = new ArrayList<>();
    for (JsonNode item : root.path("items")) {
      list.add(model.fromTree(types.fromJson(item, "$")));
    }
    return new Dataset(kind.id, kind, null, null, stream, root.path("count").asInt(), list);
  }

  /** Loads a user dataset's canonical file through its types (protocol section 7). */
  public static Dataset loadUser(String name, String path, UserTypes types) throws Exception {
    JsonNode root = envelope(path);
    List<Object> list = new ArrayList<>();
    int i = 0;
    for (JsonNode item : root.path("items")) {
      list.add(
          types.fromJson(
              item, root.path("framing").asText().equals("stream") ? "$[" + i + "]" : "$"));
      i++;
    }
    return new Dataset(
        name,
        null,
        types,
        null,
        root.path("framing").asText().equals("stream"),
        root.path("count").asInt(),
        list);
  }
}
