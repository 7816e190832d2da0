package serbench.lib;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.seeds.SeedVersions;
import serbench.seeds.msgpack0612.org.msgpack.MessagePack;
import serbench.seeds.msgpack0612.org.msgpack.MessageTypeException;
import serbench.seeds.msgpack0612.org.msgpack.packer.Packer;
import serbench.seeds.msgpack0612.org.msgpack.template.OrdinalEnumTemplate;
import serbench.seeds.msgpack0612.org.msgpack.template.Template;
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
    for (Class<?> c : kind.model().classes()) {
      for (java.lang.reflect.Field f : c.getDeclaredFields()) {
        if (f.getType() == java.time.Instant.class) {
          return "msgpack 0.6.12 targets Java 6: it has no template for java.time.Instant ("
              + c.getSimpleName()
              + "."
              + f.getName()
              + ")";
        }
      }
    }
    return null;
  }

  @Override
  public Codec codec(DatasetKind kind) throws NotApplicableException {
    String why = notApplicable(kind);
    if (why != null) {
      throw new NotApplicableException(why);
    }
    // The model's classes, as the seed registered its own: enums as their ordinal, and a record
    // once the records it holds are (msgpack 0.6 builds its template at registration).
    MessagePack msgpack = new MessagePack();
    List<Class<?>> left = new java.util.ArrayList<>(kind.model().classes());
    while (!left.isEmpty()) {
      int before = left.size();
      for (java.util.Iterator<Class<?>> it = left.iterator(); it.hasNext(); ) {
        Class<?> c = it.next();
        try {
          if (c.isEnum()) {
            registerEnum(msgpack, c);
          } else {
            msgpack.register(c);
          }
          it.remove();
        } catch (MessageTypeException e) {
          // a field's type not registered yet: next round
        }
      }
      if (left.size() == before) {
        throw new NotApplicableException("msgpack 0.6.12 cannot build a template for " + left);
      }
    }
    return new TemplateCodec(msgpack, msgpack.lookup(kind.type));
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
