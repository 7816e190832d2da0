// libbson (MongoDB's C library). Records and maps are documents, lists arrays; a top-level
// list is wrapped as {"items": [...]} (BSON's top level is a document). uint32 and int64
// are int64, int32 and enums int32, timestamps BSON UTC date-time.
#include <bson/bson.h>

#include "../harness/lenient.h"
#include "../harness/serializer.h"
#include "../harness/user.h"

namespace sb {
namespace {

template <class T>
void put(bson_t* d, const char* k, int kl, const T& v);

template <class T>
void put_body(bson_t* d, const T& v) {
  if constexpr (is_vector<T>::value) {
    char buf[16];
    const char* key;
    for (uint32_t i = 0; i < v.size(); ++i) {
      size_t kl = bson_uint32_to_string(i, &key, buf, sizeof buf);
      put(d, key, static_cast<int>(kl), v[i]);
    }
  } else if constexpr (is_map<T>::value) {
    for (const auto& [k, x] : v) put(d, k.data(), static_cast<int>(k.size()), x);
  } else {
    for_each_field(v, [&](const char* name, const auto& m) { put(d, name, -1, m); });
  }
}

template <class T>
void put(bson_t* d, const char* k, int kl, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    bson_append_bool(d, k, kl, v);
  } else if constexpr (std::is_enum_v<T> || std::is_same_v<T, int32_t>) {
    bson_append_int32(d, k, kl, static_cast<int32_t>(v));
  } else if constexpr (std::is_integral_v<T>) {
    bson_append_int64(d, k, kl, static_cast<int64_t>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    bson_append_double(d, k, kl, v);  // BSON's only float: a float32 widens exactly
  } else if constexpr (std::is_same_v<T, std::string>) {
    bson_append_utf8(d, k, kl, v.data(), static_cast<int>(v.size()));
  } else if constexpr (is_timestamp_v<T>) {
    bson_append_date_time(d, k, kl, v.time_since_epoch().count());
  } else if constexpr (is_vector<T>::value) {
    bson_t child;
    bson_append_array_begin(d, k, kl, &child);
    put_body(&child, v);
    bson_append_array_end(d, &child);
  } else {
    bson_t child;
    bson_append_document_begin(d, k, kl, &child);
    put_body(&child, v);
    bson_append_document_end(d, &child);
  }
}

[[noreturn]] void bad(const char* what) {
  throw DecodeError(std::string("bson: expected ") + what);
}

template <class T>
void get(bson_iter_t* it, T& v);

template <class T>
void get_body(bson_iter_t* child, T& v) {
  if constexpr (is_vector<T>::value) {
    v.clear();
    while (bson_iter_next(child)) get(child, v.emplace_back());
  } else if constexpr (is_map<T>::value) {
    v.clear();
    while (bson_iter_next(child))
      get(child, v[std::string(bson_iter_key(child), bson_iter_key_len(child))]);
  } else {
    bson_iter_t start = *child;
    for_each_field(v, [&](const char* name, auto& m) {
      if (!bson_iter_next(child) || std::strcmp(bson_iter_key(child), name) != 0) {
        *child = start;  // out of order: search from the start
        if (!bson_iter_find(child, name)) throw DecodeError(std::string("bson: missing ") + name);
      }
      get(child, m);
    });
  }
}

template <class T>
void get(bson_iter_t* it, T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!BSON_ITER_HOLDS_BOOL(it)) bad("bool");
    v = bson_iter_bool(it);
  } else if constexpr (std::is_enum_v<T>) {
    if (BSON_ITER_HOLDS_UTF8(it)) {
      uint32_t len;
      const char* s = bson_iter_utf8(it, &len);
      v = enum_from_name<T>(std::string_view(s, len));
    } else {
      if (!BSON_ITER_HOLDS_INT32(it) && !BSON_ITER_HOLDS_INT64(it)) bad("integer");
      v = static_cast<T>(bson_iter_as_int64(it));
    }
  } else if constexpr (std::is_integral_v<T>) {
    // either integer width (other runners pick the narrowest that fits)
    if (!BSON_ITER_HOLDS_INT32(it) && !BSON_ITER_HOLDS_INT64(it)) bad("integer");
    v = static_cast<T>(bson_iter_as_int64(it));
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!BSON_ITER_HOLDS_DOUBLE(it)) bad("double");
    v = static_cast<T>(bson_iter_double(it));
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!BSON_ITER_HOLDS_UTF8(it)) bad("utf8");
    uint32_t len;
    const char* s = bson_iter_utf8(it, &len);
    v.assign(s, len);
  } else if constexpr (is_timestamp_v<T>) {
    if (BSON_ITER_HOLDS_DATE_TIME(it)) {
      v = Timestamp(std::chrono::milliseconds(bson_iter_date_time(it)));
    } else if (BSON_ITER_HOLDS_INT64(it) || BSON_ITER_HOLDS_INT32(it)) {
      v = Timestamp(std::chrono::milliseconds(bson_iter_as_int64(it)));
    } else {
      bad("date_time");
    }
  } else {
    if (is_vector<T>::value ? !BSON_ITER_HOLDS_ARRAY(it) : !BSON_ITER_HOLDS_DOCUMENT(it))
      bad("document");
    bson_iter_t child;
    bson_iter_recurse(it, &child);
    get_body(&child, v);
  }
}

// ---- user datasets: documents for objects, int32 or int64 by size, binary for bytes, UTC
// date-time for timestamps; a top-level value that is not a record or map is wrapped as
// {"value": ...}
void put_value(bson_t* d, const char* k, int kl, const Value& v);
void put_members(bson_t* d, const Value& v) {
  if (v.k == Value::K::Array) {
    char buf[16];
    const char* key;
    for (uint32_t i = 0; i < v.a.size(); ++i) {
      size_t kl = bson_uint32_to_string(i, &key, buf, sizeof buf);
      put_value(d, key, static_cast<int>(kl), v.a[i]);
    }
  } else {
    for (const auto& [k, x] : v.o) put_value(d, k.data(), static_cast<int>(k.size()), x);
  }
}
void put_value(bson_t* d, const char* k, int kl, const Value& v) {
  switch (v.k) {
    case Value::K::Null:
      bson_append_null(d, k, kl);
      break;
    case Value::K::Bool:
      bson_append_bool(d, k, kl, v.b);
      break;
    case Value::K::Int:
      if (v.i >= INT32_MIN && v.i <= INT32_MAX) {
        bson_append_int32(d, k, kl, static_cast<int32_t>(v.i));
      } else {
        bson_append_int64(d, k, kl, v.i);
      }
      break;
    case Value::K::Float:
      bson_append_double(d, k, kl, v.f);
      break;
    case Value::K::String:
      bson_append_utf8(d, k, kl, v.s.data(), static_cast<int>(v.s.size()));
      break;
    case Value::K::Bytes:
      bson_append_binary(d, k, kl, BSON_SUBTYPE_BINARY,
                         reinterpret_cast<const uint8_t*>(v.s.data()),
                         static_cast<uint32_t>(v.s.size()));
      break;
    case Value::K::Timestamp:
      bson_append_date_time(d, k, kl, v.i);
      break;
    case Value::K::Array:
    case Value::K::Object: {
      bson_t child;
      if (v.k == Value::K::Array) {
        bson_append_array_begin(d, k, kl, &child);
        put_members(&child, v);
        bson_append_array_end(d, &child);
      } else {
        bson_append_document_begin(d, k, kl, &child);
        put_members(&child, v);
        bson_append_document_end(d, &child);
      }
      break;
    }
    case Value::K::Uint:
    case Value::K::BigInt:
      throw NotApplicable("bson: an integer beyond int64");
  }
}
void get_value(bson_iter_t* it, Value& v) {
  v = Value{};
  switch (bson_iter_type(it)) {
    case BSON_TYPE_NULL:
      break;
    case BSON_TYPE_BOOL:
      v.k = Value::K::Bool, v.b = bson_iter_bool(it);
      break;
    case BSON_TYPE_INT32:
    case BSON_TYPE_INT64:
      v = Value::integer(bson_iter_as_int64(it));
      break;
    case BSON_TYPE_DOUBLE:
      v.k = Value::K::Float, v.f = bson_iter_double(it);
      break;
    case BSON_TYPE_UTF8: {
      uint32_t len;
      const char* s = bson_iter_utf8(it, &len);
      v.k = Value::K::String, v.s.assign(s, len);
      break;
    }
    case BSON_TYPE_BINARY: {
      uint32_t len;
      const uint8_t* b;
      bson_subtype_t sub;
      bson_iter_binary(it, &sub, &len, &b);
      v.k = Value::K::Bytes, v.s.assign(reinterpret_cast<const char*>(b), len);
      break;
    }
    case BSON_TYPE_DATE_TIME:
      v.k = Value::K::Timestamp, v.i = bson_iter_date_time(it);
      break;
    case BSON_TYPE_ARRAY:
    case BSON_TYPE_DOCUMENT: {
      bool arr = BSON_ITER_HOLDS_ARRAY(it);
      v.k = arr ? Value::K::Array : Value::K::Object;
      bson_iter_t child;
      bson_iter_recurse(it, &child);
      while (bson_iter_next(&child)) {
        if (arr) {
          get_value(&child, v.a.emplace_back());
        } else {
          v.o.emplace_back(std::string(bson_iter_key(&child), bson_iter_key_len(&child)), Value{});
          get_value(&child, v.o.back().second);
        }
      }
      break;
    }
    default:
      throw DecodeError("bson: unexpected element type");
  }
}

struct Impl {
  static constexpr bool user_data = true;
  bool wrapped = false;  // user datasets: the top-level value is {"value": ...}
  std::string configure(const UserTypes& u) {
    wrapped = u.message->kind != Type::Record && u.message->kind != Type::Map;
    return "";
  }
  std::string reject(const Value& v) {
    return find_value(v, "$", [](const Value& x) -> std::string {
      if (x.k == Value::K::Uint || x.k == Value::K::BigInt)
        return "bson: " + show(x) + " exceeds int64 (BSON has no unsigned 64-bit integer)";
      if (x.k == Value::K::Object)
        for (const auto& kv : x.o)
          if (kv.first.find('\0') != std::string::npos)
            return "bson: a key holds NUL (BSON keys are C strings)";
      return "";
    });
  }
  void encode(const Value& v, Bytes& out) {
    bson_t d;
    bson_init(&d);
    if (wrapped) {
      put_value(&d, "value", 5, v);
    } else {
      put_members(&d, v);
    }
    append(out, bson_get_data(&d), d.len);
    bson_destroy(&d);
  }
  size_t decode(const uint8_t* p, size_t n, Value& out) {
    bson_t d;
    if (!bson_init_static(&d, p, n)) throw DecodeError("bson: bad document");
    bson_iter_t it;
    bson_iter_init(&it, &d);
    if (wrapped) {
      if (!bson_iter_find(&it, "value")) throw DecodeError("bson: missing value");
      get_value(&it, out);
    } else {
      out = Value{};
      out.k = Value::K::Object;
      while (bson_iter_next(&it)) {
        out.o.emplace_back(std::string(bson_iter_key(&it), bson_iter_key_len(&it)), Value{});
        get_value(&it, out.o.back().second);
      }
    }
    return d.len;
  }

  template <class T>
  void encode(const T& v, Bytes& out) {
    bson_t d;
    bson_init(&d);
    if constexpr (is_vector<T>::value) {
      put(&d, "items", 5, v);
    } else {
      put_body(&d, v);
    }
    append(out, bson_get_data(&d), d.len);
    bson_destroy(&d);
  }
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    bson_t d;
    if (!bson_init_static(&d, p, n)) throw DecodeError("bson: bad document");
    bson_iter_t it;
    bson_iter_init(&it, &d);
    if constexpr (is_vector<T>::value) {
      if (!bson_iter_find(&it, "items")) throw DecodeError("bson: missing items");
      get(&it, out);
    } else {
      get_body(&it, out);
    }
    return d.len;
  }
};
}  // namespace

SerializerEntry reg_libbson() {
  return make_entry<Impl>({"libbson",
                           "bson",
                           "libbson",
                           BSON_VERSION_S,
                           {"binary", "schemaless", "copying-decode", "map-layout",
                            "enum-as-ordinal", "timestamp-native"},
                           lib_footprint({"libbson-1.0.so"})});
}
}  // namespace sb
