// libbson's documents and FlexBuffers' references as generic values, each checked the way
// the library documents for untrusted bytes first (bson_validate_with_error,
// flexbuffers::VerifyBuffer), then rendered canonically.
#include <bson/bson.h>
#include <flatbuffers/flexbuffers.h>

#include "untrusted/rows.h"

namespace sb::untrusted {
namespace {

json bson_value(const bson_iter_t* it, int depth);

json bson_members(bson_iter_t* it, bool array, int depth) {
  json out = array ? json::array() : json::object();
  while (bson_iter_next(it)) {
    json v = bson_value(it, depth + 1);
    if (array) {
      out.push_back(std::move(v));
    } else {
      out[bson_iter_key(it)] = std::move(v);
    }
  }
  return out;
}

json bson_value(const bson_iter_t* it, int depth) {
  if (depth > kMaxDepth) return too_deep();
  switch (bson_iter_type(it)) {
    case BSON_TYPE_DOUBLE:
      return number(bson_iter_double(it));
    case BSON_TYPE_UTF8: {
      uint32_t len = 0;
      const char* s = bson_iter_utf8(it, &len);
      return std::string(s, len);
    }
    case BSON_TYPE_DOCUMENT:
    case BSON_TYPE_ARRAY: {
      bson_iter_t child;
      if (!bson_iter_recurse(it, &child)) throw DecodeError("bson: bad nested document");
      return bson_members(&child, bson_iter_type(it) == BSON_TYPE_ARRAY, depth);
    }
    case BSON_TYPE_BINARY: {
      bson_subtype_t subtype;
      uint32_t len = 0;
      const uint8_t* b = nullptr;
      bson_iter_binary(it, &subtype, &len, &b);
      return bytes(b, len);
    }
    case BSON_TYPE_UNDEFINED:
      return {{"$undefined", true}};
    case BSON_TYPE_BOOL:
      return bson_iter_bool(it);
    case BSON_TYPE_DATE_TIME: {
      int64_t ms = bson_iter_date_time(it);
      int64_t s = ms / 1000 - (ms % 1000 < 0 ? 1 : 0);
      return {{"$timestamp", {s, (ms - s * 1000) * 1000000}}};
    }
    case BSON_TYPE_NULL:
      return nullptr;
    case BSON_TYPE_INT32:
      return bson_iter_int32(it);
    case BSON_TYPE_INT64:
      return bson_iter_int64(it);
    default:
      return other("bson type " + std::to_string(static_cast<int>(bson_iter_type(it))));
  }
}

json flex_value(const flexbuffers::Reference& r, int depth) {
  if (depth > kMaxDepth) return too_deep();
  if (r.IsNull()) return nullptr;
  if (r.IsBool()) return r.AsBool();
  if (r.IsUInt()) return r.AsUInt64();
  if (r.IsInt()) return r.AsInt64();
  if (r.IsFloat()) return number(r.AsDouble());
  if (r.IsKey()) return std::string(r.AsKey());
  if (r.IsString()) {
    flexbuffers::String s = r.AsString();
    return std::string(s.c_str(), s.size());
  }
  if (r.IsBlob()) {
    flexbuffers::Blob b = r.AsBlob();
    return bytes(b.data(), b.size());
  }
  if (r.IsMap()) {
    flexbuffers::Map m = r.AsMap();
    flexbuffers::TypedVector keys = m.Keys();
    flexbuffers::Vector values = m.Values();
    json out = json::object();
    for (size_t i = 0; i < keys.size() && i < values.size(); ++i)
      out[keys[i].AsKey()] = flex_value(values[i], depth + 1);
    return out;
  }
  auto elements = [&](const auto& v) {
    json out = json::array();
    for (size_t i = 0; i < v.size(); ++i) out.push_back(flex_value(v[i], depth + 1));
    return out;
  };
  if (r.IsUntypedVector()) return elements(r.AsVector());
  if (r.IsTypedVector()) return elements(r.AsTypedVector());
  if (r.IsFixedTypedVector()) return elements(r.AsFixedTypedVector());
  return other("flexbuffers type " + std::to_string(r.GetType()));
}

}  // namespace

json decode_bson(const uint8_t* p, size_t n) {
  bson_t doc;
  if (!bson_init_static(&doc, p, n)) throw DecodeError("bson: bad document length");
  bson_error_t err;
  if (!bson_validate_with_error(&doc, BSON_VALIDATE_NONE, &err))
    throw DecodeError(std::string("bson: ") + err.message);
  bson_iter_t it;
  if (!bson_iter_init(&it, &doc)) throw DecodeError("bson: bad document");
  return bson_members(&it, false, 0);
}

json decode_flexbuffers(const uint8_t* p, size_t n) {
  if (!flexbuffers::VerifyBuffer(p, n)) throw DecodeError("flexbuffers: buffer does not verify");
  return flex_value(flexbuffers::GetRoot(p, n), 0);
}

}  // namespace sb::untrusted
