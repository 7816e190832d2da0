package serbench.lib;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Compressor;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.model.Click;
import serbench.model.ClickMap;
import serbench.model.Gender;
import serbench.model.SampleData;
import serbench.model.Test1;
import serbench.model.Test2;
import serbench.model.Test3;
import serbench.model.Test4;
import serbench.model.Viewport;
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

  /** The model's classes, in a fixed order (registration ids follow it). */
  private static final Class<?>[] CLASSES = {
    ArrayList.class,
    HashMap.class,
    Gender.class,
    SampleData.class,
    Test1.class,
    Test2.class,
    Test3.class,
    Test4.class,
    Viewport.class,
    Click.class,
    ClickMap.class,
    // the generated models' maps keep the file's order
    java.util.LinkedHashMap.class
  };

  @Override
  public String notApplicable(DatasetKind kind) {
    if (kind.seed == DatasetKind.Seed.LOG_RECORDS) {
      return "Kryo 3.0.3 has no serializer for java.time.Instant (S5's MyProperty3), and its"
          + " FieldSerializer cannot be created for it on this JDK";
    }
    return null;
  }

  @Override
  public String userNotApplicable() {
    return null;
  }

  /** User datasets: the classes of the dataset's generated model, as on the built-ins. */
  @Override
  public boolean typedUser() {
    return true;
  }

  @Override
  public Codec userCodec(Dataset data, com.fasterxml.jackson.databind.JsonNode schemas)
      throws NotApplicableException {
    for (Class<?> c : data.model.classes()) {
      for (java.lang.reflect.Field f : c.getDeclaredFields()) {
        if (f.getGenericType().getTypeName().contains("java.time.Instant")) {
          throw new NotApplicableException(
              "Kryo 3.0.3 has no serializer for java.time.Instant ("
                  + c.getSimpleName()
                  + "."
                  + f.getName()
                  + ")");
        }
      }
    }
    List<Class<?>> classes = new ArrayList<>(List.of(CLASSES));
    classes.addAll(List.of(byte[].class, java.math.BigInteger.class));
    classes.addAll(data.model.classes());
    return codec(classes);
  }

  @Override
  public Codec codec(DatasetKind kind) {
    if (kind.seed != DatasetKind.Seed.OTHER) {
      return codec(List.of(CLASSES));
    }
    // Any other built-in: its generated model's classes, registered as for a user dataset.
    List<Class<?>> classes = new ArrayList<>(List.of(CLASSES));
    classes.addAll(List.of(byte[].class, java.math.BigInteger.class));
    classes.addAll(kind.model().classes());
    return codec(classes);
  }

  private Codec codec(List<Class<?>> classes) {
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
