package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Serializer;

/** java.io.ObjectOutputStream / ObjectInputStream of the model objects (S1, S4's baseline). */
public final class JavaSerialization extends Serializer {
  public JavaSerialization() {
    super(
        "java-serialization",
        "java-serialization",
        "java.io (JDK)",
        System.getProperty("java.version"),
        List.of(
            "binary",
            "schemaless",
            "copying-decode",
            "reflective",
            "platform-native",
            "unsafe-untrusted-input"),
        List.of());
  }

  /** User datasets: the classes of the dataset's generated model. */
  @Override
  public boolean typedUser() {
    return true;
  }

  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) {
    return codec(null);
  }

  @Override
  public Codec codec(DatasetKind kind) {
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws Exception {
        try (ObjectOutputStream o = new ObjectOutputStream(out)) {
          o.writeObject(message);
        }
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws Exception {
        try (ObjectInputStream in =
            new ObjectInputStream(new ByteArrayInputStream(buf, off, len))) {
          return in.readObject();
        }
      }
    };
  }
}
