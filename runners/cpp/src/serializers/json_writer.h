// The canonical JSON shape (datasets/README.md) written with RapidJSON's Writer: records as
// objects, enums as ordinals, timestamps as epoch ms, maps as objects. Used by the
// `rapidjson` row and to prepare the input of the parser-only simdjson rows.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "../harness/serializer.h"

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

template <class T>
void encode(const T& v, Bytes& out) {
  Out o{&out};
  Writer w(o);
  write(w, v);
}

}  // namespace sb::rj
