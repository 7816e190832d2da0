package serbench.harness;

import com.google.flatbuffers.FlexBuffersBuilder;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;

/**
 * What flatbuffers-java's FlexBuffersBuilder (2.0.8, and upstream still) does not expose: it writes
 * no Null value and keeps its keyed unsigned writers private, so a map cannot hold a UInt or a Null
 * through the public API; and its 32-bit UInt sign-extends (a uint32 of 2^31 or more in a 64-bit
 * wide vector or map is written as a negative 64-bit value: 4294967295 reads back as 2^64-1). These
 * handles reach the builder's key writer, value stack and value constructor, so the bytes are the
 * format's standard Null and UInt with the narrowest width, as the C++ builder writes them.
 */
public final class FlexBuffersWriter {
  private FlexBuffersWriter() {}

  private static final int FBT_NULL = 0;
  private static final int FBT_UINT = 2;
  private static final MethodHandle PUT_KEY;
  private static final MethodHandle STACK;
  private static final MethodHandle VALUE;

  static {
    try {
      MethodHandles.Lookup l =
          MethodHandles.privateLookupIn(FlexBuffersBuilder.class, MethodHandles.lookup());
      Class<?> value = Class.forName(FlexBuffersBuilder.class.getName() + "$Value");
      PUT_KEY =
          l.findVirtual(
              FlexBuffersBuilder.class, "putKey", MethodType.methodType(int.class, String.class));
      STACK = l.findGetter(FlexBuffersBuilder.class, "stack", ArrayList.class);
      // Value(int key, int type, int minBitWidth, long iValue)
      VALUE =
          MethodHandles.privateLookupIn(value, MethodHandles.lookup())
              .findConstructor(
                  value,
                  MethodType.methodType(void.class, int.class, int.class, int.class, long.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static void put(FlexBuffersBuilder b, String key, int type, int width, long v) {
    try {
      int k = (int) PUT_KEY.invokeExact(b, key);
      ((ArrayList<Object>) STACK.invokeExact(b)).add(VALUE.invoke(k, type, width, v));
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Writes a container's key before its contents, as the C++ builder does (FlexBuffersBuilder
   * writes it at endMap/endVector; its key pool then finds this one), so bytes match.
   */
  private static void key(FlexBuffersBuilder b, String key) {
    if (key == null) {
      return;
    }
    try {
      int unused = (int) PUT_KEY.invokeExact(b, key);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  /** The format's Null under {@code key} (null inside a vector). */
  public static void putNull(FlexBuffersBuilder b, String key) {
    put(b, key, FBT_NULL, 0, 0);
  }

  /** An unsigned value (all 64 bits of {@code v}) at its narrowest width: 8, 16, 32 or 64. */
  public static void putUInt(FlexBuffersBuilder b, String key, long v) {
    int width =
        Long.compareUnsigned(v, 0xFFL) <= 0
            ? 0
            : Long.compareUnsigned(v, 0xFFFFL) <= 0
                ? 1
                : Long.compareUnsigned(v, 0xFFFFFFFFL) <= 0 ? 2 : 3;
    put(b, key, FBT_UINT, width, v);
  }

  /** {@code b.startMap()} with its key written first (end it with {@code endMap(key, start)}). */
  public static int startMap(FlexBuffersBuilder b, String key) {
    key(b, key);
    return b.startMap();
  }

  /** {@code b.startVector()} with its key written first. */
  public static int startVector(FlexBuffersBuilder b, String key) {
    key(b, key);
    return b.startVector();
  }
}
