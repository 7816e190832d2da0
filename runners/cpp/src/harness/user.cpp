#include "user.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "serializer.h"

namespace sb {
using json = nlohmann::json;

namespace {

// ---- types.json --------------------------------------------------------------------
struct TypeParser {
  UserTypes& u;
  const json& defs;

  Type* add(Type::Kind k) {
    u.nodes.emplace_back();
    u.nodes.back().kind = k;
    return &u.nodes.back();
  }
  Type* named(const std::string& name) {
    auto it = u.named.find(name);
    if (it != u.named.end()) return it->second;
    if (!defs.contains(name)) throw std::runtime_error("unknown type '" + name + "'");
    const json& d = defs.at(name);
    Type* t = add(d.contains("enum") ? Type::Enum : Type::Record);
    t->name = name;
    u.named[name] = t;  // before the fields: records may refer to themselves
    if (t->kind == Type::Enum) {
      t->symbols = d.at("enum").get<std::vector<std::string>>();
    } else {
      for (const auto& f : d.at("record"))
        t->fields.emplace_back(f.at(0).get<std::string>(), parse(f.at(1).get<std::string>()));
    }
    return t;
  }
  const Type* parse(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    auto inner = [&](size_t open) {
      if (s.back() != '>') throw std::runtime_error("bad type '" + s + "'");
      return s.substr(open, s.size() - open - 1);
    };
    static const std::map<std::string, Type::Kind> scalars = {
        {"null", Type::Null},     {"bool", Type::Bool},       {"int32", Type::Int32},
        {"uint32", Type::Uint32}, {"int64", Type::Int64},     {"uint64", Type::Uint64},
        {"bigint", Type::BigInt}, {"float32", Type::Float32}, {"float64", Type::Float64},
        {"string", Type::String}, {"bytes", Type::Bytes},     {"timestamp_ms", Type::TimestampMs},
        {"any", Type::Any}};
    auto sc = scalars.find(s);
    if (sc != scalars.end()) return add(sc->second);
    if (s.rfind("list<", 0) == 0) {
      Type* t = add(Type::List);
      t->elem = parse(inner(5));
      return t;
    }
    if (s.rfind("optional<", 0) == 0) {
      Type* t = add(Type::Optional);
      t->elem = parse(inner(9));
      return t;
    }
    if (s.rfind("map<string,", 0) == 0) {
      Type* t = add(Type::Map);
      t->elem = parse(inner(11));
      return t;
    }
    return named(s);
  }
};

[[noreturn]] void mismatch(const std::string& path, const char* want, const Value& v) {
  throw DecodeError(path + ": expected " + want + ", got " + show(v));
}

// The SAX DOM builder of nlohmann/json, except that an integer too large for 64 bits
// (which nlohmann would turn into a double) is kept as its digits (a tagged binary). Its
// objects keep the file's key order (protocol section 7: map keys in file order).
constexpr uint8_t kBigIntTag = 0xB1;
using ordered = nlohmann::ordered_json;
struct ExactSax : nlohmann::detail::json_sax_dom_parser<ordered> {
  using Base = nlohmann::detail::json_sax_dom_parser<ordered>;
  using Base::Base;
  bool number_float(double v, const std::string& s) {
    if (s.find_first_of(".eE") == std::string::npos) {
      ordered::binary_t b(std::vector<uint8_t>(s.begin(), s.end()), kBigIntTag);
      return Base::binary(b);
    }
    return Base::number_float(v, s);
  }
};

}  // namespace

std::string key_path(const std::string& k) {
  bool ident = !k.empty() && !std::isdigit(static_cast<unsigned char>(k[0]));
  for (char c : k) ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  return ident ? "." + k : "[" + json(k).dump(-1, ' ', false, json::error_handler_t::replace) + "]";
}

std::string UserTypes::schema_unavailable(const std::string& kind,
                                          const std::string& format) const {
  if (!schemas.is_object() || !schemas.contains(kind))
    return format + ": the dataset has no " + kind + " schema";
  const json& s = schemas.at(kind);
  if (s.contains("unavailable")) return s.at("unavailable").get<std::string>();
  return "";
}

UserTypes load_user_types(const std::string& path, const json& dataset) {
  json j = read_json_file(path);
  UserTypes u;
  static const json empty = json::object();
  const json& defs = j.contains("types") ? j.at("types") : empty;
  TypeParser p{u, defs};
  const json& m = j.at("message");
  std::string msg = m.is_string() ? m.get<std::string>()
                                  : m.at(dataset.at("name").get<std::string>()).get<std::string>();
  u.message = p.parse(msg);
  u.schemas = dataset.contains("schemas") ? dataset.at("schemas") : json::object();
  return u;
}

// ---- values ----------------------------------------------------------------------------
std::string show(const Value& v) {
  switch (v.k) {
    case Value::K::Null:
      return "null";
    case Value::K::Bool:
      return v.b ? "true" : "false";
    case Value::K::Int:
      return std::to_string(v.i);
    case Value::K::Uint:
      return std::to_string(v.u);
    case Value::K::BigInt:
      return v.s;
    case Value::K::Float: {
      std::ostringstream os;
      os.precision(17);
      os << v.f;
      std::string t = os.str();
      if (std::isfinite(v.f) && t.find_first_of(".e") == std::string::npos) t += ".0";
      return t;
    }
    case Value::K::String:
      return json(v.s.size() > 40 ? v.s.substr(0, 40) + "..." : v.s)
          .dump(-1, ' ', false, json::error_handler_t::replace);
    case Value::K::Bytes:
      return "bytes(" + std::to_string(v.s.size()) + ")";
    case Value::K::Timestamp:
      return std::to_string(v.i) + "ms";
    case Value::K::Array:
      return "array(" + std::to_string(v.a.size()) + ")";
    case Value::K::Object:
      return "object(" + std::to_string(v.o.size()) + ")";
  }
  return "?";
}

std::optional<std::string> first_difference(const Value& got, const Value& want,
                                            const std::string& path) {
  if (got.k != want.k) return path + ": " + show(got) + " != " + show(want);
  bool same = true;
  switch (want.k) {
    case Value::K::Null:
      break;
    case Value::K::Bool:
      same = got.b == want.b;
      break;
    case Value::K::Int:
    case Value::K::Timestamp:
      same = got.i == want.i;
      break;
    case Value::K::Uint:
      same = got.u == want.u;
      break;
    case Value::K::Float:
      same = (std::isnan(got.f) && std::isnan(want.f)) ||
             (got.f == want.f && std::signbit(got.f) == std::signbit(want.f));
      break;
    case Value::K::String:
    case Value::K::Bytes:
    case Value::K::BigInt:
      same = got.s == want.s;
      break;
    case Value::K::Array:
      if (got.a.size() != want.a.size())
        return path + ".length: " + std::to_string(got.a.size()) +
               " != " + std::to_string(want.a.size());
      for (size_t i = 0; i < got.a.size(); ++i)
        if (auto d = first_difference(got.a[i], want.a[i], path + "[" + std::to_string(i) + "]"))
          return d;
      break;
    case Value::K::Object: {
      // as maps: small objects by linear search, larger ones through an index
      std::map<std::string_view, const Value*> index;
      for (const auto& kv : got.o) index.emplace(kv.first, &kv.second);
      for (const auto& [k, x] : want.o) {
        auto it = index.find(k);
        if (it == index.end()) return path + key_path(k) + ": missing";
        if (auto d = first_difference(*it->second, x, path + key_path(k))) return d;
      }
      if (got.o.size() != want.o.size()) {
        std::map<std::string_view, bool> w;
        for (const auto& kv : want.o) w.emplace(kv.first, true);
        for (const auto& kv : got.o)
          if (!w.count(kv.first)) return path + key_path(kv.first) + ": unexpected key";
        return path + ".size: " + std::to_string(got.o.size()) +
               " != " + std::to_string(want.o.size());
      }
      break;
    }
  }
  if (same) return std::nullopt;
  return path + ": " + show(got) + " != " + show(want);
}

// Either kind of nlohmann value (sorted or file-ordered objects) -> generic tree.
template <class J>
Value tree_of(const J& j) {
  Value v;
  switch (j.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
      break;
    case json::value_t::boolean:
      v.k = Value::K::Bool, v.b = j.template get<bool>();
      break;
    case json::value_t::number_integer:
      v = Value::integer(j.template get<int64_t>());
      break;
    case json::value_t::number_unsigned:
      v = Value::integer(j.template get<uint64_t>());
      break;
    case json::value_t::number_float:
      v.k = Value::K::Float, v.f = j.template get<double>();
      break;
    case json::value_t::string:
      v.k = Value::K::String, v.s = j.template get_ref<const std::string&>();
      break;
    case json::value_t::binary: {
      const auto& b = j.get_binary();
      v.k = b.has_subtype() && b.subtype() == kBigIntTag ? Value::K::BigInt : Value::K::Bytes;
      v.s.assign(b.begin(), b.end());
      break;
    }
    case json::value_t::array:
      v.k = Value::K::Array;
      v.a.reserve(j.size());
      for (const auto& x : j) v.a.push_back(tree_of(x));
      break;
    case json::value_t::object:
      v.k = Value::K::Object;
      v.o.reserve(j.size());
      for (auto it = j.begin(); it != j.end(); ++it) v.o.emplace_back(it.key(), tree_of(*it));
      break;
  }
  return v;
}

Value from_json(const json& j) { return tree_of(j); }

Value parse_json_exact(const char* p, size_t n) {
  ordered j;
  ExactSax sax(j, true);
  ordered::sax_parse(p, p + n, &sax);
  return tree_of(j);
}

void apply_types(Value& v, const Type& t, const std::string& path) {
  using K = Value::K;
  auto need_int = [&](const char* what) {
    if (v.k == K::Float && std::floor(v.f) == v.f && std::fabs(v.f) < 9.2e18)
      v = Value::integer(static_cast<int64_t>(v.f));  // a library that parsed 3 as 3.0
    if (v.k != K::Int && v.k != K::Uint) mismatch(path, what, v);
  };
  switch (t.kind) {
    case Type::Null:
      if (v.k != K::Null) mismatch(path, "null", v);
      return;
    case Type::Bool:
      if (v.k != K::Bool) mismatch(path, "bool", v);
      return;
    case Type::Int32:
    case Type::Uint32:
    case Type::Int64:
      need_int("integer");
      if (v.k == K::Uint) mismatch(path, "a 64-bit signed integer", v);
      return;
    case Type::Uint64:
      need_int("integer");
      if (v.k == K::Int && v.i < 0) mismatch(path, "an unsigned integer", v);
      return;
    case Type::BigInt:
      if (v.k == K::Int) {
        v.s = std::to_string(v.i);
      } else if (v.k == K::Uint) {
        v.s = std::to_string(v.u);
      } else if (v.k != K::BigInt) {
        mismatch(path, "integer", v);
      }
      v.k = K::BigInt;
      return;
    case Type::Float32:
    case Type::Float64: {
      if (v.k == K::String) {
        if (v.s == "NaN") {
          v.f = std::nan("");
        } else if (v.s == "Infinity") {
          v.f = HUGE_VAL;
        } else if (v.s == "-Infinity") {
          v.f = -HUGE_VAL;
        } else {
          mismatch(path, "float", v);
        }
      } else if (v.k == K::Int) {
        v.f = static_cast<double>(v.i);
      } else if (v.k == K::Uint) {
        v.f = static_cast<double>(v.u);
      } else if (v.k != K::Float) {
        mismatch(path, "float", v);
      }
      v.k = K::Float;
      v.s.clear();
      if (t.kind == Type::Float32) v.f = static_cast<double>(static_cast<float>(v.f)), v.f32 = true;
      return;
    }
    case Type::String:
      if (v.k != K::String) mismatch(path, "string", v);
      return;
    case Type::Bytes:
      if (v.k == K::String) {
        v.s = base64_decode(v.s);
        v.k = K::Bytes;
      } else if (v.k != K::Bytes) {
        mismatch(path, "bytes (base64)", v);
      }
      return;
    case Type::TimestampMs:
      if (v.k == K::Int) {
        v.k = K::Timestamp;
      } else if (v.k == K::String) {
        int64_t ms = parse_iso8601_ms(v.s);
        v = Value{};
        v.k = K::Timestamp, v.i = ms;
      } else if (v.k == K::Float && std::floor(v.f) == v.f) {
        int64_t ms = static_cast<int64_t>(v.f);
        v = Value{};
        v.k = K::Timestamp, v.i = ms;
      } else if (v.k != K::Timestamp) {
        mismatch(path, "timestamp (ms)", v);
      }
      return;
    case Type::Enum:
      if (v.k == K::String) {
        auto it = std::find(t.symbols.begin(), t.symbols.end(), v.s);
        if (it == t.symbols.end()) mismatch(path, "an enum symbol", v);
        v = Value::integer(static_cast<int64_t>(it - t.symbols.begin()));
        return;
      }
      need_int("enum ordinal");
      return;
    case Type::List:
      if (v.k != K::Array) mismatch(path, "array", v);
      for (size_t i = 0; i < v.a.size(); ++i)
        apply_types(v.a[i], *t.elem, path + "[" + std::to_string(i) + "]");
      return;
    case Type::Map:
      if (v.k != K::Object) mismatch(path, "object", v);
      for (auto& [k, x] : v.o) apply_types(x, *t.elem, path + key_path(k));
      return;
    case Type::Record: {
      if (v.k != K::Object) mismatch(path, "record object", v);
      // fields in declaration order (the order positional layouts use)
      bool in_order = v.o.size() == t.fields.size();
      for (size_t i = 0; in_order && i < t.fields.size(); ++i)
        in_order = v.o[i].first == t.fields[i].first;
      if (!in_order) {
        std::vector<std::pair<std::string, Value>> o;
        for (const auto& [name, ft] : t.fields) {
          auto it = std::find_if(v.o.begin(), v.o.end(),
                                 [&](const auto& kv) { return kv.first == name; });
          if (it == v.o.end()) {
            if (ft->kind != Type::Optional && ft->kind != Type::Null)
              throw DecodeError(path + key_path(name) + ": missing");
            o.emplace_back(name, Value{});
          } else {
            o.emplace_back(name, std::move(it->second));
          }
        }
        v.o = std::move(o);
      }
      for (size_t i = 0; i < t.fields.size(); ++i)
        apply_types(v.o[i].second, *t.fields[i].second, path + key_path(t.fields[i].first));
      return;
    }
    case Type::Optional:
      if (v.k != K::Null) apply_types(v, *t.elem, path);
      return;
    case Type::Any:
      return;
  }
}

json to_canonical_json(const Value& v) {
  switch (v.k) {
    case Value::K::Null:
      return nullptr;
    case Value::K::Bool:
      return v.b;
    case Value::K::Int:
    case Value::K::Timestamp:
      return v.i;
    case Value::K::Uint:
      return v.u;
    case Value::K::Float:
      if (std::isnan(v.f)) return "NaN";
      if (std::isinf(v.f)) return v.f > 0 ? "Infinity" : "-Infinity";
      return v.f;
    case Value::K::String:
      return v.s;
    case Value::K::Bytes:
      return base64_encode(v.s);
    case Value::K::BigInt:
      throw NotApplicable("an integer beyond 64 bits");
    case Value::K::Array: {
      json a = json::array();
      for (const auto& x : v.a) a.push_back(to_canonical_json(x));
      return a;
    }
    case Value::K::Object: {
      json o = json::object();
      for (const auto& [k, x] : v.o) o[k] = to_canonical_json(x);
      return o;
    }
  }
  return nullptr;
}

Dataset<Value> load_user_dataset(const std::string& path, const UserTypes& types) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  Value doc = parse_json_exact(text.data(), text.size());
  auto field = [&](const char* name) -> Value& {
    for (auto& kv : doc.o)
      if (kv.first == name) return kv.second;
    throw std::runtime_error(std::string("canonical file has no '") + name + "'");
  };
  Dataset<Value> d;
  d.name = field("name").s;
  d.framing = field("framing").s;
  d.count = static_cast<size_t>(field("count").i);
  d.items = std::move(field("items").a);
  if (d.items.empty()) throw std::runtime_error("dataset has no items");
  for (size_t i = 0; i < d.items.size(); ++i)
    apply_types(d.items[i], *types.message, "$.items[" + std::to_string(i) + "]");
  return d;
}

// ---- base64 (RFC 4648, padded) ----------------------------------------------------------
static const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64_encode(const std::string& in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    out += kB64[n >> 18], out += kB64[(n >> 12) & 63], out += kB64[(n >> 6) & 63],
        out += kB64[n & 63];
  }
  if (i + 1 == in.size()) {
    uint32_t n = uint8_t(in[i]) << 16;
    out += kB64[n >> 18], out += kB64[(n >> 12) & 63], out += "==";
  } else if (i + 2 == in.size()) {
    uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
    out += kB64[n >> 18], out += kB64[(n >> 12) & 63], out += kB64[(n >> 6) & 63], out += '=';
  }
  return out;
}

std::string base64_decode(std::string_view in) {
  if (in.size() % 4) throw DecodeError("base64: length not a multiple of 4");
  auto val = [](char c) -> int {
    const char* p = c ? std::strchr(kB64, c) : nullptr;
    return p ? static_cast<int>(p - kB64) : -1;
  };
  std::string out;
  out.reserve(in.size() / 4 * 3);
  for (size_t i = 0; i < in.size(); i += 4) {
    int a = val(in[i]), b = val(in[i + 1]);
    int c = in[i + 2] == '=' ? 0 : val(in[i + 2]), d = in[i + 3] == '=' ? 0 : val(in[i + 3]);
    if (a < 0 || b < 0 || c < 0 || d < 0) throw DecodeError("base64: bad character");
    uint32_t n = (a << 18) | (b << 12) | (c << 6) | d;
    out += static_cast<char>(n >> 16);
    if (in[i + 2] != '=') out += static_cast<char>((n >> 8) & 255);
    if (in[i + 3] != '=') out += static_cast<char>(n & 255);
  }
  return out;
}

}  // namespace sb
