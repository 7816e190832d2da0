package serbench.model;

import java.io.Serializable;
import java.util.Objects;

/** S1 android-users record. */
public final class SampleData implements Serializable {
  private static final long serialVersionUID = 1L;

  public long id;
  public String name;
  public int age;
  public Gender gender;
  public boolean isMegane;

  public SampleData() {}

  public SampleData(long id, String name, int age, Gender gender, boolean isMegane) {
    this.id = id;
    this.name = name;
    this.age = age;
    this.gender = gender;
    this.isMegane = isMegane;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SampleData)) {
      return false;
    }
    SampleData s = (SampleData) o;
    return id == s.id
        && age == s.age
        && isMegane == s.isMegane
        && gender == s.gender
        && Objects.equals(name, s.name);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, name, age, gender, isMegane);
  }
}
