package serbench.harness;

/**
 * A codec whose encoding delimits itself: stream messages are concatenated with no length prefix
 * (protocol section 6).
 */
public interface SelfDelimitingCodec extends Codec {
  /** Appends messages 0..count-1 ({@code items[i % items.length]}) to {@code out}. */
  void encodeStream(Object[] items, int count, Buf out) throws Exception;

  /** Reads {@code count} messages, handing each to {@code consumer}. */
  void decodeStream(byte[] buf, int off, int len, int count, MessageConsumer consumer)
      throws Exception;
}
