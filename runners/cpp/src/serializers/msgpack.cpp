// msgpack-c (C++): the seed's layout — records as arrays in field order, enum as ordinal,
// timestamps as int64 ms, S2 Test3 as a bare str. Two rows:
//   msgpack          unpack (strings referenced) + convert into owning native structs
//   msgpack-zerocopy unpack into a reused zone; str objects point into the input buffer
#include <msgpack.hpp>

#include "../harness/serializer.h"

namespace sb {
namespace {

struct Writer {
  Bytes* out;
  void write(const char* p, size_t n) { append(*out, p, n); }
};
using Packer = msgpack::packer<Writer>;

template <class T>
void pack(Packer& pk, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    v ? pk.pack_true() : pk.pack_false();
  } else if constexpr (std::is_enum_v<T>) {
    pk.pack(static_cast<int32_t>(v));
  } else if constexpr (std::is_integral_v<T>) {
    pk.pack(v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    pk.pack_str(static_cast<uint32_t>(v.size()));
    pk.pack_str_body(v.data(), static_cast<uint32_t>(v.size()));
  } else if constexpr (is_timestamp_v<T>) {
    pk.pack(static_cast<int64_t>(v.time_since_epoch().count()));
  } else if constexpr (std::is_same_v<T, Test3>) {
    pack(pk, v.s);  // the seed wrote Test3 as a bare string
  } else if constexpr (is_vector<T>::value) {
    pk.pack_array(static_cast<uint32_t>(v.size()));
    for (const auto& x : v) pack(pk, x);
  } else if constexpr (is_map<T>::value) {
    pk.pack_map(static_cast<uint32_t>(v.size()));
    for (const auto& [k, x] : v) pack(pk, k), pack(pk, x);
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
  } else if constexpr (std::is_same_v<T, Test3>) {
    convert(o, v.s);
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
  } else {
    if (o.type != object_type::ARRAY || o.via.array.size != field_count<T>()) bad("record array");
    const msgpack::object* f = o.via.array.ptr;
    for_each_field(v, [&](const char*, auto& m) { convert(*f++, m); });
  }
}

bool reference_all(msgpack::type::object_type, std::size_t, void*) { return true; }

struct Base {
  static constexpr bool self_delimiting = true;
  msgpack::zone zone;
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
                {"binary", "schemaless", "copying-decode", "positional"},
                std::nullopt})
SB_REGISTER_FN(reg_msgpack_zerocopy, ZeroCopy,
               {"msgpack-zerocopy",
                "msgpack",
                "msgpack-c (C++)",
                MSGPACK_VERSION,
                {"binary", "schemaless", "zero-copy-decode", "positional"},
                std::nullopt})
}  // namespace sb
