package serbench.lib;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.flatbuffers.FlexBuffers;
import com.google.flatbuffers.FlexBuffers.Reference;
import com.google.flatbuffers.FlexBuffersBuilder;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.harness.Buf;
import serbench.harness.Codec;
import serbench.harness.Dataset;
import serbench.harness.DatasetKind;
import serbench.harness.FlexBuffersGlue;
import serbench.harness.FlexBuffersWriter;
import serbench.harness.NotApplicableException;
import serbench.harness.Serializer;
import serbench.harness.UserTypes;
import serbench.harness.UserTypes.Type;

/**
 * FlexBuffers (FlatBuffers' schemaless format, flatbuffers-java's FlexBuffersBuilder and reader):
 * every record a map keyed by field name, enums as their symbol, timestamps as int64 epoch ms.
 * Decode is a full decode into the model objects (built-in datasets) or the typed generic tree
 * (user datasets, read back through the declared types).
 */
public final class FlexBuffersSerializer extends Serializer {
  public FlexBuffersSerializer() {
    super(
        "flexbuffers",
        "flexbuffers",
        "com.google.flatbuffers:flatbuffers-java",
        libVersion("flatbuffers"),
        List.of("binary", "schemaless", "map-layout", "copying-decode", "enum-as-ordinal"),
        List.of("com/google/flatbuffers/"));
  }

  @Override
  public String userNotApplicable() {
    return null;
  }

  // ---- the codec frame: one reused builder, one message per buffer ---------------------------

  private interface Writer {
    void write(FlexBuffersBuilder b, Object message) throws NotApplicableException;
  }

  private interface Reader {
    Object read(Reference root);
  }

  private static Codec codec(Writer writer, Reader reader) {
    FlexBuffersBuilder b = new FlexBuffersBuilder(1 << 16);
    return new Codec() {
      @Override
      public void encode(Object message, Buf out) throws NotApplicableException {
        b.clear();
        writer.write(b, message);
        ByteBuffer bytes = b.finish();
        int n = bytes.remaining();
        out.ensure(n);
        System.arraycopy(bytes.array(), bytes.position(), out.array(), out.size(), n);
        out.advance(n);
      }

      @Override
      public Object decode(byte[] buf, int off, int len) {
        return reader.read(FlexBuffers.getRoot(ByteBuffer.wrap(buf, off, len)));
      }
    };
  }

  // ---- built-in datasets: the glue TypeGen generated from each message's types -------------

  @Override
  public Codec codec(DatasetKind kind) throws Exception {
    FlexBuffersGlue glue = kind.glue(FlexBuffersGlue.class, "FlexBuffers");
    if (glue == null) {
      // types TypeGen writes no glue for (it said why): the typed tree, as for a user dataset
      return overTree(kind.model(), treeCodec(types(kind)));
    }
    return codec(glue::write, glue::read);
  }

  // ---- user datasets: the typed generic tree, walked with its declared types -----------------

  private static Codec treeCodec(UserTypes types) {
    return codec(
        (b, m) -> put(b, null, types.message, m, null), r -> types.apply(generic(r), "$", null));
  }

  @Override
  public Codec userCodec(Dataset data, JsonNode schemas) throws NotApplicableException {
    UserTypes types = data.types;
    Codec c = treeCodec(types);
    // outside timing: a value FlexBuffers cannot carry is not applicable, with its path
    FlexBuffersBuilder b = new FlexBuffersBuilder();
    for (int i = 0; i < data.items.size(); i++) {
      b.clear();
      put(b, null, types.message, data.items.get(i), "$[" + i + "]");
    }
    return c;
  }

  private static NotApplicableException cannot(String what, String path) {
    return new NotApplicableException("flexbuffers: " + what + " at " + path);
  }

  /**
   * Writes {@code v} as type {@code t}. {@code path} is null inside timing: every message was
   * written once with its paths at {@code userCodec}, where a value that cannot be carried says so.
   */
  private static void put(FlexBuffersBuilder b, String key, Type t, Object v, String path)
      throws NotApplicableException {
    if (key != null && key.indexOf('\0') >= 0) {
      throw cannot("key with NUL", path);
    }
    switch (t.kind) {
      case OPTIONAL:
        if (v == null) {
          FlexBuffersWriter.putNull(b, key);
        } else {
          put(b, key, t.elem, v, path);
        }
        return;
      case NULL:
        FlexBuffersWriter.putNull(b, key);
        return;
      case INT32:
      case INT64:
        b.putInt(key, ((Number) v).longValue());
        return;
      case TIMESTAMP:
        b.putInt(key, ((Instant) v).toEpochMilli());
        return;
      case UINT32:
        FlexBuffersWriter.putUInt(b, key, ((Number) v).longValue());
        return;
      case UINT64:
        // a BigInteger above 2^63-1 keeps its 64 bits in the long
        FlexBuffersWriter.putUInt(b, key, ((Number) v).longValue());
        return;
      case BIGINT:
        throw cannot(v + " (bigint: FlexBuffers integers are 64-bit)", path);
      case FLOAT32:
        b.putFloat(key, ((Number) v).floatValue());
        return;
      case FLOAT64:
        b.putFloat(key, ((Number) v).doubleValue());
        return;
      case BOOL:
        b.putBoolean(key, (Boolean) v);
        return;
      case STRING:
        b.putString(key, (String) v);
        return;
      case BYTES:
        b.putBlob(key, (byte[]) v);
        return;
      case ENUM:
        b.putString(key, t.symbols.get((Integer) v));
        return;
      case ANY:
        putAny(b, key, v, path);
        return;
      case LIST:
        {
          int s = FlexBuffersWriter.startVector(b, key);
          int i = 0;
          for (Object e : (List<?>) v) {
            put(b, null, t.elem, e, path == null ? null : path + "[" + i + "]");
            i++;
          }
          b.endVector(key, s, false, false);
          return;
        }
      case MAP:
        {
          int s = FlexBuffersWriter.startMap(b, key);
          for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            String k = (String) e.getKey();
            put(b, k, t.elem, e.getValue(), path == null ? null : path + UserTypes.key(k));
          }
          b.endMap(key, s);
          return;
        }
      case RECORD:
        {
          Map<?, ?> m = (Map<?, ?>) v;
          int s = FlexBuffersWriter.startMap(b, key);
          for (int i = 0; i < t.fields.size(); i++) {
            String f = t.fields.get(i);
            put(
                b,
                f,
                t.fieldTypes.get(i),
                m.get(f),
                path == null ? null : path + UserTypes.field(f));
          }
          b.endMap(key, s);
          return;
        }
      default:
        throw new IllegalStateException(t.kind.name());
    }
  }

  private static void putAny(FlexBuffersBuilder b, String key, Object v, String path)
      throws NotApplicableException {
    if (key != null && key.indexOf('\0') >= 0) {
      throw cannot("key with NUL", path);
    }
    if (v == null) {
      FlexBuffersWriter.putNull(b, key);
    } else if (v instanceof Boolean) {
      b.putBoolean(key, (Boolean) v);
    } else if (v instanceof BigInteger) {
      throw cannot(v + " (beyond int64)", path);
    } else if (v instanceof Long || v instanceof Integer) {
      b.putInt(key, ((Number) v).longValue());
    } else if (v instanceof Number) {
      b.putFloat(key, ((Number) v).doubleValue());
    } else if (v instanceof String) {
      b.putString(key, (String) v);
    } else if (v instanceof List) {
      int s = FlexBuffersWriter.startVector(b, key);
      int i = 0;
      for (Object e : (List<?>) v) {
        putAny(b, null, e, path == null ? null : path + "[" + i + "]");
        i++;
      }
      b.endVector(key, s, false, false);
    } else {
      int s = FlexBuffersWriter.startMap(b, key);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        String k = (String) e.getKey();
        putAny(b, k, e.getValue(), path == null ? null : path + UserTypes.key(k));
      }
      b.endMap(key, s);
    }
  }

  /** FlexBuffers' own tree as Java values; {@link UserTypes#apply} then applies the types. */
  private static Object generic(Reference r) {
    if (r.isNull()) {
      return null;
    }
    if (r.isBoolean()) {
      return r.asBoolean();
    }
    if (r.isUInt()) {
      return r.asUInt(); // uint64 above 2^63-1 comes back negative: apply() restores it
    }
    if (r.isInt()) {
      return r.asLong();
    }
    if (r.isFloat()) {
      return r.asFloat();
    }
    if (r.isString()) {
      return r.asString();
    }
    if (r.isBlob()) {
      return r.asBlob().getBytes();
    }
    if (r.isMap()) {
      FlexBuffers.Map m = r.asMap();
      FlexBuffers.KeyVector keys = m.keys();
      FlexBuffers.Vector values = m.values();
      LinkedHashMap<String, Object> out = new LinkedHashMap<>();
      for (int i = 0; i < keys.size(); i++) {
        out.put(keys.get(i).toString(), generic(values.get(i)));
      }
      return out;
    }
    if (r.isVector()) {
      FlexBuffers.Vector v = r.asVector();
      ArrayList<Object> out = new ArrayList<>(v.size());
      for (int i = 0; i < v.size(); i++) {
        out.add(generic(v.get(i)));
      }
      return out;
    }
    throw new IllegalArgumentException("flexbuffers: unexpected value of type " + r.getType());
  }
}
