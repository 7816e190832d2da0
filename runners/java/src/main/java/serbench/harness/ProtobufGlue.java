package serbench.harness;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;

/**
 * The plain Java TypeGen writes, after protoc, per user dataset between its typed model and
 * protoc's classes for its .proto ({@code serbench.typed.t<sha>.SerbenchProtobuf}): the {@code
 * protobuf} row's conversion without protobuf's reflection API.
 */
public interface ProtobufGlue {
  /** protoc's message of one model message. */
  MessageLite toProto(Object message);

  /** One model message parsed from protobuf bytes. */
  Object fromProto(byte[] buf, int off, int len) throws InvalidProtocolBufferException;
}
