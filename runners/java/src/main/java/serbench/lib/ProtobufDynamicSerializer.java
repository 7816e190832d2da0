package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.harness.UserTypes;
import serbench.harness.UserTypes.Kind;
import serbench.harness.UserTypes.Type;

/**
 * protobuf-java's DynamicMessage, for user datasets: descriptors from the dataset's compiled
 * FileDescriptorSet, no generated code. Record field k is proto field number k; a message that is
 * not a record is wrapped in {@code Root.value} (protocol section 7).
 */
public final class ProtobufDynamicSerializer extends Serializer {
  public ProtobufDynamicSerializer() {
    super(
        "protobuf-dynamic",
        "protobuf",
        "com.google.protobuf:protobuf-java",
        libVersion("protobuf"),
        List.of("binary", "schema-required", "copying-decode", "dynamic"),
        List.of("com/google/protobuf/"));
  }

  @Override
  public String notApplicable(DatasetKind kind) {
    return "protobuf-dynamic serves user datasets; the built-in datasets use generated code"
        + " (serializer protobuf)";
  }

  @Override
  public Codec codec(DatasetKind kind) throws NotApplicableException {
    throw new NotApplicableException(notApplicable(kind));
  }

  @Override
  public String userNotApplicable() {
    return null;
  }

  private static FileDescriptor build(
      String name, Map<String, FileDescriptorProto> protos, Map<String, FileDescriptor> built)
      throws Exception {
    FileDescriptor f = built.get(name);
    if (f != null) {
      return f;
    }
    FileDescriptorProto p = protos.get(name);
    if (p == null) {
      throw new IOException("descriptor set lacks " + name);
    }
    List<FileDescriptor> deps = new ArrayList<>();
    for (String d : p.getDependencyList()) {
      deps.add(build(d, protos, built));
    }
    f = FileDescriptor.buildFrom(p, deps.toArray(new FileDescriptor[0]));
    built.put(name, f);
    return f;
  }

  private static Descriptor find(FileDescriptorSet set, String message) throws Exception {
    Map<String, FileDescriptorProto> protos = new HashMap<>();
    for (FileDescriptorProto p : set.getFileList()) {
      protos.put(p.getName(), p);
    }
    Map<String, FileDescriptor> built = new HashMap<>();
    for (String name : protos.keySet()) {
      FileDescriptor f = build(name, protos, built);
      for (Descriptor d : f.getMessageTypes()) {
        if (d.getName().equals(message) || d.getFullName().equals(message)) {
          return d;
        }
      }
    }
    throw new NotApplicableException(
        "protobuf: message '" + message + "' is not in the dataset's descriptor set");
  }

  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) throws Exception {
    JsonNode proto =
        userSchema(
            schemas,
            "proto",
            "descriptor_set",
            "protobuf-dynamic: the dataset has no compiled descriptor_set for its .proto");
    Type type = data.types.message;
    boolean wrapped = type.kind != Kind.RECORD;
    String name = proto.path("message").asText(wrapped ? "Root" : type.name);
    Descriptor root =
        find(
            FileDescriptorSet.parseFrom(
                Files.readAllBytes(Path.of(proto.get("descriptor_set").asText()))),
            name);
    Message prototype = DynamicMessage.getDefaultInstance(root);
    FieldDescriptor value = wrapped ? field(root, 0, "$") : null;
    for (int i = 0; i < data.items.size(); i++) {
      toMessage(type, prototype.newBuilderForType(), value, data.items.get(i), "$[" + i + "]");
    }
    return codec(type, prototype, value);
  }

  /**
   * A codec for a built-in dataset without hand-written conversions: protoc's generated classes for
   * its family's .proto ({@code serbench.proto.<Family>Proto}), filled and read through protobuf's
   * reflection API (record field k is field number k), on the typed generic tree.
   */
  static Codec generated(String family, UserTypes types) throws Exception {
    StringBuilder outer = new StringBuilder("serbench.proto.");
    for (String part : family.split("-")) {
      outer.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    Type type = types.message;
    boolean wrapped = type.kind != Kind.RECORD;
    String name = outer + "Proto$" + (wrapped ? "Root" : type.name);
    Message prototype;
    try {
      prototype = (Message) Class.forName(name).getMethod("getDefaultInstance").invoke(null);
    } catch (ClassNotFoundException e) {
      throw new NotApplicableException("protobuf: no class " + name + " generated by protoc");
    }
    FieldDescriptor value = wrapped ? field(prototype.getDescriptorForType(), 0, "$") : null;
    return codec(type, prototype, value);
  }

  /**
   * A codec for a user dataset with a typed model: protoc's classes generated at build time from
   * the dataset's .proto into {@code serbench.typed.t<sha>.pb.SerbenchProto} (TypeGen copies the
   * .proto with that java_package), filled and read through protobuf's reflection API on the typed
   * generic tree. Every item is converted once here, so a value the schema cannot carry is not
   * applicable with its path.
   */
  static Codec generatedUser(Dataset data, JsonNode proto) throws Exception {
    Type type = data.types.message;
    boolean wrapped = type.kind != Kind.RECORD;
    String name = proto.path("message").asText(wrapped ? "Root" : type.name);
    name = name.substring(name.lastIndexOf('.') + 1);
    String cls = data.model.getClass().getPackageName() + ".pb.SerbenchProto$" + name;
    Message prototype;
    try {
      prototype = (Message) Class.forName(cls).getMethod("getDefaultInstance").invoke(null);
    } catch (ClassNotFoundException e) {
      throw new NotApplicableException(
          "protobuf: no class "
              + cls
              + " generated by protoc for this dataset's .proto: run `serbench build -r java`");
    }
    FieldDescriptor value = wrapped ? field(prototype.getDescriptorForType(), 0, "$") : null;
    for (int i = 0; i < data.items.size(); i++) {
      toMessage(
          type,
          prototype.newBuilderForType(),
          value,
          data.model.toTree(data.items.get(i)),
          "$[" + i + "]");
    }
    return codec(type, prototype, value);
  }

  private static Codec codec(Type type, Message prototype, FieldDescriptor value) {
    Parser<? extends Message> parser = prototype.getParserForType();
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws IOException {
        Message p;
        try {
          p = toMessage(type, prototype.newBuilderForType(), value, message, "$");
        } catch (NotApplicableException e) {
          throw new IOException(e.getMessage());
        }
        int n = p.getSerializedSize();
        out.ensure(n);
        CodedOutputStream c = CodedOutputStream.newInstance(out.array(), out.size(), n);
        p.writeTo(c);
        c.checkNoSpaceLeft();
        out.advance(n);
      }

      @Override
      public Object decode(byte[] buf, int off, int len) throws IOException {
        Message p = parser.parseFrom(buf, off, len);
        return value == null ? fromMessage(type, p) : fromField(type, value, p);
      }
    };
  }

  private static FieldDescriptor field(Descriptor d, int i, String path)
      throws NotApplicableException {
    FieldDescriptor f = d.findFieldByNumber(i + 1);
    if (f == null) {
      throw new NotApplicableException(
          "protobuf: message " + d.getName() + " has no field " + (i + 1) + " for " + path);
    }
    return f;
  }

  private static Message toMessage(
      Type t, Message.Builder b, FieldDescriptor wrappedValue, Object v, String path)
      throws NotApplicableException {
    Descriptor d = b.getDescriptorForType();
    if (wrappedValue != null) {
      setField(b, t, wrappedValue, v, path);
      return b.build();
    }
    if (t.kind != Kind.RECORD) {
      throw new NotApplicableException("protobuf: " + t + " at " + path + " is not a message");
    }
    Map<?, ?> m = (Map<?, ?>) v;
    for (int i = 0; i < t.fields.size(); i++) {
      String f = t.fields.get(i);
      setField(b, t.fieldTypes.get(i), field(d, i, path), m.get(f), path + UserTypes.field(f));
    }
    return b.build();
  }

  private static void setField(Message.Builder b, Type t, FieldDescriptor f, Object v, String path)
      throws NotApplicableException {
    if (t.kind == Kind.OPTIONAL) {
      if (v == null) {
        return;
      }
      t = t.elem;
    }
    if (t.kind == Kind.NULL) {
      // Protocol section 7: a position only ever null is an optional bool that is never set.
      if (v != null) {
        throw new NotApplicableException("protobuf: " + v + " at " + path + " is not null");
      }
      return;
    }
    if (f.isMapField()) {
      if (t.kind != Kind.MAP) {
        throw new NotApplicableException("protobuf: " + t + " at " + path + " is not a map");
      }
      Descriptor entry = f.getMessageType();
      FieldDescriptor kf = entry.findFieldByNumber(1);
      FieldDescriptor vf = entry.findFieldByNumber(2);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        String p = path + UserTypes.key((String) e.getKey());
        Message.Builder eb = b.newBuilderForField(f);
        b.addRepeatedField(
            f,
            eb.setField(kf, e.getKey())
                .setField(vf, value(t.elem, eb, vf, e.getValue(), p))
                .build());
      }
      return;
    }
    if (f.isRepeated()) {
      if (t.kind != Kind.LIST) {
        throw new NotApplicableException("protobuf: " + t + " at " + path + " is not a list");
      }
      int i = 0;
      for (Object e : (List<?>) v) {
        if (t.elem.kind == Kind.NULL) {
          // list<null> is a repeated bool that stays empty: a null element has no encoding.
          throw new NotApplicableException(
              "protobuf: null at " + path + "[" + i + "] in a list (list<null> stays empty)");
        }
        b.addRepeatedField(f, value(t.elem, b, f, e, path + "[" + i++ + "]"));
      }
      return;
    }
    if (v == null) {
      throw new NotApplicableException(
          "protobuf: null at " + path + " in a field without presence");
    }
    b.setField(f, value(t, b, f, v, path));
  }

  /** The value of field {@code f} of {@code parent}'s message (a message from its builder). */
  private static Object value(
      Type t, Message.Builder parent, FieldDescriptor f, Object v, String path)
      throws NotApplicableException {
    if (t.kind == Kind.OPTIONAL) {
      t = t.elem;
    }
    switch (f.getJavaType()) {
      case INT:
        return ((Number) v).intValue();
      case LONG:
        if (v instanceof Instant) {
          return ((Instant) v).toEpochMilli();
        }
        return ((Number) v).longValue();
      case FLOAT:
        return ((Number) v).floatValue();
      case DOUBLE:
        return ((Number) v).doubleValue();
      case BOOLEAN:
      case STRING:
        return v;
      case BYTE_STRING:
        return ByteString.copyFrom((byte[]) v);
      case ENUM:
        {
          List<EnumValueDescriptor> vals = f.getEnumType().getValues();
          int i = (Integer) v;
          if (i >= vals.size()) {
            throw new NotApplicableException("protobuf: enum ordinal " + i + " at " + path);
          }
          return vals.get(i);
        }
      case MESSAGE:
        return toMessage(t, parent.newBuilderForField(f), null, v, path);
      default:
        throw new NotApplicableException("protobuf: " + t + " at " + path);
    }
  }

  private static Object fromMessage(Type t, Message m) {
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    Descriptor d = m.getDescriptorForType();
    for (int i = 0; i < t.fields.size(); i++) {
      out.put(t.fields.get(i), fromField(t.fieldTypes.get(i), d.findFieldByNumber(i + 1), m));
    }
    return out;
  }

  private static Object fromField(Type t, FieldDescriptor f, Message m) {
    if (t.kind == Kind.OPTIONAL || t.kind == Kind.NULL) {
      if (!f.isRepeated() && !m.hasField(f)) {
        return null;
      }
      t = t.kind == Kind.NULL ? t : t.elem;
    }
    if (f.isMapField()) {
      FieldDescriptor kf = f.getMessageType().findFieldByNumber(1);
      FieldDescriptor vf = f.getMessageType().findFieldByNumber(2);
      LinkedHashMap<String, Object> out = new LinkedHashMap<>();
      for (Object e : (List<?>) m.getField(f)) {
        Message entry = (Message) e;
        out.put((String) entry.getField(kf), fromValue(t.elem, entry.getField(vf)));
      }
      return out;
    }
    if (f.isRepeated()) {
      List<?> l = (List<?>) m.getField(f);
      ArrayList<Object> out = new ArrayList<>(l.size());
      for (Object e : l) {
        out.add(fromValue(t.elem, e));
      }
      return out;
    }
    return fromValue(t, m.getField(f));
  }

  private static Object fromValue(Type t, Object x) {
    if (t.kind == Kind.OPTIONAL) {
      t = t.elem;
    }
    switch (t.kind) {
      case UINT32:
        return x instanceof Integer ? Integer.toUnsignedLong((Integer) x) : x;
      case INT32:
        return x instanceof Long ? (Object) ((Long) x).intValue() : x;
      case INT64:
        return x instanceof Integer ? (Object) ((Integer) x).longValue() : x;
      case UINT64:
        {
          long l = ((Number) x).longValue();
          return l >= 0 ? (Object) l : new BigInteger(Long.toUnsignedString(l));
        }
      case TIMESTAMP:
        return Instant.ofEpochMilli((Long) x);
      case BYTES:
        return ((ByteString) x).toByteArray();
      case ENUM:
        return ((EnumValueDescriptor) x).getIndex();
      case RECORD:
        return fromMessage(t, (Message) x);
      default:
        return x;
    }
  }
}
