package serbench.untrusted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import de.undercouch.bson4jackson.BsonFactory;
import java.io.IOException;
import java.util.Map;
import java.util.function.Predicate;
import java.util.zip.DataFormatException;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.jackson.dataformat.MessagePackMapper;
import serbench.harness.NotApplicableException;
import serbench.harness.Wire;

/**
 * Per serializer: the error type its library documents for input it cannot decode (only that
 * answers {@code rejected}), and for libraries with a generic value API its decode to that value
 * and its encode of a canonical one. The generic calls use each library's default settings, as a
 * caller who hands it bytes from the network gets them.
 */
final class Rows {
  private Rows() {}

  interface Decode {
    /** The canonical JSON of the library's generic value of {@code b}. */
    Object decode(byte[] b) throws Exception;
  }

  interface Encode {
    /** The library's encoding of a canonical value; NotApplicableException when it cannot. */
    byte[] encode(JsonNode canonical) throws Exception;
  }

  interface ContainerEncode {
    /** A container file of the canonical records {@code value}, as {@code container} says. */
    byte[] encode(JsonNode container, JsonNode value) throws Exception;
  }

  static final class Row {
    final Predicate<Throwable> rejects;
    final Decode generic;
    final Encode encode;

    /** The object container file's reader and writer (capability avro_container), or null. */
    final Decode containerRead;

    final ContainerEncode containerWrite;

    Row(Predicate<Throwable> rejects, Decode generic, Encode encode) {
      this(rejects, generic, encode, null, null);
    }

    Row(
        Predicate<Throwable> rejects,
        Decode generic,
        Encode encode,
        Decode containerRead,
        ContainerEncode containerWrite) {
      this.rejects = rejects;
      this.generic = generic;
      this.encode = encode;
      this.containerRead = containerRead;
      this.containerWrite = containerWrite;
    }
  }

  /** Rows that must not see bytes from outside: why (answered as {@code unsupported}). */
  static final Map<String, String> UNSAFE =
      Map.of(
          "noop",
          "noop is a baseline that decodes nothing",
          "java-serialization",
          "java-serialization instantiates the classes its input names"
              + " (unsafe-untrusted-input)",
          "kryo-unregistered",
          "kryo-unregistered instantiates the classes its input names (unsafe-untrusted-input)",
          "kryo-unregistered@3.0.3",
          "kryo-unregistered@3.0.3 instantiates the classes its input names"
              + " (unsafe-untrusted-input)");

  // Jackson (every jackson-* row and bson4jackson): ObjectMapper.readTree/readValue document
  // IOException, whose JacksonException subclasses (StreamReadException, DatabindException,
  // StreamConstraintsException) report malformed content.
  private static final Predicate<Throwable> JACKSON = IOException.class::isInstance;

  // jackson-dataformat-msgpack reads through msgpack-core and lets its MessagePackException
  // (below) through beside Jackson's own.
  private static final Predicate<Throwable> JACKSON_MSGPACK =
      t -> t instanceof IOException || t instanceof MessagePackException;

  // msgpack-core: MessageUnpacker documents MessagePackException (MessageFormatException,
  // MessageInsufficientBufferException, MessageSizeException, ...) and the IOException its
  // unpack methods declare.
  private static final Predicate<Throwable> MSGPACK_CORE =
      t -> t instanceof MessagePackException || t instanceof IOException;

  // MessagePack for Java 0.6: MessageTypeException for bad content, IOException (EOFException)
  // for input that ends early.
  private static final Predicate<Throwable> MSGPACK_06 =
      t ->
          t instanceof serbench.seeds.msgpack0612.org.msgpack.MessageTypeException
              || t instanceof IOException;

  // Kryo: KryoException (KryoBufferUnderflowException is one) for every read failure.
  private static final Predicate<Throwable> KRYO =
      com.esotericsoftware.kryo.KryoException.class::isInstance;
  private static final Predicate<Throwable> KRYO_3 =
      serbench.seeds.kryo303.com.esotericsoftware.kryo.KryoException.class::isInstance;

  // The deflate rows inflate first: java.util.zip.Inflater documents DataFormatException.
  private static Predicate<Throwable> inflated(Predicate<Throwable> inner) {
    return inner.or(DataFormatException.class::isInstance);
  }

  // Fory: ForyException is the base of its DeserializationException, InsecureException, ...
  private static final Predicate<Throwable> FORY =
      org.apache.fory.exception.ForyException.class::isInstance;

  // protobuf-java: parseFrom documents InvalidProtocolBufferException.
  private static final Predicate<Throwable> PROTOBUF =
      com.google.protobuf.InvalidProtocolBufferException.class::isInstance;
  private static final Predicate<Throwable> PROTOBUF_2 =
      serbench.seeds.protobuf261.com.google.protobuf.InvalidProtocolBufferException.class
          ::isInstance;

  // Avro: DatumReader.read declares IOException (EOFException on short input);
  // AvroRuntimeException is its documented base for malformed data ("Malformed data. Length is
  // negative", bad union index).
  private static final Predicate<Throwable> AVRO =
      t -> t instanceof IOException || t instanceof org.apache.avro.AvroRuntimeException;

  // Thrift: TDeserializer documents TException (TProtocolException, TTransportException).
  private static final Predicate<Throwable> THRIFT = org.apache.thrift.TException.class::isInstance;

  // The handwritten reader (harness.Wire.Reader) refuses truncated input, bytes after the message
  // and values it cannot map (an enum ordinal out of range, a count past int) with Wire.Malformed.
  private static final Predicate<Throwable> HANDWRITTEN = Wire.Malformed.class::isInstance;

  // FlatBuffers and FlexBuffers for Java have no verifier and document no error for bad input:
  // every exception of theirs is a crash.
  private static final Predicate<Throwable> NONE = t -> false;

  private static Row jacksonRow(
      ObjectMapper m, Predicate<Throwable> rejects, FromCanonical.Carries carries) {
    return new Row(
        rejects,
        b -> {
          JsonNode n = m.readTree(b);
          return n == null ? Canonical.tagged("$other", "no content") : Canonical.of(n, 0);
        },
        carries == null ? null : v -> m.writeValueAsBytes(FromCanonical.jackson(v, carries)));
  }

  private static Object msgpackCoreDecode(byte[] b) throws IOException {
    try (MessageUnpacker u = MessagePack.newDefaultUnpacker(b)) {
      return Canonical.of(u.unpackValue(), 0);
    }
  }

  private static byte[] msgpackCoreEncode(JsonNode v) throws IOException, NotApplicableException {
    try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
      p.packValue(FromCanonical.msgpack(v));
      return p.toByteArray();
    }
  }

  /** The row of a serializer name; null for a name this runner does not know here. */
  static Row of(String name) {
    switch (name) {
      case "handwritten":
        return new Row(HANDWRITTEN, null, null);
      case "kryo":
        return new Row(KRYO, null, null);
      case "kryo-deflate":
        return new Row(inflated(KRYO), null, null);
      case "kryo@3.0.3":
        return new Row(KRYO_3, null, null);
      case "kryo-deflate@3.0.3":
        return new Row(inflated(KRYO_3), null, null);
      case "fory":
        return new Row(FORY, null, null);
      case "protobuf":
      case "protobuf-dynamic":
        return new Row(PROTOBUF, null, null);
      case "protobuf@2.6.1":
        return new Row(PROTOBUF_2, null, null);
      case "msgpack-core":
        return new Row(MSGPACK_CORE, Rows::msgpackCoreDecode, Rows::msgpackCoreEncode);
      case "msgpack-core@0.6.12":
        return new Row(
            MSGPACK_06,
            b -> Canonical.of(new serbench.seeds.msgpack0612.org.msgpack.MessagePack().read(b), 0),
            null);
      case "jackson-msgpack":
        return new Row(JACKSON_MSGPACK, null, null);
      case "jackson-json":
      case "jackson-cbor":
      case "jackson-xml":
      case "bson":
        return new Row(JACKSON, null, null);
      case "jackson-json-dynamic":
        return jacksonRow(new ObjectMapper(), JACKSON, FromCanonical.Carries.JSON);
      case "jackson-cbor-dynamic":
        return jacksonRow(new CBORMapper(), JACKSON, FromCanonical.Carries.CBOR);
      case "jackson-msgpack-dynamic":
        return jacksonRow(new MessagePackMapper(), JACKSON_MSGPACK, FromCanonical.Carries.MSGPACK);
      case "bson-dynamic":
        return jacksonRow(new ObjectMapper(new BsonFactory()), JACKSON, null);
      case "avro":
        return new Row(AVRO, null, null, AvroContainer::read, AvroContainer::write);
      case "thrift":
        return new Row(THRIFT, null, null);
      case "flatbuffers":
      case "flexbuffers":
        return new Row(NONE, null, null);
      default:
        return null;
    }
  }
}
