package serbench.lib;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
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
import serbench.seeds.msgpack0612.org.msgpack.MessagePack;
import serbench.seeds.msgpack0612.org.msgpack.packer.Packer;
import serbench.seeds.msgpack0612.org.msgpack.template.OrdinalEnumTemplate;
import serbench.seeds.msgpack0612.org.msgpack.template.Template;
import serbench.seeds.msgpack0612.org.msgpack.template.Templates;
import serbench.seeds.msgpack0612.org.msgpack.unpacker.BufferUnpacker;

/**
 * S1's own msgpack-java (0.6.12, relocated under serbench.seeds), through the library's templates
 * as the seed used it: a record is the array of its fields in declaration order (S1: array of 5),
 * an enum its ordinal, a list an array (S1's 30 records: an array16 header), a map a map.
 */
public final class Msgpack06Serializer extends Serializer {
  static {
    // The seed ran on Android, where msgpack 0.6 builds its templates by reflection; on the JVM it
    // would generate them with Javassist 3.18, which cannot define classes on JDK 17.
    System.setProperty("msgpack.dynamic-codegen.enabled", "false");
  }

  public Msgpack06Serializer() {
    super(
        "msgpack-core@" + SeedVersions.get("msgpack"),
        "msgpack",
        "org.msgpack:msgpack",
        SeedVersions.get("msgpack"),
        List.of(
            "binary",
            "schemaless",
            "copying-decode",
            "positional",
            "reflective",
            "enum-as-ordinal"),
        List.of("serbench/seeds/msgpack0612/org/msgpack/"));
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    if (kind.seed == DatasetKind.Seed.LOG_RECORDS) {
      return "msgpack 0.6.12 targets Java 6: it has no template for java.time.Instant (S5's"
          + " MyProperty3)";
    }
    return null;
  }

  @Override
  public Codec codec(DatasetKind kind) throws NotApplicableException {
    MessagePack msgpack = new MessagePack();
    msgpack.register(Gender.class, new OrdinalEnumTemplate<>(Gender.class));
    for (Class<?> c :
        List.of(
            SampleData.class,
            Test1.class,
            Test2.class,
            Test3.class,
            Test4.class,
            Viewport.class,
            Click.class,
            ClickMap.class)) {
      msgpack.register(c);
    }
    Template<?> template;
    switch (kind.seed) {
      case ANDROID_USERS:
        template = Templates.tList(msgpack.lookup(SampleData.class));
        break;
      case ONE_MB_DICT:
        template = Templates.tMap(Templates.TString, Templates.TString);
        break;
      case LOG_RECORDS:
        throw new NotApplicableException(notApplicable(kind));
      case OTHER:
        {
          // Any other built-in: its generated model's classes, the referenced ones first (a types
          // file lists the message's record before the ones it holds).
          List<Class<?>> classes = new java.util.ArrayList<>(kind.model().classes());
          java.util.Collections.reverse(classes);
          for (Class<?> c : classes) {
            if (c.isEnum()) {
              registerEnum(msgpack, c);
            } else {
              msgpack.register(c);
            }
          }
          template = msgpack.lookup(kind.type);
          break;
        }
      default:
        template = msgpack.lookup(kind.type);
    }
    return new TemplateCodec(msgpack, template);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void registerEnum(MessagePack msgpack, Class<?> c) {
    msgpack.register(c, new OrdinalEnumTemplate(c));
  }

  /** One packer writing to the call's buffer, one unpacker re-pointed at each call's bytes. */
  private static final class TemplateCodec implements Codec {
    private final Template<Object> template;
    private final Target target = new Target();
    private final Packer packer;
    private final BufferUnpacker unpacker;

    @SuppressWarnings("unchecked")
    TemplateCodec(MessagePack msgpack, Template<?> template) {
      this.template = (Template<Object>) template;
      this.packer = msgpack.createPacker(target);
      this.unpacker = msgpack.createBufferUnpacker();
    }

    @Override
    public void encode(Object message, Buf out) throws IOException {
      target.buf = out;
      template.write(packer, message);
      packer.flush();
    }

    @Override
    public Object decode(byte[] buf, int off, int len) throws IOException {
      unpacker.wrap(buf, off, len);
      unpacker.resetReadByteCount();
      Object m = template.read(unpacker, null);
      if (unpacker.getReadByteCount() != len) {
        throw new IOException("trailing bytes after the message");
      }
      return m;
    }
  }

  /** The packer's stream: the buffer of the current encode call. */
  private static final class Target extends OutputStream {
    Buf buf;

    @Override
    public void write(int b) {
      buf.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      buf.write(b, off, len);
    }
  }
}
