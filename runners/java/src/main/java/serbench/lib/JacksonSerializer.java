package serbench.lib;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import de.undercouch.bson4jackson.BsonFactory;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import org.msgpack.jackson.dataformat.MessagePackFactory;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.DatasetKind;
import serbench.harness.Serializer;
import serbench.model.SampleData;
import serbench.model.TestClass;

/**
 * jackson-databind on the model classes (public fields, enums by name, Instant as epoch
 * milliseconds) with one of its data formats: JSON, CBOR, XML, MessagePack, BSON.
 */
public final class JacksonSerializer extends Serializer {
  private static final List<String> CORE =
      List.of("com/fasterxml/jackson/core/", "com/fasterxml/jackson/databind/");

  private final Supplier<ObjectMapper> mapper;
  private final boolean wrapLists;

  private JacksonSerializer(
      String name,
      String format,
      String library,
      String version,
      List<String> labels,
      List<String> packages,
      Supplier<ObjectMapper> mapper,
      boolean wrapLists) {
    super(name, format, library, version, labels, concat(CORE, packages));
    this.mapper = mapper;
    this.wrapLists = wrapLists;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> l = new java.util.ArrayList<>(a);
    l.addAll(b);
    return l;
  }

  private static final String JACKSON = libVersion("jackson");

  public static JacksonSerializer json() {
    return new JacksonSerializer(
        "jackson-json",
        "json",
        "com.fasterxml.jackson.core:jackson-databind",
        JACKSON,
        List.of("text", "schemaless", "copying-decode"),
        List.of(),
        () -> configure(new ObjectMapper()),
        false);
  }

  public static JacksonSerializer cbor() {
    return new JacksonSerializer(
        "jackson-cbor",
        "cbor",
        "com.fasterxml.jackson.dataformat:jackson-dataformat-cbor",
        JACKSON,
        List.of("binary", "schemaless", "copying-decode"),
        List.of("com/fasterxml/jackson/dataformat/cbor/"),
        () -> configure(new ObjectMapper(new CBORFactory())),
        false);
  }

  public static JacksonSerializer xml() {
    return new JacksonSerializer(
        "jackson-xml",
        "xml",
        "com.fasterxml.jackson.dataformat:jackson-dataformat-xml",
        JACKSON,
        List.of("text", "schemaless", "copying-decode"),
        List.of("com/fasterxml/jackson/dataformat/xml/", "com/ctc/wstx/", "org/codehaus/stax2/"),
        () -> configure(new XmlMapper()),
        false);
  }

  public static JacksonSerializer msgpack() {
    return new JacksonSerializer(
        "jackson-msgpack",
        "msgpack",
        "org.msgpack:jackson-dataformat-msgpack",
        libVersion("msgpack") + " (jackson " + JACKSON + ")",
        List.of("binary", "schemaless", "copying-decode"),
        List.of("org/msgpack/"),
        () -> configure(new ObjectMapper(new MessagePackFactory())),
        false);
  }

  /** BSON documents must be objects: a list message is written as {"items": [...]}. */
  public static JacksonSerializer bson() {
    return new JacksonSerializer(
        "bson",
        "bson",
        "de.undercouch:bson4jackson",
        libVersion("bson4jackson") + " (jackson " + JACKSON + ")",
        List.of("binary", "schemaless", "copying-decode"),
        List.of("de/undercouch/bson4jackson/"),
        () -> configure(new ObjectMapper(new BsonFactory())),
        true);
  }

  private static ObjectMapper configure(ObjectMapper m) {
    SimpleModule time = new SimpleModule("serbench-instant-millis");
    time.addSerializer(
        Instant.class,
        new JsonSerializer<Instant>() {
          @Override
          public void serialize(Instant v, JsonGenerator g, SerializerProvider p)
              throws IOException {
            g.writeNumber(v.toEpochMilli());
          }
        });
    time.addDeserializer(
        Instant.class,
        new JsonDeserializer<Instant>() {
          @Override
          public Instant deserialize(JsonParser p, DeserializationContext c) throws IOException {
            return Instant.ofEpochMilli(p.getValueAsLong());
          }
        });
    m.registerModule(time);
    return m;
  }

  /** The holder of a list message for formats whose root must be an object. */
  public static final class Items<T> {
    public List<T> items;
  }

  @Override
  public Codec codec(DatasetKind kind) {
    ObjectMapper m = mapper.get();
    JavaType type = m.getTypeFactory().constructType(kind.type);
    boolean wrap = wrapLists && type.isCollectionLikeType();
    if (wrap) {
      Class<?> element = kind == DatasetKind.ANDROID_USERS ? SampleData.class : TestClass.class;
      type = m.getTypeFactory().constructParametricType(Items.class, element);
    }
    ObjectWriter writer = m.writerFor(type);
    ObjectReader reader = m.readerFor(type);
    return new Codec() {
      @Override
      @SuppressWarnings({"unchecked", "rawtypes"})
      public void encode(Object message, Buf out) throws IOException {
        if (wrap) {
          Items holder = new Items();
          holder.items = (List) message;
          writer.writeValue(out, holder);
        } else {
          writer.writeValue(out, message);
        }
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws IOException {
        Object v = reader.readValue(buf, off, len);
        return wrap ? ((Items<?>) v).items : v;
      }
    };
  }
}
