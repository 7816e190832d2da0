package serbench.model;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/** S4 analytics document. */
public final class ClickMap implements Serializable {
  private static final long serialVersionUID = 1L;

  public String url;
  public String day;
  public Viewport viewport;
  public Map<String, Click> clicks;

  public ClickMap() {}

  public ClickMap(String url, String day, Viewport viewport, Map<String, Click> clicks) {
    this.url = url;
    this.day = day;
    this.viewport = viewport;
    this.clicks = clicks;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ClickMap)) {
      return false;
    }
    ClickMap c = (ClickMap) o;
    return Objects.equals(url, c.url)
        && Objects.equals(day, c.day)
        && Objects.equals(viewport, c.viewport)
        && Objects.equals(clicks, c.clicks);
  }

  @Override
  public int hashCode() {
    return Objects.hash(url, day, viewport, clicks);
  }
}
