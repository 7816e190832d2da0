package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.FlatBuffersGlue;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.harness.TypedModel;
import serbench.harness.TypedModels;
import serbench.harness.UserTypes;

/**
 * FlatBuffers (flatbuffers-java, code from Debian's flatc of the same version) from
 * datasets/*&#47;*.fbs at build time. Decode here is a full decode into the model objects; the lazy
 * accessor form FlatBuffers is known for would be a separate lazy-access row.
 */
public final class FlatBuffersSerializer extends Serializer {
  public FlatBuffersSerializer() {
    super(
        "flatbuffers",
        "flatbuffers",
        "com.google.flatbuffers:flatbuffers-java",
        libVersion("flatbuffers"),
        List.of("binary", "schema-required", "copying-decode", "generated", "unvalidated"),
        List.of("com/google/flatbuffers/"));
  }

  @Override
  public boolean typedUser() {
    return true;
  }

  /**
   * A user dataset: flatc's classes for its .fbs (generated at build time into {@code
   * serbench.typed.t<sha>.fb}), filled and read by the glue TypeGen generated beside its typed
   * model ({@link FlatBuffersGlue}). A value the .fbs cannot carry is refused here, with its path.
   */
  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) throws Exception {
    userSchema(schemas, "fbs", "path", "flatbuffers: the dataset has no .fbs");
    FlatBuffersGlue glue = glue(data.model);
    if (glue.notApplicable() != null) {
      throw new NotApplicableException(glue.notApplicable());
    }
    for (int i = 0; i < data.items.size(); i++) {
      String at = data.stream ? "$[" + i + "]" : "$";
      nullElements(data.types.message, data.model.toTree(data.items.get(i)), at);
    }
    return codec(glue);
  }

  private static FlatBuffersGlue glue(TypedModel model) throws Exception {
    FlatBuffersGlue glue = TypedModels.glue(model, "SerbenchFlatBuffers", FlatBuffersGlue.class);
    if (glue == null) {
      throw new NotApplicableException(
          "flatbuffers: no glue generated for this dataset's .fbs: run `serbench build -r java`");
    }
    return glue;
  }

  /**
   * A list only ever null is a {@code [bool]} that stays empty (protocol section 7): a vector
   * cannot hold a null, so an element there is not applicable, with its path.
   */
  private static void nullElements(UserTypes.Type t, Object v, String path)
      throws NotApplicableException {
    if (v == null) {
      return;
    }
    switch (t.kind) {
      case OPTIONAL:
        nullElements(t.elem, v, path);
        return;
      case RECORD:
        for (int i = 0; i < t.fields.size(); i++) {
          String f = t.fields.get(i);
          nullElements(t.fieldTypes.get(i), ((Map<?, ?>) v).get(f), path + UserTypes.field(f));
        }
        return;
      case MAP:
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          nullElements(t.elem, e.getValue(), path + UserTypes.key((String) e.getKey()));
        }
        return;
      case LIST:
        List<?> l = (List<?>) v;
        if (t.elem.kind == UserTypes.Kind.NULL && !l.isEmpty()) {
          throw new NotApplicableException(
              "flatbuffers: null at "
                  + path
                  + "[0] in a list only ever null (a [bool] vector that stays empty: a vector"
                  + " has no null)");
        }
        for (int j = 0; j < l.size(); j++) {
          nullElements(t.elem, l.get(j), path + "[" + j + "]");
        }
        return;
      default:
    }
  }

  /** A built-in message: the glue TypeGen generated from its family's types.json and .fbs. */
  @Override
  public Codec codec(DatasetKind kind) throws Exception {
    FlatBuffersGlue glue = kind.glue(FlatBuffersGlue.class, "FlatBuffers");
    if (glue == null) {
      throw new NotApplicableException(
          "flatbuffers: no glue generated for "
              + kind.id
              + " (typegen said why while building): run `serbench build -r java`");
    }
    if (glue.notApplicable() != null) {
      throw new NotApplicableException(glue.notApplicable());
    }
    return codec(glue);
  }

  private static Codec codec(FlatBuffersGlue glue) {
    FlatBufferBuilder builder = new FlatBufferBuilder(4096);
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) {
        builder.clear();
        builder.finish(glue.build(builder, message));
        ByteBuffer bb = builder.dataBuffer();
        out.write(bb.array(), bb.arrayOffset() + bb.position(), bb.remaining());
      }

      @Override
      public Object decode(byte[] buf, int off, int len) {
        return glue.read(ByteBuffer.wrap(buf, off, len));
      }
    };
  }
}
