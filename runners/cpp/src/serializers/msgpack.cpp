// msgpack-c (C++): the positional layout the python, node and go runners share — records as
// arrays in field order, a record of one field as that field's bare value, enum as ordinal,
// timestamps as int64 ms. Two rows:
//   msgpack          unpack (strings referenced) + convert into owning native structs
//   msgpack-zerocopy unpack into a reused zone; str objects point into the input buffer
#include <cstring>
#include <msgpack.hpp>

#include "../harness/serializer.h"
#include "../harness/user.h"

namespace sb {
namespace {

struct Writer {
  Bytes* out;
  void write(const char* p, size_t n) { append(*out, p, n); }
};
using Packer = msgpack::packer<Writer>;

// A record of one field is written as that field's value, not an array of one (S2's string
// message is a bare str, 8,195 B, as in the seed).
template <class T>
constexpr bool bare_record_v = field_count<T>() == 1;
template <class T>
auto& only_field(T& v) {
  return v.*(std::get<0>(std::remove_const_t<T>::fields()).ptr);
}

template <class T>
void pack(Packer& pk, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    v ? pk.pack_true() : pk.pack_false();
  } else if constexpr (std::is_enum_v<T>) {
    pk.pack(static_cast<int32_t>(v));
  } else if constexpr (std::is_integral_v<T>) {
    pk.pack(v);
  } else if constexpr (std::is_same_v<T, float>) {
    pk.pack_float(v);  // float32 (msgpack-c writes an integral value as an integer)
  } else if constexpr (std::is_floating_point_v<T>) {
    pk.pack_double(v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    pk.pack_str(static_cast<uint32_t>(v.size()));
    pk.pack_str_body(v.data(), static_cast<uint32_t>(v.size()));
  } else if constexpr (is_timestamp_v<T>) {
    pk.pack(static_cast<int64_t>(v.time_since_epoch().count()));
  } else if constexpr (is_vector<T>::value) {
    pk.pack_array(static_cast<uint32_t>(v.size()));
    for (const auto& x : v) pack(pk, x);
  } else if constexpr (is_map<T>::value) {
    pk.pack_map(static_cast<uint32_t>(v.size()));
    for (const auto& [k, x] : v) pack(pk, k), pack(pk, x);
  } else if constexpr (bare_record_v<T>) {
    pack(pk, only_field(v));
  } else {
    pk.pack_array(static_cast<uint32_t>(field_count<T>()));
    for_each_field(v, [&](const char*, const auto& m) { pack(pk, m); });
  }
}

[[noreturn]] void bad(const char* what) {
  throw DecodeError(std::string("msgpack: expected ") + what);
}

template <class T>
void convert(const msgpack::object& o, T& v) {
  using msgpack::type::object_type;
  if constexpr (std::is_same_v<T, bool>) {
    if (o.type != object_type::BOOLEAN) bad("bool");
    v = o.via.boolean;
  } else if constexpr (std::is_enum_v<T>) {
    int32_t i;
    convert(o, i);
    v = static_cast<T>(i);
  } else if constexpr (std::is_integral_v<T>) {
    if (o.type == object_type::POSITIVE_INTEGER) {
      v = static_cast<T>(o.via.u64);
    } else if (o.type == object_type::NEGATIVE_INTEGER) {
      v = static_cast<T>(o.via.i64);
    } else {
      bad("integer");
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    if (o.type == object_type::FLOAT32 || o.type == object_type::FLOAT64) {
      v = static_cast<T>(o.via.f64);
    } else if (o.type == object_type::POSITIVE_INTEGER) {  // how msgpack-c packs 1.0
      v = static_cast<T>(o.via.u64);
    } else if (o.type == object_type::NEGATIVE_INTEGER) {
      v = static_cast<T>(o.via.i64);
    } else {
      bad("float");
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (o.type != object_type::STR) bad("str");
    v.assign(o.via.str.ptr, o.via.str.size);
  } else if constexpr (is_timestamp_v<T>) {
    if (o.type == object_type::EXT && o.via.ext.type() == -1) {
      // the MessagePack timestamp extension (written by other runners; we write int64 ms)
      const auto* b = reinterpret_cast<const uint8_t*>(o.via.ext.data());
      auto be = [&](size_t off, size_t n) {
        uint64_t x = 0;
        for (size_t i = 0; i < n; ++i) x = x << 8 | b[off + i];
        return x;
      };
      int64_t sec = 0, nsec = 0;
      if (o.via.ext.size == 4) {
        sec = static_cast<int64_t>(be(0, 4));
      } else if (o.via.ext.size == 8) {
        uint64_t x = be(0, 8);
        nsec = static_cast<int64_t>(x >> 34), sec = static_cast<int64_t>(x & ((1ull << 34) - 1));
      } else if (o.via.ext.size == 12) {
        nsec = static_cast<int64_t>(be(0, 4)), sec = static_cast<int64_t>(be(4, 8));
      } else {
        bad("timestamp extension");
      }
      v = Timestamp(std::chrono::milliseconds(sec * 1000 + nsec / 1000000));
      return;
    }
    int64_t ms;
    convert(o, ms);
    v = Timestamp(std::chrono::milliseconds(ms));
  } else if constexpr (is_vector<T>::value) {
    if (o.type != object_type::ARRAY) bad("array");
    v.resize(o.via.array.size);
    for (uint32_t i = 0; i < o.via.array.size; ++i) convert(o.via.array.ptr[i], v[i]);
  } else if constexpr (is_map<T>::value) {
    if (o.type != object_type::MAP) bad("map");
    v.clear();
    for (uint32_t i = 0; i < o.via.map.size; ++i) {
      std::string k;
      convert(o.via.map.ptr[i].key, k);
      convert(o.via.map.ptr[i].val, v[std::move(k)]);
    }
  } else if constexpr (bare_record_v<T>) {
    convert(o, only_field(v));
  } else {
    if (o.type != object_type::ARRAY || o.via.array.size != field_count<T>()) bad("record array");
    const msgpack::object* f = o.via.array.ptr;
    for_each_field(v, [&](const char*, auto& m) { convert(*f++, m); });
  }
}

bool reference_all(msgpack::type::object_type, std::size_t, void*) { return true; }

// ---- user datasets: the generic value tree (maps keyed by name, bin for bytes, the
// timestamp extension for date-times, float32 where declared)

// msgpack-c's pack_float / pack_double write an integral value as an integer (2.0 -> 2,
// -0.0 -> 0), which loses a declared float; a user value is written as float 32 / float 64.
template <class To, class From>
To bits_of(From x) {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(&t, &x, sizeof t);
  return t;
}

template <class Bits>
void pack_float_bits(Bytes& out, uint8_t marker, Bits bits) {
  char b[1 + sizeof(Bits)];
  b[0] = static_cast<char>(marker);
  for (size_t i = 0; i < sizeof(Bits); ++i)
    b[1 + i] = static_cast<char>(bits >> (8 * (sizeof(Bits) - 1 - i)));  // big-endian
  append(out, b, sizeof b);
}

void pack_exact_float(Bytes& out, const Value& v) {
  if (v.f32) {
    pack_float_bits(out, 0xca, bits_of<uint32_t>(static_cast<float>(v.f)));
  } else {
    pack_float_bits(out, 0xcb, bits_of<uint64_t>(v.f));
  }
}

void pack_value(Packer& pk, Bytes& out, const Value& v) {
  switch (v.k) {
    case Value::K::Null:
      pk.pack_nil();
      break;
    case Value::K::Bool:
      v.b ? pk.pack_true() : pk.pack_false();
      break;
    case Value::K::Int:
      pk.pack(v.i);
      break;
    case Value::K::Uint:
      pk.pack(v.u);
      break;
    case Value::K::Float:
      pack_exact_float(out, v);  // the packer writes through to `out` unbuffered
      break;
    case Value::K::String:
      pk.pack_str(static_cast<uint32_t>(v.s.size()));
      pk.pack_str_body(v.s.data(), static_cast<uint32_t>(v.s.size()));
      break;
    case Value::K::Bytes:
      pk.pack_bin(static_cast<uint32_t>(v.s.size()));
      pk.pack_bin_body(v.s.data(), static_cast<uint32_t>(v.s.size()));
      break;
    case Value::K::Timestamp: {  // timestamp 96: nanoseconds u32, seconds i64, big-endian
      int64_t sec = v.i / 1000, ms = v.i % 1000;
      if (ms < 0) ms += 1000, sec -= 1;
      uint32_t ns = static_cast<uint32_t>(ms * 1000000);
      char b[12];
      for (int i = 0; i < 4; ++i) b[i] = static_cast<char>(ns >> (24 - 8 * i));
      for (int i = 0; i < 8; ++i)
        b[4 + i] = static_cast<char>(static_cast<uint64_t>(sec) >> (56 - 8 * i));
      pk.pack_ext(12, -1);
      pk.pack_ext_body(b, 12);
      break;
    }
    case Value::K::Array:
      pk.pack_array(static_cast<uint32_t>(v.a.size()));
      for (const auto& x : v.a) pack_value(pk, out, x);
      break;
    case Value::K::Object:
      pk.pack_map(static_cast<uint32_t>(v.o.size()));
      for (const auto& [k, x] : v.o) {
        pk.pack_str(static_cast<uint32_t>(k.size()));
        pk.pack_str_body(k.data(), static_cast<uint32_t>(k.size()));
        pack_value(pk, out, x);
      }
      break;
    case Value::K::BigInt:
      throw NotApplicable("msgpack: an integer beyond 64 bits");
  }
}

void convert(const msgpack::object& o, Value& v) {
  using msgpack::type::object_type;
  v = Value{};
  switch (o.type) {
    case object_type::NIL:
      break;
    case object_type::BOOLEAN:
      v.k = Value::K::Bool, v.b = o.via.boolean;
      break;
    case object_type::POSITIVE_INTEGER:
      v = Value::integer(o.via.u64);
      break;
    case object_type::NEGATIVE_INTEGER:
      v = Value::integer(o.via.i64);
      break;
    case object_type::FLOAT32:
      v.k = Value::K::Float, v.f = o.via.f64, v.f32 = true;
      break;
    case object_type::FLOAT64:
      v.k = Value::K::Float, v.f = o.via.f64;
      break;
    case object_type::STR:
      v.k = Value::K::String, v.s.assign(o.via.str.ptr, o.via.str.size);
      break;
    case object_type::BIN:
      v.k = Value::K::Bytes, v.s.assign(o.via.bin.ptr, o.via.bin.size);
      break;
    case object_type::EXT: {
      Timestamp t;
      convert(o, t);
      v.k = Value::K::Timestamp, v.i = t.time_since_epoch().count();
      break;
    }
    case object_type::ARRAY:
      v.k = Value::K::Array;
      v.a.resize(o.via.array.size);
      for (uint32_t i = 0; i < o.via.array.size; ++i) convert(o.via.array.ptr[i], v.a[i]);
      break;
    case object_type::MAP:
      v.k = Value::K::Object;
      v.o.resize(o.via.map.size);
      for (uint32_t i = 0; i < o.via.map.size; ++i) {
        convert(o.via.map.ptr[i].key, v.o[i].first);
        convert(o.via.map.ptr[i].val, v.o[i].second);
      }
      break;
  }
}

struct Base {
  static constexpr bool self_delimiting = true;
  static constexpr bool user_data = true;
  msgpack::zone zone;
  void encode(const Value& v, Bytes& out) {
    Writer w{&out};
    Packer pk(w);
    pack_value(pk, out, v);
  }
  std::string reject(const Value& v) {
    return find_value(v, "$", [](const Value& x) {
      return x.k == Value::K::BigInt ? "msgpack: " + x.s + " exceeds 64 bits" : std::string();
    });
  }
  template <class T>
  void encode(const T& v, Bytes& out) {
    Writer w{&out};
    Packer pk(w);
    pack(pk, v);
  }
  msgpack::object unpack(const uint8_t* p, size_t n, size_t& off) {
    zone.clear();
    off = 0;
    return msgpack::unpack(zone, reinterpret_cast<const char*>(p), n, off, reference_all);
  }
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    size_t off;
    convert(unpack(p, n, off), out);
    return off;
  }
};

struct Copying : Base {};
struct ZeroCopy : Base {
  template <class T>
  size_t access(const T*, const uint8_t* p, size_t n, uint64_t& sink) {
    size_t off;
    msgpack::object o = unpack(p, n, off);
    sink += o.type;
    return off;
  }
};

}  // namespace

SB_REGISTER_FN(reg_msgpack, Copying,
               {"msgpack",
                "msgpack",
                "msgpack-c (C++)",
                MSGPACK_VERSION,
                {"binary", "schemaless", "copying-decode", "positional", "enum-as-ordinal",
                 "timestamp-as-number"},
                std::nullopt})
SB_REGISTER_FN(reg_msgpack_zerocopy, ZeroCopy,
               {"msgpack-zerocopy",
                "msgpack",
                "msgpack-c (C++)",
                MSGPACK_VERSION,
                {"binary", "schemaless", "zero-copy-decode", "borrowed-strings", "positional",
                 "enum-as-ordinal", "timestamp-as-number"},
                std::nullopt})
}  // namespace sb
