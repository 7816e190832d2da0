// Field-by-field binary writer/reader with no library (the Parcelable stand-in):
// little-endian fixed-width integers, u32 length + bytes for strings, u32 count for
// lists and maps, a presence byte before an optional value. Shared by `handwritten` and the
// `memcpy` floor; both run on every dataset of the generated typed model, user ones too.
#pragma once

#include "../harness/serializer.h"

namespace sb::hw {

template <class I>
inline void put(Bytes& out, I v) {
  append(out, &v, sizeof v);
}
struct Reader {
  const uint8_t* p;
  const uint8_t* end;
  template <class I>
  I get() {
    if (static_cast<size_t>(end - p) < sizeof(I)) throw DecodeError("handwritten: truncated");
    I v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
};

template <class T>
void write(Bytes& out, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    out.push_back(v ? 1 : 0);
  } else if constexpr (std::is_enum_v<T>) {
    put(out, static_cast<int32_t>(v));
  } else if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) {
    put(out, v);
  } else if constexpr (is_optional<T>::value) {
    out.push_back(v ? 1 : 0);
    if (v) write(out, *v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    put(out, static_cast<uint32_t>(v.size()));
    append(out, v.data(), v.size());
  } else if constexpr (is_timestamp_v<T>) {
    put(out, static_cast<int64_t>(v.time_since_epoch().count()));
  } else if constexpr (is_vector<T>::value) {
    put(out, static_cast<uint32_t>(v.size()));
    for (const auto& x : v) write(out, x);
  } else if constexpr (is_map<T>::value) {
    put(out, static_cast<uint32_t>(v.size()));
    for (const auto& [k, x] : v) write(out, k), write(out, x);
  } else {
    for_each_field(v, [&](const char*, const auto& m) { write(out, m); });
  }
}

template <class T>
void read(Reader& r, T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    v = r.get<uint8_t>() != 0;
  } else if constexpr (std::is_enum_v<T>) {
    v = static_cast<T>(r.get<int32_t>());
  } else if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) {
    v = r.get<T>();
  } else if constexpr (is_optional<T>::value) {
    v.reset();
    if (r.get<uint8_t>()) read(r, v.emplace());
  } else if constexpr (std::is_same_v<T, std::string>) {
    uint32_t n = r.get<uint32_t>();
    if (static_cast<size_t>(r.end - r.p) < n) throw DecodeError("handwritten: truncated string");
    v.assign(reinterpret_cast<const char*>(r.p), n);
    r.p += n;
  } else if constexpr (is_timestamp_v<T>) {
    v = Timestamp(std::chrono::milliseconds(r.get<int64_t>()));
  } else if constexpr (is_vector<T>::value) {
    uint32_t n = r.get<uint32_t>();
    v.clear();
    v.resize(n);
    for (auto& x : v) read(r, x);
  } else if constexpr (is_map<T>::value) {
    uint32_t n = r.get<uint32_t>();
    v.clear();
    for (uint32_t i = 0; i < n; ++i) {
      std::string k;
      read(r, k);
      read(r, v[std::move(k)]);
    }
  } else {
    for_each_field(v, [&](const char*, auto& m) { read(r, m); });
  }
}

struct Impl {
  // flatten: each field's append inlined (GCC keeps vector::insert out of line in a unit of
  // many instantiations, a call per field)
  template <class T>
  [[gnu::flatten]] void encode(const T& v, Bytes& out) {
    write(out, v);
  }
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    Reader r{p, p + n};
    read(r, out);
    return static_cast<size_t>(r.p - p);
  }
};

}  // namespace sb::hw
