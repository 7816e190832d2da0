package serbench.lib;

import java.io.IOException;
import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Protobuf2Glue;
import serbench.harness.Serializer;
import serbench.seeds.SeedVersions;
import serbench.seeds.protobuf261.com.google.protobuf.CodedOutputStream;
import serbench.seeds.protobuf261.com.google.protobuf.MessageLite;

/**
 * S1's own protobuf-java (2.6.1, relocated under serbench.seeds) with the classes protoc 2.6.1
 * generates from the proto2 schemas (S1's required fields, S2's messages). Encode and decode
 * convert from and to the model objects by the glue TypeGen generates against those classes, as the
 * protobuf row does.
 */
public final class Protobuf2Serializer extends Serializer {
  private static final String PROTO3 =
      "protoc 2.6.1 reads proto2 only; this dataset's generated .proto is proto3 (map or"
          + " implicit-presence fields)";

  public Protobuf2Serializer() {
    super(
        "protobuf@" + SeedVersions.get("protobuf"),
        "protobuf",
        "com.google.protobuf:protobuf-java",
        SeedVersions.get("protobuf"),
        List.of("binary", "schema-required", "copying-decode", "generated"),
        List.of("serbench/seeds/protobuf261/com/google/protobuf/"));
  }

  /** The glue of {@code kind}: there is one where the seeds' build compiled its proto2 schema. */
  private static Protobuf2Glue glue(DatasetKind kind) {
    try {
      return kind.glue(Protobuf2Glue.class, "Protobuf2");
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    return glue(kind) == null ? PROTO3 : null;
  }

  @Override
  public Codec codec(DatasetKind kind) throws NotApplicableException {
    Protobuf2Glue glue = glue(kind);
    if (glue == null) {
      throw new NotApplicableException(PROTO3);
    }
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws IOException {
        MessageLite p = glue.toProto(message);
        int n = p.getSerializedSize();
        out.ensure(n);
        CodedOutputStream c = CodedOutputStream.newInstance(out.array(), out.size(), n);
        p.writeTo(c);
        c.checkNoSpaceLeft();
        out.advance(n);
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws IOException {
        return glue.fromProto(buf, off, len);
      }
    };
  }
}
