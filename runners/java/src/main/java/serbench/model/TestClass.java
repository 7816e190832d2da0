package serbench.model;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** S5 log record. Field names are the canonical ones. */
public final class TestClass implements Serializable {
  private static final long serialVersionUID = 1L;

  public String MyProperty1;
  public int MyProperty2;
  public Instant MyProperty3;
  public boolean MyProperty4;
  public List<Pair> MyProperty5;

  public TestClass() {}

  public TestClass(String p1, int p2, Instant p3, boolean p4, List<Pair> p5) {
    this.MyProperty1 = p1;
    this.MyProperty2 = p2;
    this.MyProperty3 = p3;
    this.MyProperty4 = p4;
    this.MyProperty5 = p5;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TestClass)) {
      return false;
    }
    TestClass t = (TestClass) o;
    return MyProperty2 == t.MyProperty2
        && MyProperty4 == t.MyProperty4
        && Objects.equals(MyProperty1, t.MyProperty1)
        && Objects.equals(MyProperty3, t.MyProperty3)
        && Objects.equals(MyProperty5, t.MyProperty5);
  }

  @Override
  public int hashCode() {
    return Objects.hash(MyProperty1, MyProperty2, MyProperty3, MyProperty4, MyProperty5);
  }
}
