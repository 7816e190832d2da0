// The canonical JSON shape (datasets/README.md) written with RapidJSON's Writer: records as
// objects, enums as ordinals, timestamps as epoch ms, maps as objects. Used by the
// `rapidjson` row and to prepare the input of the parser-only simdjson rows.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>

#include "../harness/serializer.h"
#include "../harness/user.h"

namespace sb::rj {

// A RapidJSON output stream appending to Bytes.
struct Out {
  using Ch = char;
  Bytes* b;
  void Put(char c) { b->push_back(static_cast<uint8_t>(c)); }
  void Flush() {}
};
using Writer = rapidjson::Writer<Out>;

template <class T>
void write(Writer& w, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    w.Bool(v);
  } else if constexpr (std::is_enum_v<T>) {
    w.Int(static_cast<int>(v));
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    w.Int64(v);
  } else if constexpr (std::is_integral_v<T>) {
    w.Uint64(v);
  } else if constexpr (std::is_floating_point_v<T>) {
    w.Double(v);  // a float32 as the shortest double text, as in the canonical file
  } else if constexpr (std::is_same_v<T, std::string>) {
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  } else if constexpr (is_timestamp_v<T>) {
    w.Int64(v.time_since_epoch().count());
  } else if constexpr (is_vector<T>::value) {
    w.StartArray();
    for (const auto& x : v) write(w, x);
    w.EndArray();
  } else if constexpr (is_map<T>::value) {
    w.StartObject();
    for (const auto& [k, x] : v) {
      w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
      write(w, x);
    }
    w.EndObject();
  } else {
    w.StartObject();
    for_each_field(v, [&](const char* name, const auto& m) {
      w.Key(name);
      write(w, m);
    });
    w.EndObject();
  }
}

// user datasets: the canonical form of the generic value tree
inline void write(Writer& w, const Value& v) {
  switch (v.k) {
    case Value::K::Null:
      w.Null();
      break;
    case Value::K::Bool:
      w.Bool(v.b);
      break;
    case Value::K::Int:
    case Value::K::Timestamp:
      w.Int64(v.i);
      break;
    case Value::K::Uint:
      w.Uint64(v.u);
      break;
    case Value::K::Float:
      if (std::isnan(v.f)) {
        w.String("NaN");
      } else if (std::isinf(v.f)) {
        w.String(v.f > 0 ? "Infinity" : "-Infinity");
      } else {
        w.Double(v.f);
      }
      break;
    case Value::K::String:
      w.String(v.s.data(), static_cast<rapidjson::SizeType>(v.s.size()));
      break;
    case Value::K::Bytes: {
      std::string b = base64_encode(v.s);
      w.String(b.data(), static_cast<rapidjson::SizeType>(b.size()));
      break;
    }
    case Value::K::Array:
      w.StartArray();
      for (const auto& x : v.a) write(w, x);
      w.EndArray();
      break;
    case Value::K::Object:
      w.StartObject();
      for (const auto& [k, x] : v.o) {
        w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
        write(w, x);
      }
      w.EndObject();
      break;
    case Value::K::BigInt:
      throw NotApplicable("rapidjson: an integer beyond 64 bits");
  }
}
inline std::string reject_bigint(const Value& v, const char* lib) {
  return find_value(v, "$", [lib](const Value& x) {
    return x.k == Value::K::BigInt
               ? std::string(lib) + ": " + x.s + " exceeds 64 bits (no arbitrary-precision integer)"
               : std::string();
  });
}

template <class T>
void encode(const T& v, Bytes& out) {
  Out o{&out};
  Writer w(o);
  write(w, v);
}

}  // namespace sb::rj
