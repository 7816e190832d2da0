package serbench.model;

import java.io.Serializable;

/** S2 Test2: two signed int32. */
public final class Test2 implements Serializable {
  private static final long serialVersionUID = 1L;

  public int a;
  public int b;

  public Test2() {}

  public Test2(int a, int b) {
    this.a = a;
    this.b = b;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Test2 && ((Test2) o).a == a && ((Test2) o).b == b;
  }

  @Override
  public int hashCode() {
    return 31 * a + b;
  }
}
