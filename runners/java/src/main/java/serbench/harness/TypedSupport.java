package serbench.harness;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The container and uint64 conversions the generated models (TypedModel) call. */
public final class TypedSupport {
  private TypedSupport() {}

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  public static <T> List<T> list(Object x, Function<Object, T> f) {
    List<?> in = (List<?>) x;
    ArrayList<T> out = new ArrayList<>(in.size());
    for (Object v : in) {
      out.add(f.apply(v));
    }
    return out;
  }

  public static <T> Map<String, T> map(Object x, Function<Object, T> f) {
    Map<?, ?> in = (Map<?, ?>) x;
    LinkedHashMap<String, T> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : in.entrySet()) {
      out.put((String) e.getKey(), f.apply(e.getValue()));
    }
    return out;
  }

  public static <T> T opt(Object x, Function<Object, T> f) {
    return x == null ? null : f.apply(x);
  }

  /** A uint64 tree value (Long, or BigInteger above 2^63-1) as the long of the same bits. */
  public static long u64(Object x) {
    return ((Number) x).longValue();
  }

  public static <T> ArrayList<Object> listTree(List<T> in, Function<T, Object> f) {
    ArrayList<Object> out = new ArrayList<>(in.size());
    for (T v : in) {
      out.add(f.apply(v));
    }
    return out;
  }

  public static <T> LinkedHashMap<String, Object> mapTree(
      Map<String, T> in, Function<T, Object> f) {
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, T> e : in.entrySet()) {
      out.put(e.getKey(), f.apply(e.getValue()));
    }
    return out;
  }

  public static <T> Object optTree(T x, Function<T, Object> f) {
    return x == null ? null : f.apply(x);
  }

  /**
   * An {@code any} value as the tree holds it: integers as Long (BigInteger beyond 64 bits), other
   * numbers as Double, maps and lists copied; a library may read back Integer or BigDecimal.
   */
  public static Object anyTree(Object v) {
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger && ((BigInteger) v).bitLength() < 64) {
      return ((BigInteger) v).longValue();
    }
    if (v instanceof Float || v instanceof java.math.BigDecimal) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof List) {
      return listTree((List<?>) v, TypedSupport::anyTree);
    }
    if (v instanceof Map) {
      LinkedHashMap<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        out.put(String.valueOf(e.getKey()), anyTree(e.getValue()));
      }
      return out;
    }
    return v;
  }

  /** The long of a uint64 as its tree value: negative bits are the values above 2^63-1. */
  public static Object u64Tree(long v) {
    return v >= 0 ? (Object) v : BigInteger.valueOf(v).add(TWO_64);
  }
}
