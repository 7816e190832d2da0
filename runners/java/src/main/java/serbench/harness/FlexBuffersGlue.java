package serbench.harness;

import com.google.flatbuffers.FlexBuffers;
import com.google.flatbuffers.FlexBuffersBuilder;

/**
 * The plain Java TypeGen writes per built-in message ({@code serbench.model.<Id>FlexBuffers})
 * between its typed model and the flexbuffers row's map layout: a record a map keyed by field name,
 * an enum its symbol, a timestamp int64 epoch ms, uint32/uint64 UInt (written through {@link
 * FlexBuffersWriter}).
 */
public interface FlexBuffersGlue {
  /** One message into {@code b} (cleared, not finished). */
  void write(FlexBuffersBuilder b, Object message);

  /** One message of the model, fully decoded from the buffer's root. */
  Object read(FlexBuffers.Reference root);
}
