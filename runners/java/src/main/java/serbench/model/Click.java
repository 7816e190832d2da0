package serbench.model;

import java.io.Serializable;
import java.util.Objects;

/** S4 click record. */
public final class Click implements Serializable {
  private static final long serialVersionUID = 1L;

  public int x;
  public int y;
  public int count;
  public long lastClick;
  public String selector;

  public Click() {}

  public Click(int x, int y, int count, long lastClick, String selector) {
    this.x = x;
    this.y = y;
    this.count = count;
    this.lastClick = lastClick;
    this.selector = selector;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Click)) {
      return false;
    }
    Click c = (Click) o;
    return x == c.x
        && y == c.y
        && count == c.count
        && lastClick == c.lastClick
        && Objects.equals(selector, c.selector);
  }

  @Override
  public int hashCode() {
    return Objects.hash(x, y, count, lastClick, selector);
  }
}
