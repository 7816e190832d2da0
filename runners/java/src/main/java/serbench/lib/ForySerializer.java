package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.fory.Fory;
import org.apache.fory.config.Language;
import org.apache.fory.memory.MemoryBuffer;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Serializer;

/** Apache Fory (Java mode, class registration required, no reference tracking). */
public final class ForySerializer extends Serializer {
  public ForySerializer() {
    super(
        "fory",
        "fory",
        "org.apache.fory:fory-core",
        libVersion("fory"),
        List.of("binary", "schemaless", "copying-decode", "reflective", "registration-required"),
        List.of("org/apache/fory/"));
  }

  /**
   * The built-in models' classes (generated from datasets/*&#47;types.json), in a fixed order
   * (registration ids follow it; the seeds' ids as they were).
   */
  private static final List<Class<?>> CLASSES = new ArrayList<>();

  static {
    CLASSES.addAll(DatasetKind.modelClasses(true));
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
    Fory fory =
        Fory.builder()
            .withLanguage(Language.JAVA)
            .requireClassRegistration(true)
            .withRefTracking(false)
            .build();
    fory.register(ArrayList.class);
    fory.register(HashMap.class);
    fory.register(Instant.class);
    fory.register(LinkedHashMap.class);
    fory.register(BigInteger.class);
    fory.register(byte[].class);
    for (Class<?> c : CLASSES) {
      fory.register(c);
    }
    for (Class<?> c : userClasses) {
      fory.register(c);
    }
    MemoryBuffer buffer = MemoryBuffer.newHeapBuffer(4096);
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) {
        buffer.writerIndex(0);
        fory.serialize(buffer, message);
        out.write(buffer.getHeapMemory(), 0, buffer.writerIndex());
      }

      @Override
      public Object decode(byte[] buf, int off, int len) {
        return fory.deserialize(MemoryBuffer.fromByteArray(buf, off, len));
      }
    };
  }
}
