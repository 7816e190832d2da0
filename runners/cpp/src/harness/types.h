// Native types of the five serbench datasets, with a tiny field reflection that the
// generic serializers (handwritten, msgpack, cereal, Boost, JSON, BSON) and the deep
// equality use.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
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
#define SB_FIELDS(T, ...)                \
  static constexpr auto fields() {       \
    using Self = T;                      \
    return std::make_tuple(__VA_ARGS__); \
  }
#define SB_F(name) ::sb::field(#name, &Self::name)

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
struct is_map : std::false_type {};
template <class V>
struct is_map<std::map<std::string, V>> : std::true_type {};

// S1 android-users
enum class Gender : int32_t { Female = 0, Male = 1 };
struct SampleData {
  int64_t id = 0;
  std::string name;
  int32_t age = 0;
  Gender gender = Gender::Female;
  bool isMegane = false;
  SB_FIELDS(SampleData, SB_F(id), SB_F(name), SB_F(age), SB_F(gender), SB_F(isMegane))
};
using AndroidUsers = std::vector<SampleData>;

// S2 pb-vs-msgpack
struct Test1 {
  uint32_t a = 0, b = 0;
  SB_FIELDS(Test1, SB_F(a), SB_F(b))
};
struct Test2 {
  int32_t a = 0, b = 0;
  SB_FIELDS(Test2, SB_F(a), SB_F(b))
};
struct Test3 {
  std::string s;
  SB_FIELDS(Test3, SB_F(s))
};
struct Test4 {
  Test1 t1;
  Test2 t2;
  Test3 t3;
  SB_FIELDS(Test4, SB_F(t1), SB_F(t2), SB_F(t3))
};

// S3 one-mb-dict (ordered map: equality is map equality, the canonical order is sorted)
using Dict = std::map<std::string, std::string>;

// S4 click-maps
struct Viewport {
  int32_t width = 0, height = 0;
  SB_FIELDS(Viewport, SB_F(width), SB_F(height))
};
struct Click {
  int32_t x = 0, y = 0, count = 0;
  int64_t lastClick = 0;
  std::string selector;
  SB_FIELDS(Click, SB_F(x), SB_F(y), SB_F(count), SB_F(lastClick), SB_F(selector))
};
struct ClickMap {
  std::string url;
  std::string day;
  Viewport viewport;
  std::map<std::string, Click> clicks;
  SB_FIELDS(ClickMap, SB_F(url), SB_F(day), SB_F(viewport), SB_F(clicks))
};

// S5 log-records
struct Pair {
  std::string key, value;
  SB_FIELDS(Pair, SB_F(key), SB_F(value))
};
struct TestClass {
  std::string MyProperty1;
  int32_t MyProperty2 = 0;
  Timestamp MyProperty3{};
  bool MyProperty4 = false;
  std::vector<Pair> MyProperty5;
  SB_FIELDS(TestClass, SB_F(MyProperty1), SB_F(MyProperty2), SB_F(MyProperty3), SB_F(MyProperty4),
            SB_F(MyProperty5))
};
using LogRecords = std::vector<TestClass>;

// The datasets, in the order describe lists them.
enum class DatasetId { AndroidUsers, Test1, Test2, Test3, Test4, OneMbDict, ClickMaps, LogRecords };
inline constexpr DatasetId kAllDatasets[] = {
    DatasetId::AndroidUsers, DatasetId::Test1,     DatasetId::Test2,     DatasetId::Test3,
    DatasetId::Test4,        DatasetId::OneMbDict, DatasetId::ClickMaps, DatasetId::LogRecords};
const char* dataset_name(DatasetId id);
bool dataset_from_name(const std::string& name, DatasetId& out);

template <DatasetId D>
struct DatasetType;
template <>
struct DatasetType<DatasetId::AndroidUsers> {
  using type = AndroidUsers;
};
template <>
struct DatasetType<DatasetId::Test1> {
  using type = Test1;
};
template <>
struct DatasetType<DatasetId::Test2> {
  using type = Test2;
};
template <>
struct DatasetType<DatasetId::Test3> {
  using type = Test3;
};
template <>
struct DatasetType<DatasetId::Test4> {
  using type = Test4;
};
template <>
struct DatasetType<DatasetId::OneMbDict> {
  using type = Dict;
};
template <>
struct DatasetType<DatasetId::ClickMaps> {
  using type = ClickMap;
};
template <>
struct DatasetType<DatasetId::LogRecords> {
  using type = LogRecords;
};
template <DatasetId D>
using dataset_t = typename DatasetType<D>::type;

// Calls f(std::integral_constant<DatasetId, D>{}) for the runtime id.
template <class F>
decltype(auto) dispatch_dataset(DatasetId id, F&& f) {
  switch (id) {
#define SB_CASE(X)   \
  case DatasetId::X: \
    return f(std::integral_constant<DatasetId, DatasetId::X>{});
    SB_CASE(AndroidUsers)
    SB_CASE(Test1)
    SB_CASE(Test2)
    SB_CASE(Test3) SB_CASE(Test4) SB_CASE(OneMbDict) SB_CASE(ClickMaps) SB_CASE(LogRecords)
#undef SB_CASE
  }
  return f(std::integral_constant<DatasetId, DatasetId::AndroidUsers>{});
}

}  // namespace sb
