package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.core.buffer.ArrayBufferInput;
import org.msgpack.core.buffer.OutputStreamBufferOutput;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.MessageConsumer;
import serbench.harness.MsgpackCoreGlue;
import serbench.harness.NotApplicableException;
import serbench.harness.SelfDelimitingCodec;
import serbench.harness.Serializer;
import serbench.harness.TypedModels;
import serbench.harness.UserTypes;

/**
 * msgpack-core (msgpack-java) in the seeds' positional layout, through the glue TypeGen generates
 * per built-in message and per user dataset from its types ({@link MsgpackCoreGlue}: a record the
 * array of its fields in order, a record of one field its bare value, an enum its ordinal, a
 * timestamp int64 milliseconds, an optional nil or its value). Streams are plain concatenation.
 */
public final class MsgpackCoreSerializer extends Serializer {
  public MsgpackCoreSerializer() {
    super(
        "msgpack-core",
        "msgpack",
        "org.msgpack:msgpack-core",
        libVersion("msgpack"),
        List.of(
            "binary",
            "schemaless",
            "copying-decode",
            "positional",
            "enum-as-ordinal",
            "timestamp-as-number"),
        List.of("org/msgpack/core/", "org/msgpack/value/"));
  }

  @Override
  public boolean typedUser() {
    return true;
  }

  /** A user dataset: the glue TypeGen generated beside its typed model, as for a built-in. */
  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) throws Exception {
    MsgpackCoreGlue glue =
        TypedModels.glue(data.model, "SerbenchMsgpackCore", MsgpackCoreGlue.class);
    if (glue != null) {
      return new PackCodec(glue);
    }
    String at = noCode(data.types.message, "$", new HashSet<>());
    throw new NotApplicableException(
        at != null
            ? "msgpack-core: "
                + at
                + ": the generated positional code needs a declared type; give it one in the"
                + " types file and add the dataset again with --types"
            : "msgpack-core: no glue generated for this dataset's types: run `serbench build -r"
                + " java`");
  }

  /** The path and type of the first any or bigint under {@code t} (no glue for it), or null. */
  private static String noCode(UserTypes.Type t, String path, Set<String> seen) {
    switch (t.kind) {
      case ANY:
      case BIGINT:
        return path + " is " + t.name;
      case OPTIONAL:
        return noCode(t.elem, path, seen);
      case LIST:
        return noCode(t.elem, path + "[]", seen);
      case MAP:
        return noCode(t.elem, path + "[*]", seen);
      case RECORD:
        if (!seen.add(t.name)) {
          return null;
        }
        for (int i = 0; i < t.fields.size(); i++) {
          String at = noCode(t.fieldTypes.get(i), path + UserTypes.field(t.fields.get(i)), seen);
          if (at != null) {
            return at;
          }
        }
        return null;
      default:
        return null;
    }
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    try {
      return kind.glue(MsgpackCoreGlue.class, "MsgpackCore") == null ? noGlue(kind) : null;
    } catch (ReflectiveOperationException e) {
      return noGlue(kind) + ": " + e;
    }
  }

  private static String noGlue(DatasetKind kind) {
    return "msgpack-core: TypeGen wrote no glue for "
        + kind.id
        + " (its types hold an any or bigint value, which the positional layout has no code for)";
  }

  @Override
  public SelfDelimitingCodec codec(DatasetKind kind) throws Exception {
    MsgpackCoreGlue glue = kind.glue(MsgpackCoreGlue.class, "MsgpackCore");
    if (glue == null) {
      throw new NotApplicableException(noGlue(kind));
    }
    return new PackCodec(glue);
  }

  /** Reuses one packer and one unpacker, re-pointed at each call's buffer. */
  private static final class PackCodec implements SelfDelimitingCodec {
    private final MsgpackCoreGlue glue;
    private final OutputStreamBufferOutput output =
        new OutputStreamBufferOutput(OutputStream.nullOutputStream());
    private final MessagePacker packer = MessagePack.newDefaultPacker(output);
    private final ArrayBufferInput input = new ArrayBufferInput(new byte[0]);
    private final MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(input);

    PackCodec(MsgpackCoreGlue glue) {
      this.glue = glue;
    }

    @Override
    public void encode(Object message, Buf out) throws IOException {
      output.reset(out);
      glue.write(packer, message);
      packer.flush();
    }

    @Override
    public Object decode(byte[] buf, int off, int len) throws IOException {
      input.reset(buf, off, len);
      unpacker.reset(input);
      Object m = glue.read(unpacker);
      if (unpacker.hasNext()) {
        throw new IOException("trailing bytes after the message");
      }
      return m;
    }

    @Override
    public void encodeStream(Object[] items, int count, Buf out) throws IOException {
      output.reset(out);
      MessagePacker p = packer;
      int j = 0;
      for (int i = 0; i < count; i++) {
        glue.write(p, items[j]);
        if (++j == items.length) {
          j = 0;
        }
      }
      p.flush();
    }

    @Override
    public void decodeStream(byte[] buf, int off, int len, int count, MessageConsumer consumer)
        throws Exception {
      input.reset(buf, off, len);
      unpacker.reset(input);
      for (int i = 0; i < count; i++) {
        consumer.accept(i, glue.read(unpacker));
      }
      if (unpacker.hasNext()) {
        throw new IOException("trailing bytes after " + count + " messages");
      }
    }
  }
}
