// User datasets (protocol section 7): the declared types of a user's types.json and the
// generic value tree the schemaless libraries encode, built from the canonical file with
// those types applied (bytes as byte arrays, timestamps as date-times, float32 rounded).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dataset.h"

namespace sb {

// One node of the declared type graph (named records may refer to themselves).
struct Type {
  enum Kind {
    Null,
    Bool,
    Int32,
    Uint32,
    Int64,
    Uint64,
    BigInt,
    Float32,
    Float64,
    String,
    Bytes,
    TimestampMs,
    Enum,
    List,
    Map,
    Record,
    Optional,
    Any
  } kind = Any;
  std::string name;                                         // records and enums
  std::vector<std::string> symbols;                         // enums
  const Type* elem = nullptr;                               // list, map (value), optional
  std::vector<std::pair<std::string, const Type*>> fields;  // records, in order
};

struct UserTypes {
  std::deque<Type> nodes;  // owns every node; pointers stay valid
  std::map<std::string, Type*> named;
  const Type* message = nullptr;
  nlohmann::json schemas;  // the dataset object's "schemas" (kind -> path/message/unavailable)
  // Why the schema of `kind` cannot be used ("<format>: ..."), or empty: the orchestrator's
  // `unavailable` reason as given (it names the format already), or that there is none.
  std::string schema_unavailable(const std::string& kind, const std::string& format) const;
};

// Reads types.json; `dataset` is the prepare command's dataset object.
UserTypes load_user_types(const std::string& path, const nlohmann::json& dataset);

// The generic value tree. Integers are Int when they fit int64, else Uint.
struct Value {
  enum class K : uint8_t {
    Null,
    Bool,
    Int,
    Uint,
    Float,
    String,
    Bytes,
    Timestamp,
    Array,
    Object,
    BigInt
  };
  K k = K::Null;
  bool f32 = false;  // a float32 (the value is exactly a float)
  bool b = false;
  int64_t i = 0;   // Int, Timestamp (ms since the epoch)
  uint64_t u = 0;  // Uint
  double f = 0;
  std::string s;  // String, Bytes, BigInt (decimal digits)
  std::vector<Value> a;
  std::vector<std::pair<std::string, Value>> o;  // objects: records and maps, in order

  static Value integer(uint64_t v) {
    Value x;
    if (v <= static_cast<uint64_t>(INT64_MAX)) {
      x.k = K::Int, x.i = static_cast<int64_t>(v);
    } else {
      x.k = K::Uint, x.u = v;
    }
    return x;
  }
  static Value integer(int64_t v) {
    Value x;
    x.k = K::Int, x.i = v;
    return x;
  }
};

// Deep equality with the path of the first difference; maps compare as maps, NaN equals
// NaN, -0.0 differs from 0.0.
std::optional<std::string> first_difference(const Value& got, const Value& want,
                                            const std::string& path);
std::string show(const Value& v);

// An untyped JSON value -> generic tree (what a JSON library's DOM gives), then the
// declared types applied in place (base64 -> bytes, ms -> timestamp, "NaN" -> float...).
Value from_json(const nlohmann::json& j);
void apply_types(Value& v, const Type& t, const std::string& path);  // throws DecodeError
// The canonical JSON form of a value (what the JSON libraries write).
nlohmann::json to_canonical_json(const Value& v);
// Parses JSON text keeping integers beyond 64 bits exact (as BigInt).
Value parse_json_exact(const char* p, size_t n);

Dataset<Value> load_user_dataset(const std::string& path, const UserTypes& types);

// The path step of an object key: `.name` for identifiers, else `["key"]`.
std::string key_path(const std::string& k);

// The first value a predicate rejects, as "<path>: <why>", or empty.
template <class F>
std::string find_value(const Value& v, const std::string& path, F&& reject) {
  std::string why = reject(v);
  if (!why.empty()) return path + ": " + why;
  if (v.k == Value::K::Array) {
    for (size_t i = 0; i < v.a.size(); ++i) {
      std::string r = find_value(v.a[i], path + "[" + std::to_string(i) + "]", reject);
      if (!r.empty()) return r;
    }
  } else if (v.k == Value::K::Object) {
    for (const auto& [k, x] : v.o) {
      std::string r = find_value(x, path + key_path(k), reject);
      if (!r.empty()) return r;
    }
  }
  return "";
}

// The same walk with the declared types alongside: reject(value, type, path) gives a full
// reason or empty; `type` is null below `any`. Values are those apply_types produced (records
// hold their fields in declaration order).
template <class F>
std::string find_typed(const Value& v, const Type* t, const std::string& path, F&& reject) {
  if (t && t->kind == Type::Optional) {
    if (v.k == Value::K::Null) return "";
    t = t->elem;
  }
  std::string why = reject(v, t, path);
  if (!why.empty()) return why;
  if (v.k == Value::K::Array) {
    const Type* e = t && t->kind == Type::List ? t->elem : nullptr;
    for (size_t i = 0; i < v.a.size(); ++i) {
      std::string r = find_typed(v.a[i], e, path + "[" + std::to_string(i) + "]", reject);
      if (!r.empty()) return r;
    }
  } else if (v.k == Value::K::Object) {
    const bool rec = t && t->kind == Type::Record && t->fields.size() == v.o.size();
    for (size_t i = 0; i < v.o.size(); ++i) {
      const Type* e = rec ? t->fields[i].second : t && t->kind == Type::Map ? t->elem : nullptr;
      std::string r = find_typed(v.o[i].second, e, path + key_path(v.o[i].first), reject);
      if (!r.empty()) return r;
    }
  }
  return "";
}

std::string base64_encode(const std::string& bytes);
std::string base64_decode(std::string_view text);  // throws DecodeError

}  // namespace sb
