package serbench.lib;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Compressor;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.seeds.SeedVersions;
import serbench.seeds.kryo303.com.esotericsoftware.kryo.Kryo;
import serbench.seeds.kryo303.com.esotericsoftware.kryo.io.Input;
import serbench.seeds.kryo303.com.esotericsoftware.kryo.io.Output;

/**
 * S1's own Kryo (3.0.3, relocated under serbench.seeds) with the settings of today's kryo rows, so
 * that only the version differs: writeClassAndObject of the message without references, with class
 * registration or without it (the seed's default), and registered Kryo followed by Deflate (S4's
 * "Kryo+Deflate").
 */
public final class Kryo3Serializer extends Serializer {
  private final boolean register;
  private final boolean deflate;

  private Kryo3Serializer(String name, List<String> labels, boolean register, boolean deflate) {
    super(
        name + "@" + SeedVersions.get("kryo"),
        deflate ? "kryo+deflate" : "kryo",
        "com.esotericsoftware:kryo",
        SeedVersions.get("kryo"),
        labels,
        // Kryo, MinLog and ReflectASM with the ASM it uses (today's ReflectASM embeds its own)
        List.of(
            "serbench/seeds/kryo303/com/esotericsoftware/",
            "serbench/seeds/kryo303/org/objectweb/asm/"));
    this.register = register;
    this.deflate = deflate;
  }

  private static final List<String> REGISTERED =
      List.of("binary", "schemaless", "copying-decode", "reflective", "registration-required");

  public static Kryo3Serializer registered() {
    return new Kryo3Serializer("kryo", REGISTERED, true, false);
  }

  public static Kryo3Serializer unregistered() {
    return new Kryo3Serializer(
        "kryo-unregistered",
        List.of("binary", "schemaless", "copying-decode", "reflective", "unsafe-untrusted-input"),
        false,
        false);
  }

  public static Kryo3Serializer deflate() {
    return new Kryo3Serializer("kryo-deflate", REGISTERED, true, true);
  }

  /**
   * The seeds' model classes in the order of today's kryo rows ({@link DatasetKind#modelClasses}),
   * less the families holding an Instant, which Kryo 3.0.3 cannot carry (S5's), then the JDK
   * classes: the seeds keep the ids and bytes they had. A dataset's own model classes are
   * registered after these.
   */
  private static final List<Class<?>> CLASSES = new ArrayList<>();

  static {
    CLASSES.addAll(List.of(ArrayList.class, HashMap.class));
    CLASSES.addAll(
        DatasetKind.modelClasses(k -> k.seed != DatasetKind.Seed.OTHER && !hasInstant(k)));
    // the generated models' maps keep the file's order
    CLASSES.addAll(List.of(LinkedHashMap.class, byte[].class, BigInteger.class));
  }

  private static boolean hasInstant(DatasetKind kind) {
    return instantField(kind.model().classes()) != null;
  }

  /** The first field ("Class.field") of {@code classes} holding an Instant, or null. */
  private static String instantField(List<Class<?>> classes) {
    for (Class<?> c : classes) {
      for (java.lang.reflect.Field f : c.getDeclaredFields()) {
        if (f.getGenericType().getTypeName().contains("java.time.Instant")) {
          return c.getSimpleName() + "." + f.getName();
        }
      }
    }
    return null;
  }

  private static String instantReason(List<Class<?>> classes) {
    String f = instantField(classes);
    return f == null
        ? null
        : "Kryo 3.0.3 has no serializer for java.time.Instant ("
            + f
            + "), and its FieldSerializer cannot be created for it on this JDK";
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    return instantReason(kind.model().classes());
  }

  /** User datasets: the classes of the dataset's generated model, as on the built-ins. */
  @Override
  public boolean typedUser() {
    return true;
  }

  @Override
  public Codec userCodec(Dataset data, com.fasterxml.jackson.databind.JsonNode schemas)
      throws NotApplicableException {
    String reason = instantReason(data.model.classes());
    if (reason != null) {
      throw new NotApplicableException(reason);
    }
    return codec(data.model.classes());
  }

  /** A built-in: its model's classes after the list (a seed's are in it: registered once). */
  @Override
  public Codec codec(DatasetKind kind) {
    return codec(kind.model().classes());
  }

  private Codec codec(List<Class<?>> modelClasses) {
    List<Class<?>> classes = new ArrayList<>(CLASSES);
    classes.addAll(modelClasses);
    return codecOf(classes);
  }

  private Codec codecOf(List<Class<?>> classes) {
    Kryo kryo = new Kryo();
    kryo.setRegistrationRequired(register);
    kryo.setReferences(false);
    if (register) {
      for (Class<?> c : classes) {
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
        output.clear();
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
