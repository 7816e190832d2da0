package serbench.harness;

import java.util.List;

/**
 * One cell operation's work, shared by every serializer: single messages or framed streams
 * (protocol section 6), with or without a general-purpose codec.
 */
public final class Workload {
  private final Codec codec;
  private final SelfDelimitingCodec selfDelimiting;
  private final Object[] items;
  private final int count;
  private final boolean stream;
  private final Compressor comp;
  private final Buf out = new Buf(1 << 16);
  private final Buf scratch = new Buf(1 << 16);
  private final Buf cbuf = new Buf(1 << 12);

  public Workload(Codec codec, Dataset data, Compressor comp) {
    this(codec, data, comp, false);
  }

  /**
   * @param prefixed frame streams with length prefixes even when the codec delimits itself (to read
   *     another runner's prefixed stream).
   */
  public Workload(Codec codec, Dataset data, Compressor comp, boolean prefixed) {
    this.codec = codec;
    this.selfDelimiting =
        codec instanceof SelfDelimitingCodec && !prefixed ? (SelfDelimitingCodec) codec : null;
    List<Object> list = data.items;
    this.items = list.toArray();
    this.count = data.count;
    this.stream = data.stream;
    this.comp = comp;
  }

  /** Whether streams are concatenated without length prefixes. */
  public boolean selfDelimiting() {
    return selfDelimiting != null;
  }

  /** One iteration of encode (then compress, when this workload has a codec). */
  public Buf encode() throws Exception {
    Buf o = out;
    o.reset();
    if (!stream) {
      if (comp == null) {
        codec.encode(items[0], o);
      } else {
        Buf s = scratch;
        s.reset();
        codec.encode(items[0], s);
        comp.compress(s.array(), 0, s.size(), o);
      }
      return o;
    }
    if (comp == null && selfDelimiting != null) {
      selfDelimiting.encodeStream(items, count, o);
      return o;
    }
    Object[] its = items;
    int j = 0;
    for (int i = 0; i < count; i++) {
      Buf s = scratch;
      s.reset();
      codec.encode(its[j], s);
      if (++j == its.length) {
        j = 0;
      }
      if (comp == null) {
        o.writeVarint(s.size());
        o.write(s.array(), 0, s.size());
      } else {
        Buf c = cbuf;
        c.reset();
        comp.compress(s.array(), 0, s.size(), c);
        o.writeVarint(c.size());
        o.write(c.array(), 0, c.size());
      }
    }
    return o;
  }

  /**
   * The size of one iteration of encode+codec, computed without compressing every stream message:
   * message {@code i} is {@code items[i % items.length]} and each one is encoded and compressed on
   * its own, so the framed size is a sum over the distinct items (each codec here is stateless
   * across messages). For single messages it is the size of the real output.
   */
  public long compressedSize() throws Exception {
    if (!stream || items.length >= count) {
      return encode().size();
    }
    long total = 0;
    for (int j = 0; j < items.length; j++) {
      Buf s = scratch;
      s.reset();
      codec.encode(items[j], s);
      Buf c = cbuf;
      c.reset();
      comp.compress(s.array(), 0, s.size(), c);
      long times = count / items.length + (j < count % items.length ? 1 : 0);
      int n = c.size();
      int prefix = n < (1 << 7) ? 1 : n < (1 << 14) ? 2 : n < (1 << 21) ? 3 : n < (1 << 28) ? 4 : 5;
      total += times * (prefix + n);
    }
    return total;
  }

  /** One iteration of decode (after decompressing, when this workload has a codec). */
  public void decode(byte[] in, int len, MessageConsumer consumer) throws Exception {
    if (!stream) {
      if (comp == null) {
        consumer.accept(0, codec.decode(in, 0, len));
      } else {
        Buf s = scratch;
        s.reset();
        comp.decompress(in, 0, len, s);
        consumer.accept(0, codec.decode(s.array(), 0, s.size()));
      }
      return;
    }
    if (comp == null && selfDelimiting != null) {
      selfDelimiting.decodeStream(in, 0, len, count, consumer);
      return;
    }
    int pos = 0;
    for (int i = 0; i < count; i++) {
      int l = 0;
      int shift = 0;
      int b;
      do {
        if (pos >= len) {
          throw new IllegalStateException("stream truncated at message " + i);
        }
        b = in[pos++];
        l |= (b & 0x7F) << shift;
        shift += 7;
      } while ((b & 0x80) != 0);
      if (l < 0 || pos + l > len) {
        throw new IllegalStateException("bad frame length " + l + " at message " + i);
      }
      Object m;
      if (comp == null) {
        m = codec.decode(in, pos, l);
      } else {
        Buf s = scratch;
        s.reset();
        comp.decompress(in, pos, l, s);
        m = codec.decode(s.array(), 0, s.size());
      }
      pos += l;
      consumer.accept(i, m);
    }
    if (pos != len) {
      throw new IllegalStateException((len - pos) + " bytes left after " + count + " messages");
    }
  }
}
