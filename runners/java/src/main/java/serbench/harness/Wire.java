package serbench.harness;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@code handwritten} row's layout, which the code TypeGen generates per types file writes and
 * reads field by field: little-endian fixed-width numbers, a bool in one byte, a string or bytes as
 * a u32 length and its bytes (a bigint as its decimal string), a list or map as a u32 count and its
 * elements (a map entry: key, value), an optional as a presence byte and its value, a null as
 * nothing, an enum as its ordinal (four bytes; one byte where the generator declares it).
 */
public final class Wire {
  private Wire() {}

  private static final VarHandle I32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle I64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  public static void u8(Buf o, int v) {
    o.write(v);
  }

  public static void bool(Buf o, boolean v) {
    o.write(v ? 1 : 0);
  }

  public static void i32(Buf o, int v) {
    o.ensure(4);
    I32.set(o.array(), o.size(), v);
    o.advance(4);
  }

  public static void i64(Buf o, long v) {
    o.ensure(8);
    I64.set(o.array(), o.size(), v);
    o.advance(8);
  }

  public static void f32(Buf o, float v) {
    i32(o, Float.floatToRawIntBits(v));
  }

  public static void f64(Buf o, double v) {
    i64(o, Double.doubleToRawLongBits(v));
  }

  public static void bytes(Buf o, byte[] b) {
    i32(o, b.length);
    o.write(b, 0, b.length);
  }

  public static void str(Buf o, String s) {
    bytes(o, s.getBytes(StandardCharsets.UTF_8));
  }

  public static void bigint(Buf o, BigInteger v) {
    str(o, v.toString());
  }

  /** Bytes the reader refuses: too few for a value, bytes after the message, a bad value. */
  public static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  /** Reads one message from {@code len} bytes at {@code off}, all of them ({@link #end}). */
  public static final class Reader {
    private final byte[] a;
    private final int limit;
    private int p;

    public Reader(byte[] a, int off, int len) {
      this.a = a;
      this.p = off;
      this.limit = off + len;
    }

    /** The position of {@code n} more bytes, which it skips. */
    private int take(int n) {
      if (n < 0 || limit - p < n) {
        throw new Malformed(
            "handwritten: truncated: "
                + Integer.toUnsignedString(n)
                + " bytes needed, "
                + (limit - p)
                + " left");
      }
      int at = p;
      p += n;
      return at;
    }

    public int u8() {
      return a[take(1)] & 0xff;
    }

    public boolean bool() {
      return a[take(1)] != 0;
    }

    /** An optional's presence byte. */
    public boolean present() {
      return bool();
    }

    public int i32() {
      return (int) I32.get(a, take(4));
    }

    public long u32() {
      return Integer.toUnsignedLong(i32());
    }

    public long i64() {
      return (long) I64.get(a, take(8));
    }

    public float f32() {
      return Float.intBitsToFloat(i32());
    }

    public double f64() {
      return Double.longBitsToDouble(i64());
    }

    public byte[] bytes() {
      int n = i32();
      int at = take(n);
      return Arrays.copyOfRange(a, at, at + n);
    }

    public String str() {
      int n = i32();
      return new String(a, take(n), n, StandardCharsets.UTF_8);
    }

    public BigInteger bigint() {
      String s = str();
      try {
        return new BigInteger(s);
      } catch (NumberFormatException e) {
        throw new Malformed("handwritten: bigint '" + s + "' is not a decimal integer");
      }
    }

    /** A list's or map's element count. */
    public int count() {
      int n = i32();
      if (n < 0) {
        throw new Malformed("handwritten: count " + Integer.toUnsignedString(n) + " is too large");
      }
      return n;
    }

    /** A capacity for {@code n} elements that the input cannot make larger than its size. */
    public int capacity(int n) {
      return Math.min(n, limit - p);
    }

    /** A map's initial capacity for {@code n} entries, likewise bounded. */
    public int mapCapacity(int n) {
      return (int) Math.min(capacity(n) * 4L / 3 + 1, Integer.MAX_VALUE);
    }

    /** The enum constant of an ordinal read from the input. */
    public <E> E symbol(E[] values, int ordinal) {
      if (ordinal < 0 || ordinal >= values.length) {
        throw new Malformed(
            "handwritten: enum ordinal " + ordinal + " of " + values.length + " symbols");
      }
      return values[ordinal];
    }

    /** Refuses bytes after the message (the message is the whole input). */
    public void end() {
      if (p != limit) {
        throw new Malformed("trailing bytes after the message: " + (limit - p));
      }
    }
  }
}
