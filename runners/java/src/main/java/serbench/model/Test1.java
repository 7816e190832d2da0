package serbench.model;

import java.io.Serializable;

/** S2 Test1: two unsigned ints (held in int, values are small). */
public final class Test1 implements Serializable {
  private static final long serialVersionUID = 1L;

  public int a;
  public int b;

  public Test1() {}

  public Test1(int a, int b) {
    this.a = a;
    this.b = b;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Test1 && ((Test1) o).a == a && ((Test1) o).b == b;
  }

  @Override
  public int hashCode() {
    return 31 * a + b;
  }
}
