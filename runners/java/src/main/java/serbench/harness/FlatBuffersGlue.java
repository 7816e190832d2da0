package serbench.harness;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;

/**
 * The plain Java TypeGen writes per user dataset between its typed model and the classes flatc
 * generates from its .fbs ({@code serbench.typed.t<sha>.SerbenchFlatBuffers}), and per built-in
 * message ({@code serbench.model.<Id>FlatBuffers}): flatbuffers-java has no reflection or dynamic
 * API, so the conversion is generated with the model.
 */
public interface FlatBuffersGlue {
  /** Why flatc's classes cannot carry the dataset (then there is no conversion), or null. */
  String notApplicable();

  /** The root table of one message, built into {@code b} (not finished). */
  int build(FlatBufferBuilder b, Object message);

  /** One message of the model, fully decoded from a finished buffer. */
  Object read(ByteBuffer bb);
}
