package serbench.harness;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Deep equality of native objects that names the first difference as a path. */
public final class Diff {
  private Diff() {}

  /**
   * Null when equal, else e.g. {@code [17].age: 31 != 13} (expected first; the caller prefixes
   * {@code $}). Doubles and floats compare as {@code Double.equals} does: NaN equals NaN, -0.0
   * differs from 0.0.
   */
  public static String first(Object expected, Object actual) {
    return first(expected, actual, "");
  }

  public static String first(Object e, Object a, String path) {
    if (e == a) {
      return null;
    }
    if (e == null || a == null) {
      return at(path) + show(e) + " != " + show(a);
    }
    if (e instanceof byte[]) {
      if (!(a instanceof byte[]) || !java.util.Arrays.equals((byte[]) e, (byte[]) a)) {
        return at(path) + show(e) + " != " + show(a);
      }
      return null;
    }
    if (e instanceof List) {
      if (!(a instanceof List)) {
        return at(path) + "list != " + a.getClass().getSimpleName();
      }
      List<?> le = (List<?>) e;
      List<?> la = (List<?>) a;
      int n = Math.min(le.size(), la.size());
      for (int i = 0; i < n; i++) {
        String d = first(le.get(i), la.get(i), path + "[" + i + "]");
        if (d != null) {
          return d;
        }
      }
      if (le.size() != la.size()) {
        return at(path) + "length " + le.size() + " != " + la.size();
      }
      return null;
    }
    if (e instanceof Map) {
      if (!(a instanceof Map)) {
        return at(path) + "map != " + a.getClass().getSimpleName();
      }
      Map<?, ?> me = (Map<?, ?>) e;
      Map<?, ?> ma = (Map<?, ?>) a;
      for (Map.Entry<?, ?> en : me.entrySet()) {
        String p = path + "[" + show(en.getKey()) + "]";
        if (!ma.containsKey(en.getKey())) {
          return at(p) + "missing";
        }
        String d = first(en.getValue(), ma.get(en.getKey()), p);
        if (d != null) {
          return d;
        }
      }
      if (me.size() != ma.size()) {
        List<Object> extra = new ArrayList<>();
        for (Iterator<?> it = ma.keySet().iterator(); it.hasNext() && extra.size() < 3; ) {
          Object k = it.next();
          if (!me.containsKey(k)) {
            extra.add(k);
          }
        }
        return at(path) + "size " + me.size() + " != " + ma.size() + ", extra keys " + extra;
      }
      return null;
    }
    if (e.getClass().getPackageName().equals("serbench.model") && !e.getClass().isEnum()) {
      if (e.getClass() != a.getClass()) {
        return at(path) + e.getClass().getSimpleName() + " != " + a.getClass().getSimpleName();
      }
      for (Field f : e.getClass().getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        try {
          String d = first(f.get(e), f.get(a), path + "." + f.getName());
          if (d != null) {
            return d;
          }
        } catch (IllegalAccessException x) {
          throw new IllegalStateException(x);
        }
      }
      return null;
    }
    if (!Objects.equals(e, a)) {
      return at(path) + show(e) + " != " + show(a);
    }
    return null;
  }

  private static String at(String path) {
    return path + ": ";
  }

  private static String show(Object o) {
    if (o == null) {
      return "null";
    }
    if (o instanceof String) {
      String s = (String) o;
      return s.length() > 40
          ? "'" + s.substring(0, 37) + "...' (" + s.length() + " chars)"
          : "'" + s + "'";
    }
    if (o instanceof byte[]) {
      return "bytes[" + ((byte[]) o).length + "]";
    }
    if (o instanceof List || o instanceof Map) {
      return o.getClass().getSimpleName();
    }
    return String.valueOf(o);
  }
}
