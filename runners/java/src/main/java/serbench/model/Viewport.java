package serbench.model;

import java.io.Serializable;

/** S4 viewport. */
public final class Viewport implements Serializable {
  private static final long serialVersionUID = 1L;

  public int width;
  public int height;

  public Viewport() {}

  public Viewport(int width, int height) {
    this.width = width;
    this.height = height;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Viewport
        && ((Viewport) o).width == width
        && ((Viewport) o).height == height;
  }

  @Override
  public int hashCode() {
    return 31 * width + height;
  }
}
