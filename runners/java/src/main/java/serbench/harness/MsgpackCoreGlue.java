package serbench.harness;

import java.io.IOException;
import java.math.BigInteger;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;

/**
 * The plain Java TypeGen writes per built-in message ({@code serbench.model.<Id>MsgpackCore})
 * between its typed model and msgpack-core's positional layout: a record the array of its fields in
 * order (a record of one field that field's bare value), an enum its ordinal, a timestamp int64
 * epoch ms, lists arrays, maps maps.
 */
public interface MsgpackCoreGlue {
  /** One message, appended to the packer. */
  void write(MessagePacker p, Object message) throws IOException;

  /** One message of the model, read from the unpacker. */
  Object read(MessageUnpacker u) throws IOException;

  /** Refuses an array header of another length than the record's field count. */
  static void expect(int got, int want) throws IOException {
    if (got != want) {
      throw new IOException("array of " + got + ", expected " + want);
    }
  }

  /** A uint64 held in a long: above Long.MAX_VALUE msgpack needs the unsigned form. */
  static void packUInt64(MessagePacker p, long v) throws IOException {
    if (v < 0) {
      p.packBigInteger(new BigInteger(Long.toUnsignedString(v)));
    } else {
      p.packLong(v);
    }
  }

  static long unpackUInt64(MessageUnpacker u) throws IOException {
    return u.getNextFormat() == MessageFormat.UINT64
        ? u.unpackBigInteger().longValue()
        : u.unpackLong();
  }
}
