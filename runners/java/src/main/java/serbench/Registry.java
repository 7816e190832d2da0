package serbench;

import java.util.ArrayList;
import java.util.List;
import serbench.harness.Serializer;
import serbench.lib.AvroSerializer;
import serbench.lib.FlatBuffersSerializer;
import serbench.lib.FlexBuffersSerializer;
import serbench.lib.ForySerializer;
import serbench.lib.HandwrittenSerializer;
import serbench.lib.JacksonSerializer;
import serbench.lib.JavaSerialization;
import serbench.lib.Kryo3Serializer;
import serbench.lib.KryoSerializer;
import serbench.lib.Msgpack06Serializer;
import serbench.lib.MsgpackCoreSerializer;
import serbench.lib.NoopSerializer;
import serbench.lib.Protobuf2Serializer;
import serbench.lib.ProtobufDynamicSerializer;
import serbench.lib.ProtobufSerializer;
import serbench.lib.ThriftSerializer;

/** Every serializer of the Java runner: one line each. */
public final class Registry {
  private Registry() {}

  public static final List<Serializer> ALL =
      List.of(
          new NoopSerializer(),
          new JavaSerialization(),
          new HandwrittenSerializer(),
          KryoSerializer.registered(),
          KryoSerializer.unregistered(),
          KryoSerializer.deflate(),
          Kryo3Serializer.registered(),
          Kryo3Serializer.unregistered(),
          Kryo3Serializer.deflate(),
          new ForySerializer(),
          new ProtobufSerializer(),
          new ProtobufDynamicSerializer(),
          new Protobuf2Serializer(),
          new MsgpackCoreSerializer(),
          new Msgpack06Serializer(),
          JacksonSerializer.msgpack(),
          JacksonSerializer.msgpack().dynamicRow(),
          JacksonSerializer.json(),
          JacksonSerializer.json().dynamicRow(),
          JacksonSerializer.cbor(),
          JacksonSerializer.cbor().dynamicRow(),
          JacksonSerializer.xml(),
          JacksonSerializer.bson(),
          JacksonSerializer.bson().dynamicRow(),
          new AvroSerializer(),
          new ThriftSerializer(),
          new FlatBuffersSerializer(),
          new FlexBuffersSerializer());

  public static Serializer byName(String name) {
    for (Serializer s : ALL) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    return null;
  }

  public static List<String> names() {
    List<String> n = new ArrayList<>();
    for (Serializer s : ALL) {
      n.add(s.name());
    }
    return n;
  }
}
