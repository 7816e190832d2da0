package serbench.lib;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Compressor;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Serializer;

/**
 * Kryo 5, writeClassAndObject of the message as the S1 seed did: with class registration, without
 * it (class names on the wire; any class can be instantiated), and registered Kryo followed by
 * Deflate (java.util.zip, default level), S4's "Kryo+Deflate".
 */
public final class KryoSerializer extends Serializer {
  private final boolean register;
  private final boolean deflate;

  private KryoSerializer(String name, List<String> labels, boolean register, boolean deflate) {
    super(
        name,
        deflate ? "kryo+deflate" : "kryo",
        "com.esotericsoftware:kryo",
        libVersion("kryo"),
        labels,
        List.of("com/esotericsoftware/"));
    this.register = register;
    this.deflate = deflate;
  }

  public static KryoSerializer registered() {
    return new KryoSerializer(
        "kryo",
        List.of("binary", "schemaless", "copying-decode", "reflective", "registration-required"),
        true,
        false);
  }

  public static KryoSerializer unregistered() {
    return new KryoSerializer(
        "kryo-unregistered",
        List.of("binary", "schemaless", "copying-decode", "reflective", "unsafe-untrusted-input"),
        false,
        false);
  }

  public static KryoSerializer deflate() {
    return new KryoSerializer(
        "kryo-deflate",
        List.of("binary", "schemaless", "copying-decode", "reflective", "registration-required"),
        true,
        true);
  }

  /**
   * The built-in models' classes (generated from datasets/*&#47;types.json) and the JDK classes
   * they use, in a fixed order (registration ids follow it; the seeds' ids as they were).
   */
  private static final List<Class<?>> CLASSES = new ArrayList<>();

  static {
    CLASSES.addAll(List.of(ArrayList.class, HashMap.class));
    CLASSES.addAll(DatasetKind.modelClasses(true));
    CLASSES.addAll(List.of(Instant.class, LinkedHashMap.class, byte[].class, BigInteger.class));
    CLASSES.addAll(DatasetKind.modelClasses(false));
  }

  /**
   * User datasets: the classes of the dataset's generated model, registered after the built-ins'.
   */
  @Override
  public boolean typedUser() {
    return true;
  }

  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) {
    return codec(data.model.classes());
  }

  @Override
  public Codec codec(DatasetKind kind) {
    return codec(List.of());
  }

  private Codec codec(List<Class<?>> userClasses) {
    Kryo kryo = new Kryo();
    kryo.setRegistrationRequired(register);
    kryo.setReferences(false);
    if (register) {
      for (Class<?> c : CLASSES) {
        kryo.register(c);
      }
      for (Class<?> c : userClasses) {
        kryo.register(c);
      }
    }
    Output output = new Output(4096, -1);
    Input input = new Input();
    Compressor.Zlib zlib =
        deflate ? new Compressor.Zlib(java.util.zip.Deflater.DEFAULT_COMPRESSION) : null;
    Buf inflated = new Buf();
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws Exception {
        output.reset();
        kryo.writeClassAndObject(output, message);
        if (zlib == null) {
          out.write(output.getBuffer(), 0, output.position());
        } else {
          zlib.compress(output.getBuffer(), 0, output.position(), out);
        }
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws Exception {
        if (zlib == null) {
          input.setBuffer(buf, off, len);
        } else {
          inflated.reset();
          zlib.decompress(buf, off, len, inflated);
          input.setBuffer(inflated.array(), 0, inflated.size());
        }
        Object m = kryo.readClassAndObject(input);
        if (input.position() != input.limit()) {
          throw new IllegalStateException("trailing bytes after the message");
        }
        return m;
      }
    };
  }
}
