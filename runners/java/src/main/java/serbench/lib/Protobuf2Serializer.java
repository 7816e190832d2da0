package serbench.lib;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.model.Gender;
import serbench.model.SampleData;
import serbench.model.Test1;
import serbench.model.Test2;
import serbench.model.Test3;
import serbench.model.Test4;
import serbench.seeds.SeedVersions;
import serbench.seeds.protobuf261.com.google.protobuf.CodedOutputStream;
import serbench.seeds.protobuf261.com.google.protobuf.MessageLite;
import serbench.seeds.protobuf261.proto.AndroidUsersProto;
import serbench.seeds.protobuf261.proto.PbVsMsgpackProto;

/**
 * S1's own protobuf-java (2.6.1, relocated under serbench.seeds) with the classes protoc 2.6.1
 * generates from the proto2 schemas (S1's required fields, S2's messages). Encode and decode
 * convert from and to the model objects, as the protobuf row does.
 */
public final class Protobuf2Serializer extends Serializer {
  public Protobuf2Serializer() {
    super(
        "protobuf@" + SeedVersions.get("protobuf"),
        "protobuf",
        "com.google.protobuf:protobuf-java",
        SeedVersions.get("protobuf"),
        List.of("binary", "schema-required", "copying-decode", "generated"),
        List.of("serbench/seeds/protobuf261/com/google/protobuf/"));
  }

  private interface ToProto {
    MessageLite convert(Object m);
  }

  private interface FromBytes {
    Object parse(byte[] b, int off, int len) throws IOException;
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    switch (kind.seed) {
      case ANDROID_USERS:
      case TEST1:
      case TEST2:
      case TEST3:
      case TEST4:
        return null;
      default:
        return "protoc 2.6.1 reads proto2 only; this dataset's generated .proto is proto3 (map or"
            + " implicit-presence fields)";
    }
  }

  @Override
  public Codec codec(DatasetKind kind) throws NotApplicableException {
    ToProto to;
    FromBytes from;
    switch (kind.seed) {
      case ANDROID_USERS:
        to = Protobuf2Serializer::sampleList;
        from = (b, o, l) -> fromSampleList(AndroidUsersProto.SampleList.PARSER.parseFrom(b, o, l));
        break;
      case TEST1:
        to = m -> test1((Test1) m);
        from = (b, o, l) -> fromTest1(PbVsMsgpackProto.Test1.PARSER.parseFrom(b, o, l));
        break;
      case TEST2:
        to = m -> test2((Test2) m);
        from = (b, o, l) -> fromTest2(PbVsMsgpackProto.Test2.PARSER.parseFrom(b, o, l));
        break;
      case TEST3:
        to = m -> PbVsMsgpackProto.Test3.newBuilder().setS(((Test3) m).s).build();
        from = (b, o, l) -> new Test3(PbVsMsgpackProto.Test3.PARSER.parseFrom(b, o, l).getS());
        break;
      case TEST4:
        to =
            m -> {
              Test4 t = (Test4) m;
              return PbVsMsgpackProto.Test4.newBuilder()
                  .setT1(test1(t.t1))
                  .setT2(test2(t.t2))
                  .setT3(PbVsMsgpackProto.Test3.newBuilder().setS(t.t3.s))
                  .build();
            };
        from =
            (b, o, l) -> {
              PbVsMsgpackProto.Test4 p = PbVsMsgpackProto.Test4.PARSER.parseFrom(b, o, l);
              return new Test4(
                  fromTest1(p.getT1()), fromTest2(p.getT2()), new Test3(p.getT3().getS()));
            };
        break;
      default:
        throw new NotApplicableException(notApplicable(kind));
    }
    ToProto toProto = to;
    FromBytes fromBytes = from;
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws IOException {
        MessageLite p = toProto.convert(message);
        int n = p.getSerializedSize();
        out.ensure(n);
        CodedOutputStream c = CodedOutputStream.newInstance(out.array(), out.size(), n);
        p.writeTo(c);
        c.checkNoSpaceLeft();
        out.advance(n);
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws IOException {
        return fromBytes.parse(buf, off, len);
      }
    };
  }

  private static final Gender[] GENDERS = Gender.values();

  @SuppressWarnings("unchecked")
  private static MessageLite sampleList(Object m) {
    AndroidUsersProto.SampleList.Builder b = AndroidUsersProto.SampleList.newBuilder();
    for (SampleData s : (List<SampleData>) m) {
      b.addSampleData(
          AndroidUsersProto.SampleData.newBuilder()
              .setId(s.id)
              .setName(s.name)
              .setAge(s.age)
              .setGender(AndroidUsersProto.Gender.valueOf(s.gender.ordinal()))
              .setIsMegane(s.isMegane ? 1 : 0));
    }
    return b.build();
  }

  private static Object fromSampleList(AndroidUsersProto.SampleList p) {
    ArrayList<SampleData> list = new ArrayList<>(p.getSampleDataCount());
    for (AndroidUsersProto.SampleData s : p.getSampleDataList()) {
      list.add(
          new SampleData(
              s.getId(),
              s.getName(),
              s.getAge(),
              GENDERS[s.getGender().getNumber()],
              s.getIsMegane() != 0));
    }
    return list;
  }

  private static PbVsMsgpackProto.Test1 test1(Test1 t) {
    return PbVsMsgpackProto.Test1.newBuilder()
        .setA((int) t.a)
        .setB((int) t.b)
        .build(); // uint32 bits
  }

  private static Test1 fromTest1(PbVsMsgpackProto.Test1 p) {
    return new Test1(Integer.toUnsignedLong(p.getA()), Integer.toUnsignedLong(p.getB()));
  }

  private static PbVsMsgpackProto.Test2 test2(Test2 t) {
    return PbVsMsgpackProto.Test2.newBuilder().setA(t.a).setB(t.b).build();
  }

  private static Test2 fromTest2(PbVsMsgpackProto.Test2 p) {
    return new Test2(p.getA(), p.getB());
  }
}
