// RapidJSON: Writer for encode, Document (DOM) parse + copy into native structs for decode.
#include <rapidjson/document.h>

#include <memory>

#include "../harness/lenient.h"
#include "json_writer.h"

namespace sb {
namespace {

[[noreturn]] void bad(const char* what) {
  throw DecodeError(std::string("rapidjson: expected ") + what);
}

template <class T>
void read(const rapidjson::Value& j, T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!j.IsBool()) bad("bool");
    v = j.GetBool();
  } else if constexpr (std::is_enum_v<T>) {
    if (j.IsString()) {
      v = enum_from_name<T>(std::string_view(j.GetString(), j.GetStringLength()));
      return;
    }
    if (!j.IsInt()) bad("int");
    v = static_cast<T>(j.GetInt());
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    if (!j.IsInt64()) bad("int");
    v = static_cast<T>(j.GetInt64());
  } else if constexpr (std::is_integral_v<T>) {
    if (!j.IsUint64()) bad("uint");
    v = static_cast<T>(j.GetUint64());
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.IsNumber()) bad("number");
    v = static_cast<T>(j.GetDouble());
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!j.IsString()) bad("string");
    v.assign(j.GetString(), j.GetStringLength());
  } else if constexpr (is_timestamp_v<T>) {
    if (j.IsString()) {
      v = Timestamp(std::chrono::milliseconds(
          parse_iso8601_ms(std::string_view(j.GetString(), j.GetStringLength()))));
      return;
    }
    if (!j.IsInt64()) bad("int");
    v = Timestamp(std::chrono::milliseconds(j.GetInt64()));
  } else if constexpr (is_vector<T>::value) {
    if (!j.IsArray()) bad("array");
    v.resize(j.Size());
    for (rapidjson::SizeType i = 0; i < j.Size(); ++i) read(j[i], v[i]);
  } else if constexpr (is_map<T>::value) {
    if (!j.IsObject()) bad("object");
    v.clear();
    for (auto it = j.MemberBegin(); it != j.MemberEnd(); ++it)
      read(it->value, v[std::string(it->name.GetString(), it->name.GetStringLength())]);
  } else {
    if (!j.IsObject()) bad("object");
    for_each_field(v, [&](const char* name, auto& m) {
      auto it = j.FindMember(name);
      if (it == j.MemberEnd()) throw DecodeError(std::string("rapidjson: missing ") + name);
      read(it->value, m);
    });
  }
}

Value to_value(const rapidjson::Value& j) {
  Value v;
  if (j.IsNull()) {
  } else if (j.IsBool()) {
    v.k = Value::K::Bool, v.b = j.GetBool();
  } else if (j.IsInt64()) {
    v = Value::integer(j.GetInt64());
  } else if (j.IsUint64()) {
    v = Value::integer(j.GetUint64());
  } else if (j.IsNumber()) {
    v.k = Value::K::Float, v.f = j.GetDouble();
  } else if (j.IsString()) {
    v.k = Value::K::String, v.s.assign(j.GetString(), j.GetStringLength());
  } else if (j.IsArray()) {
    v.k = Value::K::Array;
    v.a.reserve(j.Size());
    for (const auto& x : j.GetArray()) v.a.push_back(to_value(x));
  } else {
    v.k = Value::K::Object;
    v.o.reserve(j.MemberCount());
    for (auto it = j.MemberBegin(); it != j.MemberEnd(); ++it)
      v.o.emplace_back(std::string(it->name.GetString(), it->name.GetStringLength()),
                       to_value(it->value));
  }
  return v;
}

// The Document and its memory pool are reused across decodes (RapidJSON's recommended
// practice for repeated parsing): the pool's first 64 KiB chunk is ours and survives Clear().
struct Impl {
  std::unique_ptr<char[]> first = std::make_unique<char[]>(kChunk);
  rapidjson::MemoryPoolAllocator<> pool{first.get(), kChunk};
  rapidjson::Document doc{&pool};
  static constexpr size_t kChunk = 1 << 16;
  template <class T>
  void encode(const T& v, Bytes& out) {
    rj::encode(v, out);
  }
  // user datasets: Writer over the value tree; Document -> value tree -> declared types
  static constexpr bool user_data = true;
  const Type* type = nullptr;
  std::string configure(const UserTypes& u) {
    type = u.message;
    return "";
  }
  std::string reject(const Value& v) { return rj::reject_bigint(v, "rapidjson"); }
  size_t decode(const uint8_t* p, size_t n, Value& out) {
    pool.Clear();
    doc.Parse<rapidjson::kParseFullPrecisionFlag>(reinterpret_cast<const char*>(p), n);
    if (doc.HasParseError()) throw DecodeError("rapidjson: parse error");
    out = to_value(doc);
    apply_types(out, *type, "$");
    return n;
  }
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    pool.Clear();
    doc.Parse(reinterpret_cast<const char*>(p), n);
    if (doc.HasParseError()) throw DecodeError("rapidjson: parse error");
    read(doc, out);
    return n;
  }
};
}  // namespace

SB_REGISTER_FN(reg_rapidjson, Impl,
               {"rapidjson",
                "json",
                "RapidJSON",
                RAPIDJSON_VERSION_STRING,
                {"text", "schemaless", "copying-decode", "map-layout", "enum-as-ordinal",
                 "timestamp-as-number"},
                std::nullopt})
}  // namespace sb
