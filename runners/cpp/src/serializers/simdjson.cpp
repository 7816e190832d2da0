// simdjson (parser only). Two rows, both decoding into native structs:
//   simdjson-ondemand  ondemand::parser (fields found in order, strings unescaped on demand)
//   simdjson-dom       dom::parser (whole tape first)
// simdjson writes no JSON: encode is not timed (status unsupported); the bytes it decodes
// are written by RapidJSON's Writer in the canonical shape.
#include <simdjson.h>

#include "../harness/compress.h"
#include "../harness/lenient.h"
#include "json_writer.h"

namespace sb {
namespace {
static_assert(kPad >= simdjson::SIMDJSON_PADDING, "decode buffers carry simdjson's padding");
namespace od = simdjson::ondemand;

template <class T>
void read_od(od::value j, T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    v = bool(j);
  } else if constexpr (std::is_enum_v<T>) {
    v = j.type() == od::json_type::string ? enum_from_name<T>(std::string_view(j))
                                          : static_cast<T>(int64_t(j));
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    v = static_cast<T>(int64_t(j));
  } else if constexpr (std::is_integral_v<T>) {
    v = static_cast<T>(uint64_t(j));
  } else if constexpr (std::is_floating_point_v<T>) {
    v = static_cast<T>(double(j));
  } else if constexpr (std::is_same_v<T, std::string>) {
    v = std::string_view(j);
  } else if constexpr (is_timestamp_v<T>) {
    v = Timestamp(std::chrono::milliseconds(
        j.type() == od::json_type::string ? parse_iso8601_ms(std::string_view(j)) : int64_t(j)));
  } else if constexpr (is_vector<T>::value) {
    v.clear();
    for (auto x : j.get_array()) read_od(x.value(), v.emplace_back());
  } else if constexpr (is_map<T>::value) {
    v.clear();
    for (auto f : j.get_object()) read_od(f.value(), v[std::string(f.unescaped_key().value())]);
  } else {
    od::object o = j.get_object();
    for_each_field(v, [&](const char* name, auto& m) { read_od(o[name], m); });
  }
}

template <class T>
void read_dom(simdjson::dom::element j, T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    v = bool(j);
  } else if constexpr (std::is_enum_v<T>) {
    v = j.is_string() ? enum_from_name<T>(std::string_view(j)) : static_cast<T>(int64_t(j));
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    v = static_cast<T>(int64_t(j));
  } else if constexpr (std::is_integral_v<T>) {
    v = static_cast<T>(uint64_t(j));
  } else if constexpr (std::is_floating_point_v<T>) {
    v = static_cast<T>(double(j));
  } else if constexpr (std::is_same_v<T, std::string>) {
    v = std::string_view(j);
  } else if constexpr (is_timestamp_v<T>) {
    v = Timestamp(std::chrono::milliseconds(j.is_string() ? parse_iso8601_ms(std::string_view(j))
                                                          : int64_t(j)));
  } else if constexpr (is_vector<T>::value) {
    simdjson::dom::array a = j;
    v.resize(a.size());
    size_t i = 0;
    for (auto x : a) read_dom(x, v[i++]);
  } else if constexpr (is_map<T>::value) {
    v.clear();
    for (auto f : simdjson::dom::object(j)) read_dom(f.value, v[std::string(f.key)]);
  } else {
    simdjson::dom::object o = j;
    for_each_field(v, [&](const char* name, auto& m) { read_dom(o[name], m); });
  }
}

Value to_value(simdjson::dom::element j) {
  using simdjson::dom::element_type;
  Value v;
  switch (j.type()) {
    case element_type::NULL_VALUE:
      break;
    case element_type::BOOL:
      v.k = Value::K::Bool, v.b = bool(j);
      break;
    case element_type::INT64:
      v = Value::integer(int64_t(j));
      break;
    case element_type::UINT64:
      v = Value::integer(uint64_t(j));
      break;
    case element_type::DOUBLE:
      v.k = Value::K::Float, v.f = double(j);
      break;
    case element_type::STRING:
      v.k = Value::K::String, v.s = std::string_view(j);
      break;
    case element_type::ARRAY:
      v.k = Value::K::Array;
      for (auto x : simdjson::dom::array(j)) v.a.push_back(to_value(x));
      break;
    case element_type::OBJECT:
      v.k = Value::K::Object;
      for (auto f : simdjson::dom::object(j))
        v.o.emplace_back(std::string(f.key), to_value(f.value));
      break;
  }
  return v;
}

struct Base {
  static constexpr const char* no_encoder =
      "simdjson is a parser only; its input is written by RapidJSON (see the rapidjson row)";
  template <class T>
  void encode(const T& v, Bytes& out) {
    rj::encode(v, out);
  }
};
struct OnDemand : Base {
  static constexpr const char* no_user_data =
      "user datasets are timed with simdjson's DOM API (simdjson-dom); the On-Demand row reads "
      "the built-in types field by field";
  od::parser parser;
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    auto doc =
        parser.iterate(simdjson::padded_string_view(reinterpret_cast<const char*>(p), n, n + kPad));
    read_od(doc.get_value().value(), out);
    return n;
  }
};
struct Dom : Base {
  simdjson::dom::parser parser;
  // user datasets: dom element -> value tree -> declared types (input written by RapidJSON)
  static constexpr bool user_data = true;
  const Type* type = nullptr;
  std::string configure(const UserTypes& u) {
    type = u.message;
    return "";
  }
  std::string reject(const Value& v) {
    return rj::reject_bigint(v, "rapidjson (simdjson's input)");
  }
  using Base::encode;
  void encode(const Value& v, Bytes& out) { rj::encode(v, out); }
  size_t decode(const uint8_t* p, size_t n, Value& out) {
    out = to_value(parser.parse(p, n, false));
    apply_types(out, *type, "$");
    return n;
  }
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    read_dom(parser.parse(p, n, false), out);
    return n;
  }
};
}  // namespace

SB_REGISTER_FN(reg_simdjson_ondemand, OnDemand,
               {"simdjson-ondemand",
                "json",
                "simdjson (On-Demand API)",
                SIMDJSON_STRINGIFY(SIMDJSON_VERSION),
                {"text", "schemaless", "copying-decode", "map-layout", "enum-as-ordinal",
                 "timestamp-as-number"},
                lib_footprint({"libsimdjson.so"})})
SB_REGISTER_FN(reg_simdjson_dom, Dom,
               {"simdjson-dom",
                "json",
                "simdjson (DOM API)",
                SIMDJSON_STRINGIFY(SIMDJSON_VERSION),
                {"text", "schemaless", "copying-decode", "map-layout", "enum-as-ordinal",
                 "timestamp-as-number"},
                lib_footprint({"libsimdjson.so"})})
}  // namespace sb
