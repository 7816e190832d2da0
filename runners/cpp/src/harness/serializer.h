// What one library file provides: a Meta and an Impl struct with, for each dataset type T
// it can represent,
//   void encode(const T& v, Bytes& out);                 // append one message
//   size_t decode(const uint8_t* p, size_t n, T& out);   // full decode, returns bytes used
// and optionally
//   size_t access(const uint8_t* p, size_t n, uint64_t& sink);  // timed decode of a
//       zero-copy / lazy row: reads every field without building T
//   size_t encoded_size(const T& v);   // lets stream framing write the prefix first
//   bool self_delimiting (static constexpr): streams may be concatenated without prefix
//   const char* no_encoder (static constexpr): encode is not timed (parser-only library)
// A type the Impl has no encode() for is not applicable, with Impl::reason(DatasetId).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "types.h"

namespace sb {

using Bytes = std::vector<uint8_t>;

inline void append(Bytes& out, const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  out.insert(out.end(), b, b + n);
}
inline void put_varint(Bytes& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}
inline size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) v >>= 7, ++n;
  return n;
}
// Returns bytes read, 0 on malformed input.
inline size_t get_varint(const uint8_t* p, size_t n, uint64_t& v) {
  v = 0;
  for (size_t i = 0; i < n && i < 10; ++i) {
    v |= static_cast<uint64_t>(p[i] & 0x7f) << (7 * i);
    if (!(p[i] & 0x80)) return i + 1;
  }
  return 0;
}

struct DecodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A value the format cannot carry (user datasets): the cell is not applicable.
struct NotApplicable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct UserTypes;
struct Value;

struct Meta {
  std::string name, format, library, version;
  std::vector<std::string> labels;
  std::optional<long long> footprint_bytes;  // nullopt: unknown
};

// Type-erased per-dataset codec the harness drives.
struct CodecBase {
  virtual ~CodecBase() = default;
  // User datasets: takes the declared types and schemas before anything is encoded;
  // returns why the dataset is not applicable, or an empty string.
  virtual std::string configure(const UserTypes&) { return ""; }
};
template <class T>
struct Codec : CodecBase {
  virtual void encode(const T& v, Bytes& out) = 0;
  virtual size_t decode(const uint8_t* p, size_t n, T& out) = 0;
  // Timed decode; the default decodes into `scratch` and sinks it.
  virtual size_t decode_timed(const uint8_t* p, size_t n, T& scratch, uint64_t& sink) {
    size_t used = decode(p, n, scratch);
    sink += reinterpret_cast<uintptr_t>(&scratch) & 1;
    return used;
  }
  virtual bool has_encoded_size() const { return false; }
  virtual size_t encoded_size(const T&) { return 0; }
  virtual bool self_delimiting() const { return false; }
  virtual const char* no_encoder() const { return nullptr; }
  // Baselines get the data before timing.
  virtual void prepare(const std::vector<T>& /*items*/) {}
  // Why the format cannot carry v ("<path>: <reason>"), or empty; checked before encoding.
  virtual std::string reject(const T&) { return ""; }
};

struct SerializerEntry {
  Meta meta;
  // per dataset: a factory, or the reason it is not applicable
  std::function<std::unique_ptr<CodecBase>(DatasetId)> make;
  std::function<std::string(DatasetId)> reason;  // empty string: applicable
  // user datasets (section 7): a codec of the generic value tree, or why there is none
  std::function<std::unique_ptr<CodecBase>()> make_user;
  std::string user_reason;  // empty: applicable
  // user datasets in the generated typed model: a codec of kUserModels[i]'s message type
  // (typed_user.h, typed_entry)
  std::function<std::unique_ptr<CodecBase>(size_t)> make_typed_user;
};

std::vector<SerializerEntry>& registry();
// Bytes of the loaded shared objects whose file name starts with one of the prefixes.
std::optional<long long> lib_footprint(std::initializer_list<const char*> prefixes);

// ---- detection helpers --------------------------------------------------------------
template <class Impl, class T, class = void>
struct has_encode : std::false_type {};
template <class Impl, class T>
struct has_encode<Impl, T,
                  std::void_t<decltype(std::declval<Impl&>().encode(
                      std::declval<const T&>(), std::declval<Bytes&>()))>> : std::true_type {};
template <class Impl, class T, class = void>
struct has_access : std::false_type {};
template <class Impl, class T>
struct has_access<Impl, T,
                  std::void_t<decltype(std::declval<Impl&>().access(
                      static_cast<const T*>(nullptr), std::declval<const uint8_t*>(), size_t{},
                      std::declval<uint64_t&>()))>> : std::true_type {};
template <class Impl, class T, class = void>
struct has_size : std::false_type {};
template <class Impl, class T>
struct has_size<Impl, T,
                std::void_t<decltype(std::declval<Impl&>().encoded_size(std::declval<const T&>()))>>
    : std::true_type {};
template <class Impl, class = void>
struct has_self_delim : std::false_type {};
template <class Impl>
struct has_self_delim<Impl, std::void_t<decltype(Impl::self_delimiting)>> : std::true_type {};
// Whether Impl's stream messages are concatenated without a length prefix: the one flag
// that drives the stream framing (Adapter) and the `stream-concatenated` label (make_entry).
template <class Impl>
constexpr bool self_delimiting_v = [] {
  if constexpr (has_self_delim<Impl>::value) return static_cast<bool>(Impl::self_delimiting);
  return false;
}();
template <class Impl, class = void>
struct has_no_encoder : std::false_type {};
template <class Impl>
struct has_no_encoder<Impl, std::void_t<decltype(Impl::no_encoder)>> : std::true_type {};

// A library that takes user datasets says `static constexpr bool user_data = true;` and
// has encode/decode for Value; one that does not says why in `no_user_data`.
template <class Impl, class = void>
struct has_user_data : std::false_type {};
template <class Impl>
struct has_user_data<Impl, std::void_t<decltype(Impl::user_data)>> : std::true_type {};
template <class Impl, class = void>
struct has_no_user_data : std::false_type {};
template <class Impl>
struct has_no_user_data<Impl, std::void_t<decltype(Impl::no_user_data)>> : std::true_type {};
template <class Impl, class = void>
struct has_configure : std::false_type {};
template <class Impl>
struct has_configure<
    Impl, std::void_t<decltype(std::declval<Impl&>().configure(std::declval<const UserTypes&>()))>>
    : std::true_type {};
template <class Impl, class T, class = void>
struct has_reject : std::false_type {};
template <class Impl, class T>
struct has_reject<Impl, T,
                  std::void_t<decltype(std::declval<Impl&>().reject(std::declval<const T&>()))>>
    : std::true_type {};

// Adapts a library Impl to Codec<T>. access() takes a `const T*` tag (always null) to pick
// the overload for the dataset type.
template <class Impl, class T>
struct Adapter final : Codec<T> {
  Impl impl;
  void encode(const T& v, Bytes& out) override { impl.encode(v, out); }
  size_t decode(const uint8_t* p, size_t n, T& out) override { return impl.decode(p, n, out); }
  size_t decode_timed(const uint8_t* p, size_t n, T& scratch, uint64_t& sink) override {
    if constexpr (has_access<Impl, T>::value) {
      return impl.access(static_cast<const T*>(nullptr), p, n, sink);
    } else {
      return Codec<T>::decode_timed(p, n, scratch, sink);
    }
  }
  bool has_encoded_size() const override { return has_size<Impl, T>::value; }
  size_t encoded_size(const T& v) override {
    if constexpr (has_size<Impl, T>::value) return impl.encoded_size(v);
    return 0;
  }
  bool self_delimiting() const override { return self_delimiting_v<Impl>; }
  const char* no_encoder() const override {
    if constexpr (has_no_encoder<Impl>::value) return Impl::no_encoder;
    return nullptr;
  }
  std::string configure(const UserTypes& types) override {
    if constexpr (has_configure<Impl>::value) return impl.configure(types);
    return "";
  }
  std::string reject(const T& v) override {
    if constexpr (has_reject<Impl, T>::value) return impl.reject(v);
    return "";
  }
};

template <class Impl>
SerializerEntry make_entry(Meta meta) {
  SerializerEntry e;
  e.meta = std::move(meta);
  if constexpr (self_delimiting_v<Impl>) e.meta.labels.emplace_back("stream-concatenated");
  e.make = [](DatasetId id) -> std::unique_ptr<CodecBase> {
    return dispatch_dataset(id, [](auto d) -> std::unique_ptr<CodecBase> {
      using T = dataset_t<decltype(d)::value>;
      if constexpr (has_encode<Impl, T>::value) {
        return std::make_unique<Adapter<Impl, T>>();
      } else {
        return nullptr;
      }
    });
  };
  e.reason = [](DatasetId id) -> std::string {
    return dispatch_dataset(id, [id](auto d) -> std::string {
      using T = dataset_t<decltype(d)::value>;
      if constexpr (has_encode<Impl, T>::value) {
        return "";
      } else {
        return Impl::reason(id);
      }
    });
  };
  if constexpr (has_user_data<Impl>::value) {
    e.make_user = [] { return std::unique_ptr<CodecBase>(new Adapter<Impl, Value>()); };
  } else if constexpr (has_no_user_data<Impl>::value) {
    e.user_reason = Impl::no_user_data;
  } else {
    e.user_reason = "user datasets are not implemented for this library in the C++ runner";
  }
  return e;
}

// One registry line per library: SB_REGISTER(Impl, meta) in the library's file defines a
// function the registry calls; registry.cpp lists the functions.
#define SB_REGISTER_FN(fn, Impl, ...) \
  ::sb::SerializerEntry fn() { return ::sb::make_entry<Impl>(::sb::Meta __VA_ARGS__); }

}  // namespace sb
