package serbench.harness;

import serbench.seeds.protobuf261.com.google.protobuf.InvalidProtocolBufferException;
import serbench.seeds.protobuf261.com.google.protobuf.MessageLite;

/**
 * {@link ProtobufGlue} for the protobuf@2.6.1 row: TypeGen's glue between a built-in message's
 * typed model and protoc 2.6.1's classes, relocated with their runtime by seeds/pom.xml ({@code
 * serbench.model.<Id>Protobuf2}).
 */
public interface Protobuf2Glue {
  /** protoc 2.6.1's message of one model message. */
  MessageLite toProto(Object message);

  /** One model message parsed from protobuf bytes. */
  Object fromProto(byte[] buf, int off, int len) throws InvalidProtocolBufferException;
}
