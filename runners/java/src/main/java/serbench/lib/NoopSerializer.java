package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.IdentityHashMap;
import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.Serializer;

/**
 * The baseline: encode writes the message's 4-byte index among the dataset's distinct items, decode
 * hands back that original message, through the same loop, sinks and framing as real serializers.
 */
public final class NoopSerializer extends Serializer {
  public NoopSerializer() {
    super(
        "noop",
        "none",
        "serbench",
        System.getProperty("java.version"),
        List.of("baseline"),
        List.of());
  }

  @Override
  public String userNotApplicable() {
    return null;
  }

  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) {
    return codec(null);
  }

  @Override
  public Codec codec(DatasetKind kind) {
    return new Codec() {
      private Object[] originals = new Object[0];
      private final IdentityHashMap<Object, Integer> index = new IdentityHashMap<>();

      @Override
      public void prepare(List<Object> items) {
        originals = items.toArray();
        for (int i = 0; i < originals.length; i++) {
          index.putIfAbsent(originals[i], i);
        }
      }

      @Override
      public void encode(Object message, Buf out) {
        out.writeInt(index.get(message));
      }

      @Override
      public Object decode(byte[] buf, int off, int len) {
        return originals[
            (buf[off] & 0xFF) << 24
                | (buf[off + 1] & 0xFF) << 16
                | (buf[off + 2] & 0xFF) << 8
                | (buf[off + 3] & 0xFF)];
      }
    };
  }
}
