package serbench.model;

import java.io.Serializable;
import java.util.Objects;

/** S2 Test3: one 8 KiB string. */
public final class Test3 implements Serializable {
  private static final long serialVersionUID = 1L;

  public String s;

  public Test3() {}

  public Test3(String s) {
    this.s = s;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Test3 && Objects.equals(((Test3) o).s, s);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(s);
  }
}
