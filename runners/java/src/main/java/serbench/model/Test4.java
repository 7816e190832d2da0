package serbench.model;

import java.io.Serializable;
import java.util.Objects;

/** S2 Test4: a Test1, a Test2 and a Test3. */
public final class Test4 implements Serializable {
  private static final long serialVersionUID = 1L;

  public Test1 t1;
  public Test2 t2;
  public Test3 t3;

  public Test4() {}

  public Test4(Test1 t1, Test2 t2, Test3 t3) {
    this.t1 = t1;
    this.t2 = t2;
    this.t3 = t3;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Test4)) {
      return false;
    }
    Test4 t = (Test4) o;
    return Objects.equals(t1, t.t1) && Objects.equals(t2, t.t2) && Objects.equals(t3, t.t3);
  }

  @Override
  public int hashCode() {
    return Objects.hash(t1, t2, t3);
  }
}
