package serbench.lib;

import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.DatasetKind;
import serbench.harness.Serializer;

/**
 * The baseline: encode writes an 8-byte blob prepared before timing, decode hands back the original
 * messages in order, through the same loop, sinks and framing as real serializers.
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
  public Codec codec(DatasetKind kind) {
    return new Codec() {
      private final byte[] blob = new byte[8];
      private Object[] originals = new Object[0];
      private int next;

      @Override
      public void prepare(List<Object> items) {
        originals = items.toArray();
      }

      @Override
      public void encode(Object message, Buf out) {
        out.write(blob, 0, blob.length);
      }

      @Override
      public Object decode(byte[] buf, int off, int len) {
        Object m = originals[next];
        if (++next == originals.length) {
          next = 0;
        }
        return m;
      }
    };
  }
}
