// FlexBuffers (flatbuffers/flexbuffers.h), FlatBuffers' schemaless sibling. Built-in
// datasets: every record a map keyed by field name, enums as their symbol, timestamps as
// int64 epoch ms. User datasets: the generic value tree with the declared types (uint32 /
// uint64 as UInt, float32 as a 32-bit float, bytes as Blob, enums as their symbol). Decode
// verifies the buffer first (flexbuffers::Verifier), so bytes from elsewhere cannot crash
// the runner, then copies everything out.
#include <flatbuffers/base.h>
#include <flatbuffers/flexbuffers.h>

#include <algorithm>
#include <cstring>

#include "../harness/dataset.h"
#include "../harness/serializer.h"
#include "../harness/user.h"

namespace sb {
namespace {
namespace fx = flexbuffers;

// ---- built-in datasets -----------------------------------------------------------------
template <class T>
void write(fx::Builder& b, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    b.Bool(v);
  } else if constexpr (std::is_enum_v<T>) {
    b.String(enum_name(v));
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    b.Int(v);
  } else if constexpr (std::is_integral_v<T>) {
    b.UInt(v);
  } else if constexpr (std::is_same_v<T, float>) {
    b.Float(v);  // float32 as a 32-bit float (as for user datasets)
  } else if constexpr (std::is_floating_point_v<T>) {
    b.Double(v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    b.String(v);
  } else if constexpr (is_timestamp_v<T>) {
    b.Int(static_cast<int64_t>(v.time_since_epoch().count()));
  } else if constexpr (is_vector<T>::value) {
    size_t start = b.StartVector();
    for (const auto& x : v) write(b, x);
    b.EndVector(start, false, false);
  } else if constexpr (is_map<T>::value) {
    size_t start = b.StartMap();
    for (const auto& [k, x] : v) {
      b.Key(k);
      write(b, x);
    }
    b.EndMap(start);
  } else {
    size_t start = b.StartMap();
    for_each_field(v, [&](const char* name, const auto& m) {
      b.Key(name);
      write(b, m);
    });
    b.EndMap(start);
  }
}

// f(n, i, element) for every element of any kind of FlexBuffers vector (n: their number);
// returns n.
template <class F>
size_t for_each_element(const fx::Reference& r, F&& f) {
  auto walk = [&](const auto& vec) {
    for (size_t i = 0; i < vec.size(); ++i) f(vec.size(), i, vec[i]);
    return vec.size();
  };
  if (r.IsTypedVector()) return walk(r.AsTypedVector());
  if (r.IsFixedTypedVector()) return walk(r.AsFixedTypedVector());
  return walk(r.AsVector());  // untyped vector or map (values); anything else: empty
}

template <class T>
void read(const fx::Reference& r, T& out) {
  if constexpr (std::is_same_v<T, bool>) {
    out = r.AsBool();
  } else if constexpr (std::is_enum_v<T>) {
    out = r.IsString() ? enum_from_name<T>(r.AsString().str()) : static_cast<T>(r.AsInt64());
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    out = static_cast<T>(r.AsInt64());
  } else if constexpr (std::is_integral_v<T>) {
    out = static_cast<T>(r.AsUInt64());
  } else if constexpr (std::is_floating_point_v<T>) {
    out = static_cast<T>(r.AsDouble());
  } else if constexpr (std::is_same_v<T, std::string>) {
    fx::String s = r.AsString();
    out.assign(s.c_str(), s.size());
  } else if constexpr (is_timestamp_v<T>) {
    out = Timestamp(std::chrono::milliseconds(r.IsString() ? parse_iso8601_ms(r.AsString().str())
                                                           : r.AsInt64()));
  } else if constexpr (is_vector<T>::value) {
    size_t n = for_each_element(r, [&](size_t count, size_t i, const fx::Reference& x) {
      if (i == 0) out.resize(count);
      read(x, out[i]);
    });
    if (n == 0) out.clear();
  } else if constexpr (is_map<T>::value) {
    out.clear();
    fx::Map m = r.AsMap();
    fx::TypedVector keys = m.Keys();
    fx::Vector values = m.Values();
    for (size_t i = 0; i < keys.size(); ++i)  // keys are sorted: append at the end
      read(values[i],
           out.emplace_hint(out.end(), keys[i].AsKey(), typename T::mapped_type{})->second);
  } else {
    fx::Map m = r.AsMap();
    for_each_field(out, [&](const char* name, auto& x) { read(m[name], x); });
  }
}

// ---- user datasets: the generic value tree -----------------------------------------------
// Writes v of declared type t (null below `any`).
void write_value(fx::Builder& b, const Value& v, const Type* t) {
  if (t && t->kind == Type::Optional) t = t->elem;
  const Type::Kind k = t ? t->kind : Type::Any;
  switch (v.k) {
    case Value::K::Null:
      b.Null();
      return;
    case Value::K::Bool:
      b.Bool(v.b);
      return;
    case Value::K::Int:
      if (k == Type::Enum) {
        b.String(t->symbols.at(static_cast<size_t>(v.i)));
      } else if (k == Type::Uint32 || k == Type::Uint64) {
        b.UInt(static_cast<uint64_t>(v.i));
      } else {
        b.Int(v.i);
      }
      return;
    case Value::K::Uint:
      b.UInt(v.u);
      return;
    case Value::K::Float:
      if (v.f32) {
        b.Float(static_cast<float>(v.f));
      } else {
        b.Double(v.f);
      }
      return;
    case Value::K::String:
      b.String(v.s.data(), v.s.size());
      return;
    case Value::K::Bytes:
      b.Blob(v.s.data(), v.s.size());
      return;
    case Value::K::Timestamp:
      b.Int(v.i);
      return;
    case Value::K::BigInt:
      throw NotApplicable("flexbuffers: an integer beyond 64 bits");
    case Value::K::Array: {
      const Type* e = k == Type::List ? t->elem : nullptr;
      size_t start = b.StartVector();
      for (const auto& x : v.a) write_value(b, x, e);
      b.EndVector(start, false, false);
      return;
    }
    case Value::K::Object: {
      const bool rec = k == Type::Record && t->fields.size() == v.o.size();
      size_t start = b.StartMap();
      for (size_t i = 0; i < v.o.size(); ++i) {
        b.Key(v.o[i].first);  // std::string: NUL-terminated, as Key() reads
        write_value(b, v.o[i].second,
                    rec              ? t->fields[i].second
                    : k == Type::Map ? t->elem
                                     : nullptr);
      }
      b.EndMap(start);
      return;
    }
  }
}

// What the buffer holds, as the format's own types say (`any`, or a value of another type
// than declared: the check then names its path).
Value read_untyped(const fx::Reference& r) {
  Value v;
  if (r.IsNull()) return v;
  if (r.IsBool()) {
    v.k = Value::K::Bool, v.b = r.AsBool();
  } else if (r.IsInt()) {
    v = Value::integer(r.AsInt64());
  } else if (r.IsUInt()) {
    v = Value::integer(r.AsUInt64());
  } else if (r.IsFloat()) {
    v.k = Value::K::Float, v.f = r.AsDouble();
  } else if (r.IsString()) {
    fx::String s = r.AsString();
    v.k = Value::K::String, v.s.assign(s.c_str(), s.size());
  } else if (r.IsKey()) {
    v.k = Value::K::String, v.s = r.AsKey();
  } else if (r.IsBlob()) {
    fx::Blob bl = r.AsBlob();
    v.k = Value::K::Bytes, v.s.assign(reinterpret_cast<const char*>(bl.data()), bl.size());
  } else if (r.IsMap()) {
    fx::Map m = r.AsMap();
    fx::TypedVector keys = m.Keys();
    fx::Vector values = m.Values();
    v.k = Value::K::Object;
    v.o.reserve(keys.size());
    for (size_t i = 0; i < keys.size(); ++i)
      v.o.emplace_back(keys[i].AsKey(), read_untyped(values[i]));
  } else if (r.IsAnyVector()) {
    v.k = Value::K::Array;
    for_each_element(r, [&](size_t n, size_t i, const fx::Reference& x) {
      if (i == 0) v.a.reserve(n);
      v.a.push_back(read_untyped(x));
    });
  } else {
    throw DecodeError("flexbuffers: unexpected value type " + std::to_string(r.GetType()));
  }
  return v;
}

// The value of declared type t, built in the tree's form (records in declaration order).
Value read_value(const fx::Reference& r, const Type* t) {
  if (t && t->kind == Type::Optional) {
    if (r.IsNull()) return Value{};
    t = t->elem;
  }
  if (!t) return read_untyped(r);
  Value v;
  switch (t->kind) {
    case Type::Int32:
    case Type::Int64:
      if (!r.IsIntOrUint()) break;
      return Value::integer(r.AsInt64());
    case Type::Uint32:
    case Type::Uint64:
      if (!r.IsIntOrUint()) break;
      return Value::integer(r.AsUInt64());
    case Type::TimestampMs:
      if (!r.IsIntOrUint()) break;
      v.k = Value::K::Timestamp, v.i = r.AsInt64();
      return v;
    case Type::Float32:
    case Type::Float64:
      if (!r.IsNumeric()) break;
      v.k = Value::K::Float, v.f = r.AsDouble();
      if (t->kind == Type::Float32) v.f = static_cast<float>(v.f), v.f32 = true;
      return v;
    case Type::Enum:
      if (r.IsString()) {
        fx::String s = r.AsString();
        auto it =
            std::find(t->symbols.begin(), t->symbols.end(), std::string_view(s.c_str(), s.size()));
        if (it == t->symbols.end()) break;
        return Value::integer(static_cast<int64_t>(it - t->symbols.begin()));
      }
      if (!r.IsIntOrUint()) break;
      return Value::integer(r.AsInt64());
    case Type::List: {
      if (!r.IsAnyVector() || r.IsMap()) break;
      v.k = Value::K::Array;
      for_each_element(r, [&](size_t n, size_t i, const fx::Reference& x) {
        if (i == 0) v.a.reserve(n);
        v.a.push_back(read_value(x, t->elem));
      });
      return v;
    }
    case Type::Map: {
      if (!r.IsMap()) break;
      fx::Map m = r.AsMap();
      fx::TypedVector keys = m.Keys();
      fx::Vector values = m.Values();
      v.k = Value::K::Object;
      v.o.reserve(keys.size());
      for (size_t i = 0; i < keys.size(); ++i)
        v.o.emplace_back(keys[i].AsKey(), read_value(values[i], t->elem));
      return v;
    }
    case Type::Record: {
      if (!r.IsMap()) break;
      fx::Map m = r.AsMap();
      v.k = Value::K::Object;
      v.o.reserve(t->fields.size());
      for (const auto& [name, ft] : t->fields) v.o.emplace_back(name, read_value(m[name], ft));
      return v;
    }
    case Type::Bytes:
      if (!r.IsBlob()) break;
      return read_untyped(r);
    case Type::Null:
    case Type::Bool:
    case Type::String:
    case Type::BigInt:
    case Type::Optional:
    case Type::Any:
      break;  // the format's own type is the tree's
  }
  return read_untyped(r);
}

struct Impl {
  static constexpr bool user_data = true;
  fx::Builder b;
  const Type* type = nullptr;

  std::string configure(const UserTypes& u) {
    type = u.message;
    return "";
  }
  std::string reject(const Value& v) {
    return find_typed(v, type, "$", [](const Value& x, const Type*, const std::string& at) {
      if (x.k == Value::K::BigInt) return "flexbuffers: " + x.s + " exceeds 64 bits at " + at;
      if (x.k == Value::K::Object)
        for (const auto& kv : x.o)  // map keys are NUL-terminated
          if (kv.first.find('\0') != std::string::npos)
            return "flexbuffers: key with NUL at " + at + key_path(kv.first);
      return std::string();
    });
  }
  void encode(const Value& v, Bytes& out) {
    b.Clear();
    write_value(b, v, type);
    finish(out);
  }
  size_t decode(const uint8_t* p, size_t n, Value& out) {
    out = read_value(root(p, n), type);
    return n;
  }

  template <class T>
  void encode(const T& v, Bytes& out) {
    b.Clear();
    write(b, v);
    finish(out);
  }
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    read(root(p, n), out);
    return n;
  }

  void finish(Bytes& out) {
    b.Finish();
    const std::vector<uint8_t>& buf = b.GetBuffer();
    append(out, buf.data(), buf.size());
  }
  static fx::Reference root(const uint8_t* p, size_t n) {
    if (!fx::VerifyBuffer(p, n)) throw DecodeError("flexbuffers: buffer does not verify");
    return fx::GetRoot(p, n);
  }
};

}  // namespace

SerializerEntry reg_flexbuffers() {
  return make_entry<Impl>(
      {"flexbuffers",
       "flexbuffers",
       "FlatBuffers (flexbuffers.h)",
       std::to_string(FLATBUFFERS_VERSION_MAJOR) + "." + std::to_string(FLATBUFFERS_VERSION_MINOR) +
           "." + std::to_string(FLATBUFFERS_VERSION_REVISION),
       {"binary", "schemaless", "map-layout", "copying-decode", "enum-as-ordinal"},
       lib_footprint({"libflatbuffers.so"})});
}
}  // namespace sb
