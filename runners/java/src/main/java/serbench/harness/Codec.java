package serbench.harness;

import java.util.List;

/** One serializer bound to one dataset: encodes and decodes one message. */
public interface Codec {
  /** Appends the encoding of {@code message} to {@code out}. */
  void encode(Object message, Buf out) throws Exception;

  /** Decodes one message into the native objects (serbench.model). */
  Object decode(byte[] buf, int off, int len) throws Exception;

  /** Called once, outside timing, with the dataset's distinct messages. */
  default void prepare(List<Object> items) throws Exception {}
}
