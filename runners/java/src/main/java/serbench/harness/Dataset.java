package serbench.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A canonical dataset file loaded into native objects. */
public final class Dataset {
  public final DatasetKind kind;
  public final int count;
  public final List<Object> items;

  private Dataset(DatasetKind kind, int count, List<Object> items) {
    this.kind = kind;
    this.count = count;
    this.items = Collections.unmodifiableList(items);
  }

  /** Message {@code i} of the dataset. */
  public Object message(int i) {
    return items.get(i % items.size());
  }

  /** Loads and validates a canonical file; throws IllegalArgumentException for bad data. */
  public static Dataset load(DatasetKind kind, String path) throws Exception {
    JsonNode root = new ObjectMapper().readTree(new File(path));
    if (root == null || !"serbench-dataset".equals(root.path("format").asText())) {
      throw new IllegalArgumentException(path + " is not a serbench dataset file");
    }
    if (!kind.id.equals(root.path("name").asText())) {
      throw new IllegalArgumentException(
          path + " holds dataset '" + root.path("name").asText() + "', not '" + kind.id + "'");
    }
    String framing = root.path("framing").asText();
    if (!framing.equals(kind.stream ? "stream" : "single")) {
      throw new IllegalArgumentException(path + ": unexpected framing " + framing);
    }
    int count = root.path("count").asInt(-1);
    JsonNode items = root.path("items");
    if (count < 1 || !items.isArray() || items.size() < 1) {
      throw new IllegalArgumentException(path + ": missing count or items");
    }
    List<Object> list = new ArrayList<>(items.size());
    for (JsonNode item : items) {
      list.add(kind.fromJson(item));
    }
    return new Dataset(kind, count, list);
  }
}
