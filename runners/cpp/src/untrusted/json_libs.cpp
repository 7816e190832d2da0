// The JSON libraries' value trees (nlohmann::json, a RapidJSON Document, simdjson's DOM
// and an On-Demand walk of the whole document), rendered canonically. Every parser runs
// with its defaults, as an application reading text from the network gets them.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <simdjson.h>

#include "harness/compress.h"
#include "untrusted/rows.h"

namespace sb::untrusted {
namespace {

json canon(const json& v, int depth) {
  if (depth > kMaxDepth) return too_deep();
  switch (v.type()) {
    case json::value_t::array: {
      json a = json::array();
      for (const auto& x : v) a.push_back(canon(x, depth + 1));
      return a;
    }
    case json::value_t::object: {
      json o = json::object();
      for (const auto& [k, x] : v.items()) o[k] = canon(x, depth + 1);
      return o;
    }
    case json::value_t::number_float:
      return number(v.get<double>());
    case json::value_t::binary:
      return bytes(v.get_binary().data(), v.get_binary().size());
    case json::value_t::discarded:
      return other("discarded");
    default:  // null, boolean, string, integers
      return v;
  }
}

json canon(const rapidjson::Value& v, int depth) {
  if (depth > kMaxDepth) return too_deep();
  switch (v.GetType()) {
    case rapidjson::kNullType:
      return nullptr;
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return v.GetBool();
    case rapidjson::kStringType:
      return std::string(v.GetString(), v.GetStringLength());
    case rapidjson::kArrayType: {
      json a = json::array();
      for (const auto& x : v.GetArray()) a.push_back(canon(x, depth + 1));
      return a;
    }
    case rapidjson::kObjectType: {
      json o = json::object();  // a repeated key: the last one (as nlohmann and simdjson)
      for (const auto& m : v.GetObject())
        o[std::string(m.name.GetString(), m.name.GetStringLength())] = canon(m.value, depth + 1);
      return o;
    }
    case rapidjson::kNumberType:
      if (v.IsInt64()) return v.GetInt64();
      if (v.IsUint64()) return v.GetUint64();
      return number(v.GetDouble());
  }
  return other("RapidJSON type " + std::to_string(v.GetType()));
}

json canon(simdjson::dom::element e, int depth) {
  using simdjson::dom::element_type;
  if (depth > kMaxDepth) return too_deep();
  switch (e.type()) {
    case element_type::ARRAY: {
      json a = json::array();
      for (simdjson::dom::element x : simdjson::dom::array(e)) a.push_back(canon(x, depth + 1));
      return a;
    }
    case element_type::OBJECT: {
      json o = json::object();
      for (simdjson::dom::key_value_pair kv : simdjson::dom::object(e))
        o[std::string(kv.key)] = canon(kv.value, depth + 1);
      return o;
    }
    case element_type::INT64:
      return int64_t(e);
    case element_type::UINT64:
      return uint64_t(e);
    case element_type::DOUBLE:
      return number(double(e));
    case element_type::STRING:
      return std::string(std::string_view(e));
    case element_type::BOOL:
      return bool(e);
    case element_type::NULL_VALUE:
      return nullptr;
  }
  return other("simdjson element type " + std::to_string(int(e.type())));
}

// An On-Demand value (or the document itself) read whole: On-Demand validates only what
// is read, so a generic decode is a walk of everything.
template <class V>
json canon_od(V& v, int depth) {
  namespace od = simdjson::ondemand;
  if (depth > kMaxDepth) return too_deep();
  switch (v.type().value()) {
    case od::json_type::array: {
      json a = json::array();
      for (auto x : v.get_array()) {
        od::value item = x.value();
        a.push_back(canon_od(item, depth + 1));
      }
      return a;
    }
    case od::json_type::object: {
      json o = json::object();
      for (auto f : v.get_object()) {
        od::field field;
        if (auto err = std::move(f).get(field)) throw simdjson::simdjson_error(err);
        std::string key(field.unescaped_key().value());
        od::value item = field.value();
        o[key] = canon_od(item, depth + 1);
      }
      return o;
    }
    case od::json_type::number: {
      od::number x = v.get_number().value();
      switch (x.get_number_type()) {
        case od::number_type::signed_integer:
          return x.get_int64();
        case od::number_type::unsigned_integer:
          return x.get_uint64();
        case od::number_type::floating_point_number:
          return number(x.get_double());
      }
      return other("simdjson number type");
    }
    case od::json_type::string:
      return std::string(v.get_string().value());
    case od::json_type::boolean:
      return v.get_bool().value();
    case od::json_type::null:
      if (!v.is_null().value()) throw simdjson::simdjson_error(simdjson::N_ATOM_ERROR);
      return nullptr;
  }
  return other("simdjson json_type");
}

}  // namespace

json decode_nlohmann(const uint8_t* p, size_t n) { return canon(json::parse(p, p + n), 0); }

json decode_rapidjson(const uint8_t* p, size_t n) {
  rapidjson::Document doc;
  // full precision: the value nearest the text, as the row's user datasets read it
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(reinterpret_cast<const char*>(p), n);
  if (doc.HasParseError())
    throw DecodeError(std::string("rapidjson: ") +
                      rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
                      std::to_string(doc.GetErrorOffset()));
  return canon(doc, 0);
}

// p has kPad readable bytes past n (simdjson's padding).
json decode_simdjson_dom(const uint8_t* p, size_t n) {
  static simdjson::dom::parser parser;
  return canon(parser.parse(p, n, false).value(), 0);
}

json decode_simdjson_ondemand(const uint8_t* p, size_t n) {
  static simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc =
      parser.iterate(simdjson::padded_string_view(reinterpret_cast<const char*>(p), n, n + kPad));
  json out = canon_od(doc, 0);
  // past the root's last token the iterator is at the end, unless text follows it
  if (!doc.current_location().error()) throw simdjson::simdjson_error(simdjson::TRAILING_CONTENT);
  return out;
}

// nlohmann's dump of a canonical value JSON text can carry.
Bytes encode_nlohmann(const json& value) {
  std::function<void(const json&)> check = [&](const json& v) {
    if (std::string k = special_key(v); !k.empty())
      throw NotApplicable(k + " values have no JSON text");
    if (v.is_structured())
      for (const auto& x : v) check(x);
  };
  check(value);
  std::string text = value.dump();
  return Bytes(text.begin(), text.end());
}

}  // namespace sb::untrusted
