// Loading the canonical dataset file into native objects, and deep equality with the path
// of the first difference.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "lenient.h"
#include "types.h"

namespace sb {

template <class T>
struct Dataset {
  std::string name, framing;
  size_t count = 1;
  std::vector<T> items;
  bool stream() const { return framing == "stream"; }
};

template <class T>
void from_canonical(const nlohmann::json& j, T& out) {
  if constexpr (std::is_same_v<T, bool>) {
    out = j.get<bool>();
  } else if constexpr (std::is_enum_v<T>) {
    out =
        j.is_string() ? enum_from_name<T>(j.get<std::string>()) : static_cast<T>(j.get<int64_t>());
  } else if constexpr (std::is_integral_v<T>) {
    out = j.get<T>();
  } else if constexpr (std::is_floating_point_v<T>) {
    // float32 is the shortest double text of the value: exact after the narrowing
    out = static_cast<T>(j.get<double>());
  } else if constexpr (std::is_same_v<T, std::string>) {
    out = j.get<std::string>();
  } else if constexpr (is_timestamp_v<T>) {
    out = Timestamp(std::chrono::milliseconds(j.is_string() ? parse_iso8601_ms(j.get<std::string>())
                                                            : j.get<int64_t>()));
  } else if constexpr (is_vector<T>::value) {
    out.clear();
    out.resize(j.size());
    for (size_t i = 0; i < j.size(); ++i) from_canonical(j[i], out[i]);
  } else if constexpr (is_map<T>::value) {
    out.clear();
    for (auto it = j.begin(); it != j.end(); ++it) from_canonical(it.value(), out[it.key()]);
  } else {
    static_assert(is_record_v<T>);
    for_each_field(out, [&](const char* name, auto& m) { from_canonical(j.at(name), m); });
  }
}

nlohmann::json read_json_file(const std::string& path);

template <class T>
Dataset<T> load_dataset(const std::string& path) {
  nlohmann::json j = read_json_file(path);
  Dataset<T> d;
  d.name = j.at("name").get<std::string>();
  d.framing = j.at("framing").get<std::string>();
  d.count = j.at("count").get<size_t>();
  const auto& items = j.at("items");
  d.items.resize(items.size());
  for (size_t i = 0; i < items.size(); ++i) from_canonical(items[i], d.items[i]);
  if (d.items.empty()) throw std::runtime_error("dataset has no items");
  return d;
}

template <class T>
std::string show(const T& v) {
  std::ostringstream os;
  if constexpr (std::is_same_v<T, bool>) {
    os << (v ? "true" : "false");
  } else if constexpr (std::is_enum_v<T>) {
    os << static_cast<int64_t>(v);
  } else if constexpr (std::is_integral_v<T>) {
    os << +v;
  } else if constexpr (std::is_floating_point_v<T>) {
    os << v;
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (v.size() > 40) {
      os << '"' << v.substr(0, 40) << "...\"(" << v.size() << " chars)";
    } else {
      os << '"' << v << '"';
    }
  } else if constexpr (is_timestamp_v<T>) {
    os << v.time_since_epoch().count() << "ms";
  }
  return os.str();
}

// nullopt when equal, else "<path>: <got> != <expected>".
template <class T>
std::optional<std::string> first_difference(const T& got, const T& want, const std::string& path) {
  if constexpr (is_vector<T>::value) {
    if (got.size() != want.size())
      return path + ".length: " + std::to_string(got.size()) + " != " + std::to_string(want.size());
    for (size_t i = 0; i < got.size(); ++i)
      if (auto d = first_difference(got[i], want[i], path + "[" + std::to_string(i) + "]"))
        return d;
    return std::nullopt;
  } else if constexpr (is_map<T>::value) {
    for (const auto& [k, v] : want) {
      auto it = got.find(k);
      if (it == got.end()) return path + "[\"" + k + "\"]: missing";
      if (auto d = first_difference(it->second, v, path + "[\"" + k + "\"]")) return d;
    }
    for (const auto& kv : got)
      if (!want.count(kv.first)) return path + "[\"" + kv.first + "\"]: unexpected key";
    return std::nullopt;
  } else if constexpr (is_optional<T>::value) {
    if (got.has_value() != want.has_value())
      return path + ": " + (got ? "a value" : "null") + " != " + (want ? "a value" : "null");
    return got ? first_difference(*got, *want, path) : std::nullopt;
  } else if constexpr (std::is_floating_point_v<T>) {
    // NaN equals NaN, -0.0 differs from 0.0 (as for the generic value tree)
    if ((got == want && std::signbit(got) == std::signbit(want)) || (got != got && want != want))
      return std::nullopt;
    return path + ": " + show(got) + " != " + show(want);
  } else if constexpr (is_record_v<T>) {
    std::optional<std::string> diff;
    std::apply(
        [&](auto... fd) {
          ((diff = diff ? diff
                        : first_difference(got.*(fd.ptr), want.*(fd.ptr), path + "." + fd.name)),
           ...);
        },
        T::fields());
    return diff;
  } else {
    if (got == want) return std::nullopt;
    return path + ": " + show(got) + " != " + show(want);
  }
}

}  // namespace sb
