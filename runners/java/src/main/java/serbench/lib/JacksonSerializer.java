package serbench.lib;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import de.undercouch.bson4jackson.BsonFactory;
import de.undercouch.bson4jackson.BsonGenerator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.msgpack.jackson.dataformat.ExtensionTypeCustomDeserializers;
import org.msgpack.jackson.dataformat.MessagePackFactory;
import org.msgpack.jackson.dataformat.TimestampExtensionModule;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.harness.UserTypes;

/**
 * jackson-databind on the model classes (public fields, enums by name, Instant as epoch
 * milliseconds) with one of its data formats: JSON, CBOR, XML, MessagePack, BSON.
 */
public final class JacksonSerializer extends Serializer {
  private static final List<String> CORE =
      List.of("com/fasterxml/jackson/core/", "com/fasterxml/jackson/databind/");

  private final Supplier<ObjectMapper> mapper;
  private final boolean wrapLists;
  private final String format;

  /** The -dynamic row: the generic value tree of user datasets (Object, Map, List). */
  private final boolean dynamic;

  private final String typedName;

  private JacksonSerializer(
      String name,
      String format,
      String library,
      String version,
      List<String> labels,
      List<String> packages,
      Supplier<ObjectMapper> mapper,
      boolean wrapLists) {
    this(name, format, library, version, labels, concat(CORE, packages), mapper, wrapLists, false);
  }

  private JacksonSerializer(
      String name,
      String format,
      String library,
      String version,
      List<String> labels,
      List<String> packages,
      Supplier<ObjectMapper> mapper,
      boolean wrapLists,
      boolean dynamic) {
    super(name, format, library, version, labels, packages);
    this.mapper = mapper;
    this.wrapLists = wrapLists;
    this.format = format;
    this.dynamic = dynamic;
    this.typedName = dynamic ? name.substring(0, name.length() - "-dynamic".length()) : name;
  }

  /**
   * Labels of a Jackson row: its encoding, the conventions every Jackson data-format module shares
   * on the generated classes (fields by name, enums by name, Instant as a number), then the
   * module's own.
   */
  private static List<String> jacksonLabels(String encoding, String... own) {
    List<String> all =
        new java.util.ArrayList<>(
            List.of(
                encoding,
                "schemaless",
                "copying-decode",
                "map-layout",
                "reflective",
                "enum-as-name",
                "timestamp-as-number"));
    all.addAll(List.of(own));
    return List.copyOf(all);
  }

  /** This row's {@code -dynamic} twin: user datasets through Jackson's generic tree. */
  public JacksonSerializer dynamicRow() {
    List<String> labels = new java.util.ArrayList<>(labels());
    labels.replaceAll(l -> l.equals("reflective") ? "dynamic" : l);
    // the generic tree holds an enum as the dataset's canonical value, its ordinal
    labels.replaceAll(l -> l.equals("enum-as-name") ? "enum-as-ordinal" : l);
    return new JacksonSerializer(
        name() + "-dynamic",
        format(),
        library(),
        version(),
        labels,
        packages(),
        mapper,
        wrapLists,
        true);
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
        jacksonLabels("text"),
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
        jacksonLabels("binary"),
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
        jacksonLabels("text", "runtime-names"),
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
        jacksonLabels("binary"),
        List.of("org/msgpack/"),
        () -> configure(new ObjectMapper(msgpackFactory())),
        false);
  }

  /** BSON documents must be objects: a list message is written as {"items": [...]}. */
  public static JacksonSerializer bson() {
    return new JacksonSerializer(
        "bson",
        "bson",
        "de.undercouch:bson4jackson",
        libVersion("bson4jackson") + " (jackson " + JACKSON + ")",
        jacksonLabels("binary"),
        List.of("de/undercouch/bson4jackson/"),
        () -> configure(new ObjectMapper(new BsonFactory())),
        true);
  }

  /** Reads the MessagePack timestamp extension (type -1) as an Instant in generic trees. */
  private static MessagePackFactory msgpackFactory() {
    ExtensionTypeCustomDeserializers ext = new ExtensionTypeCustomDeserializers();
    ext.addCustomDeser((byte) -1, JacksonSerializer::msgpackTimestamp);
    return new MessagePackFactory().setExtTypeCustomDesers(ext);
  }

  /** The three layouts of the MessagePack timestamp extension. */
  private static Instant msgpackTimestamp(byte[] d) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(d);
    switch (d.length) {
      case 4:
        return Instant.ofEpochSecond(Integer.toUnsignedLong(b.getInt()));
      case 8:
        {
          long v = b.getLong();
          return Instant.ofEpochSecond(v & 0x3FFFFFFFFL, v >>> 34);
        }
      case 12:
        {
          int nanos = b.getInt();
          return Instant.ofEpochSecond(b.getLong(), Integer.toUnsignedLong(nanos));
        }
      default:
        throw new IOException("bad MessagePack timestamp of " + d.length + " bytes");
    }
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

  /** The holder of a user dataset's message that is not a record or map, in BSON. */
  public static final class Value<T> {
    public T value;
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    return dynamic
        ? "user datasets only: on the built-in datasets " + typedName + " reads the model classes"
        : null;
  }

  @Override
  public boolean typedUser() {
    return !dynamic;
  }

  @Override
  public String userNotApplicable() {
    return format.equals("xml")
        ? "jackson-xml: XML cannot carry the types' null, empty and nested values apart (an empty"
            + " list and a missing one both read back as null, lists become repeated elements, map"
            + " keys must be XML names); on user data use jackson-json"
        : null;
  }

  /**
   * The mapper for generic trees: timestamps as the format's date-time type where it has one
   * (MessagePack timestamp extension, BSON UTC datetime), else epoch milliseconds; bytes as the
   * format's binary type (JSON: base64 text).
   */
  private ObjectMapper userMapper() {
    ObjectMapper m = mapper.get();
    if (format.equals("msgpack")) {
      m.registerModule(TimestampExtensionModule.INSTANCE);
      // the factory reads the timestamp extension as an Instant already (msgpackFactory)
      SimpleModule read = new SimpleModule("serbench-msgpack-instant");
      read.addDeserializer(
          Instant.class,
          new JsonDeserializer<Instant>() {
            @Override
            public Instant deserialize(JsonParser p, DeserializationContext c) throws IOException {
              Object v = p.getEmbeddedObject();
              if (v instanceof Instant) {
                return (Instant) v;
              }
              throw new IOException("expected the MessagePack timestamp extension, got " + v);
            }
          });
      m.registerModule(read);
    } else if (format.equals("bson")) {
      SimpleModule time = new SimpleModule("serbench-bson-datetime");
      time.addSerializer(
          Instant.class,
          new JsonSerializer<Instant>() {
            @Override
            public void serialize(Instant v, JsonGenerator g, SerializerProvider p)
                throws IOException {
              ((BsonGenerator) g).writeDateTime(Date.from(v));
            }
          });
      time.addDeserializer(
          Instant.class,
          new JsonDeserializer<Instant>() {
            @Override
            public Instant deserialize(JsonParser p, DeserializationContext c) throws IOException {
              Object v = p.getEmbeddedObject();
              return v instanceof Date
                  ? ((Date) v).toInstant()
                  : Instant.ofEpochMilli(p.getValueAsLong());
            }
          });
      m.registerModule(time);
    }
    return m;
  }

  /** Why a value cannot be written in this format, with its path; null when all can. */
  private String uncarried(Dataset data) {
    Predicate<Object> p;
    String why;
    switch (format) {
      case "msgpack":
        p = UserTypes.integerOutside(UserTypes.MIN_INT64, UserTypes.MAX_UINT64);
        why = "is outside MessagePack's integers (int64 / uint64)";
        break;
      case "bson":
        p = UserTypes.integerOutside(UserTypes.MIN_INT64, UserTypes.MAX_INT64);
        why = "is outside BSON's int64";
        break;
      default:
        return null;
    }
    for (int i = 0; i < data.items.size(); i++) {
      Object[] hit = {null};
      Object tree = data.checkable(data.items.get(i));
      String at =
          UserTypes.find(
              tree,
              v -> {
                if (p.test(v)) {
                  hit[0] = v;
                  return true;
                }
                return false;
              },
              "$[" + i + "]");
      if (at != null) {
        return format + ": " + hit[0] + " at " + at + " " + why;
      }
      if (format.equals("bson")) {
        String k = UserTypes.find(tree, JacksonSerializer::hasNulKey, "$[" + i + "]");
        if (k != null) {
          return "bson: a map key with a NUL character at " + k + " (BSON keys are C strings)";
        }
      }
    }
    return null;
  }

  private static boolean hasNulKey(Object v) {
    if (v instanceof Map) {
      for (Object k : ((Map<?, ?>) v).keySet()) {
        if (String.valueOf(k).indexOf('\0') >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) throws NotApplicableException {
    String reason = uncarried(data);
    if (reason != null) {
      throw new NotApplicableException(reason);
    }
    ObjectMapper m = userMapper();
    if (!dynamic) {
      return typedCodec(m, data);
    }
    ObjectWriter writer = m.writerFor(Object.class);
    ObjectReader reader = m.readerFor(Object.class);
    UserTypes types = data.types;
    Function<Object, Instant> dates = v -> v instanceof Instant ? (Instant) v : null;
    // a BSON root must be a document: other messages are written as {"value": message}
    boolean wrap =
        wrapLists
            && types.message.kind != UserTypes.Kind.RECORD
            && types.message.kind != UserTypes.Kind.MAP;
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws IOException {
        if (wrap) {
          writer.writeValue(out, Collections.singletonMap("value", message));
        } else {
          writer.writeValue(out, message);
        }
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws IOException {
        Object v = reader.readValue(buf, off, len);
        if (wrap) {
          v = ((Map<?, ?>) v).get("value");
        }
        return types.apply(v, "$", dates);
      }
    };
  }

  /** A user dataset's generated classes; a BSON root that is not a record or map is wrapped. */
  private Codec typedCodec(ObjectMapper m, Dataset data) {
    JavaType type = m.getTypeFactory().constructType(data.model.javaType());
    boolean wrap =
        wrapLists
            && data.types.message.kind != UserTypes.Kind.RECORD
            && data.types.message.kind != UserTypes.Kind.MAP;
    if (wrap) {
      type = m.getTypeFactory().constructParametricType(Value.class, type);
    }
    ObjectWriter writer = m.writerFor(type);
    ObjectReader reader = m.readerFor(type);
    return new Codec() {
      @Override
      @SuppressWarnings({"unchecked", "rawtypes"})
      public void encode(Object message, Buf out) throws IOException {
        if (wrap) {
          Value holder = new Value();
          holder.value = message;
          writer.writeValue(out, holder);
        } else {
          writer.writeValue(out, message);
        }
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws IOException {
        Object v = reader.readValue(buf, off, len);
        return wrap ? ((Value<?>) v).value : v;
      }
    };
  }

  @Override
  public Codec codec(DatasetKind kind) {
    ObjectMapper m = mapper.get();
    JavaType type = m.getTypeFactory().constructType(kind.type);
    boolean wrap = wrapLists && type.isCollectionLikeType();
    if (wrap) {
      // the list's element type, from the generated model's message type
      type = m.getTypeFactory().constructParametricType(Items.class, type.getContentType());
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
