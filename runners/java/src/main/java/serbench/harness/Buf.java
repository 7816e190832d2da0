package serbench.harness;

import java.io.OutputStream;
import java.util.Arrays;

/** A growable byte buffer reused across iterations (like a Vec<u8> that is cleared). */
public final class Buf extends OutputStream {
  private byte[] a;
  private int n;

  public Buf(int capacity) {
    a = new byte[Math.max(16, capacity)];
  }

  public Buf() {
    this(4096);
  }

  public void reset() {
    n = 0;
  }

  public int size() {
    return n;
  }

  public byte[] array() {
    return a;
  }

  /** Makes room for {@code extra} more bytes; {@link #array()} may change. */
  public void ensure(int extra) {
    int need = n + extra;
    if (need > a.length) {
      a = Arrays.copyOf(a, Math.max(need, a.length * 2));
    }
  }

  /**
   * Declares that {@code k} bytes were written directly into {@link #array()} at {@link #size()}.
   */
  public void advance(int k) {
    n += k;
  }

  public void setSize(int size) {
    n = size;
  }

  @Override
  public void write(int b) {
    if (n == a.length) {
      ensure(1);
    }
    a[n++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, a, n, len);
    n += len;
  }

  /** Four bytes, big-endian. */
  public void writeInt(int v) {
    ensure(4);
    a[n++] = (byte) (v >>> 24);
    a[n++] = (byte) (v >>> 16);
    a[n++] = (byte) (v >>> 8);
    a[n++] = (byte) v;
  }

  /** Unsigned LEB128 (protobuf varint32). */
  public void writeVarint(int v) {
    ensure(5);
    while ((v & ~0x7F) != 0) {
      a[n++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    a[n++] = (byte) v;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(a, n);
  }
}
