// The field reflection of the generated typed model (build/generated/serbench/model.h)
// that the generic serializers (handwritten, msgpack, cereal, Boost, JSON, BSON) and the
// deep equality use.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace sb {

template <class C, class M>
struct Field {
  const char* name;
  M C::*ptr;
};
template <class C, class M>
constexpr Field<C, M> field(const char* n, M C::*p) {
  return {n, p};
}

template <class T, class = void>
struct is_record : std::false_type {};
template <class T>
struct is_record<T, std::void_t<decltype(T::fields())>> : std::true_type {};
template <class T>
inline constexpr bool is_record_v = is_record<T>::value;

// f(name, member) for each field of a record, in declaration (= positional) order.
template <class T, class F>
void for_each_field(T& obj, F&& f) {
  std::apply([&](auto... fd) { (f(fd.name, obj.*(fd.ptr)), ...); },
             std::remove_const_t<T>::fields());
}
template <class T>
constexpr size_t field_count() {
  return std::tuple_size_v<decltype(T::fields())>;
}

using Timestamp = std::chrono::time_point<std::chrono::system_clock, std::chrono::milliseconds>;
template <class T>
inline constexpr bool is_timestamp_v = std::is_same_v<T, Timestamp>;

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_map : std::false_type {};
template <class V>
struct is_map<std::map<std::string, V>> : std::true_type {};

// A `null` field: a record with no fields (nothing to encode, always equal).
struct Null {
  static constexpr auto fields() { return std::make_tuple(); }
};
// `bytes`: a byte string.
using Blob = std::vector<uint8_t>;

// The symbols of an enum, by ordinal (specialised by the generated model).
template <class E>
struct enum_symbols;

template <class T>
struct TypeTag {
  using type = T;
};

// The generated model of a registered user dataset (kUserModels): its types file's FNV-1a
// hash, and why it has no model, or nullptr.
struct UserModel {
  const char* name;
  uint64_t types_hash;
  const char* unsupported;
};

enum class DatasetId;
template <DatasetId D>
struct DatasetType;

}  // namespace sb

// The datasets' types, generated from their types.json at build time (tools/typegen).
#include "serbench/model.h"

namespace sb {

bool dataset_from_name(const std::string& name, DatasetId& out);
template <DatasetId D>
using dataset_t = typename DatasetType<D>::type;

}  // namespace sb
