package serbench.model;

import java.io.Serializable;
import java.util.Objects;

/** S5 key/value pair. */
public final class Pair implements Serializable {
  private static final long serialVersionUID = 1L;

  public String key;
  public String value;

  public Pair() {}

  public Pair(String key, String value) {
    this.key = key;
    this.value = value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Pair
        && Objects.equals(((Pair) o).key, key)
        && Objects.equals(((Pair) o).value, value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, value);
  }
}
