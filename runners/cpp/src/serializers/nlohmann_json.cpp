// nlohmann/json: native -> json value -> dump(); parse() -> json value -> native.
#include <nlohmann/json.hpp>

#include "../harness/dataset.h"
#include "../harness/serializer.h"
#include "../harness/user.h"

namespace sb {
namespace {

template <class T>
nlohmann::json to_json(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return static_cast<int32_t>(v);
  } else if constexpr (is_timestamp_v<T>) {
    return static_cast<int64_t>(v.time_since_epoch().count());
  } else if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>) {
    return v;
  } else if constexpr (is_vector<T>::value) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& x : v) a.push_back(to_json(x));
    return a;
  } else if constexpr (is_map<T>::value) {
    nlohmann::json o = nlohmann::json::object();
    for (const auto& [k, x] : v) o[k] = to_json(x);
    return o;
  } else {
    nlohmann::json o = nlohmann::json::object();
    for_each_field(v, [&](const char* name, const auto& m) { o[name] = to_json(m); });
    return o;
  }
}

std::string reject_bigint(const Value& v, const char* lib) {
  return find_value(v, "$", [lib](const Value& x) {
    return x.k == Value::K::BigInt
               ? std::string(lib) + ": " + x.s + " exceeds 64 bits (no arbitrary-precision integer)"
               : std::string();
  });
}

struct Impl {
  // user datasets: the value tree <-> json value in the canonical form (bytes as base64,
  // NaN/Infinity as strings); decode parses, then applies the declared types
  static constexpr bool user_data = true;
  const Type* type = nullptr;
  std::string configure(const UserTypes& u) {
    type = u.message;
    return "";
  }
  std::string reject(const Value& v) { return reject_bigint(v, "nlohmann-json"); }
  void encode(const Value& v, Bytes& out) {
    std::string s = to_canonical_json(v).dump();
    append(out, s.data(), s.size());
  }
  size_t decode(const uint8_t* p, size_t n, Value& out) {
    out = from_json(nlohmann::json::parse(p, p + n));
    apply_types(out, *type, "$");
    return n;
  }
  template <class T>
  void encode(const T& v, Bytes& out) {
    std::string s = to_json(v).dump();
    append(out, s.data(), s.size());
  }
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    from_canonical(nlohmann::json::parse(p, p + n), out);  // the loader's own mapping
    return n;
  }
};

std::string version() {
  return std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
         std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
         std::to_string(NLOHMANN_JSON_VERSION_PATCH);
}
}  // namespace

SerializerEntry reg_nlohmann_json() {
  return make_entry<Impl>({"nlohmann-json",
                           "json",
                           "nlohmann/json",
                           version(),
                           {"text", "schemaless", "copying-decode", "map-layout", "enum-as-ordinal",
                            "timestamp-as-number"},
                           std::nullopt});
}
}  // namespace sb
