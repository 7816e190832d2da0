// Per serializer: its library's decode to a generic value and encode of one (when it has
// them), and which exceptions are the library's documented refusal of bad input.
#pragma once

#include <exception>
#include <string>

#include "untrusted/canonical.h"

namespace sb::untrusted {

// The canonical JSON of the value the library decoded; throws what the library throws.
using GenericDecode = json (*)(const uint8_t* p, size_t n);
// The library's encoding of a canonical value; throws NotApplicable for one its generic
// tree cannot carry.
using GenericEncode = Bytes (*)(const json& value);
// Whether an exception is the documented refusal ("rejected") rather than a fault ("error").
using Refusal = bool (*)(const std::exception_ptr& e);

struct Row {
  Refusal refusal;
  GenericDecode decode = nullptr;
  GenericEncode encode = nullptr;
};

// nullptr: a row that decodes nothing (baselines).
const Row* find_row(const std::string& serializer);

// "<exception type>: <its text>", for the outcome's error.
std::string describe(const std::exception_ptr& e);

// The libraries' generic values (one file per format family).
json decode_nlohmann(const uint8_t* p, size_t n);
json decode_rapidjson(const uint8_t* p, size_t n);
json decode_simdjson_dom(const uint8_t* p, size_t n);
json decode_simdjson_ondemand(const uint8_t* p, size_t n);
Bytes encode_nlohmann(const json& value);
json decode_msgpack(const uint8_t* p, size_t n);
json decode_msgpack_zerocopy(const uint8_t* p, size_t n);
Bytes encode_msgpack(const json& value);
json decode_bson(const uint8_t* p, size_t n);
json decode_flexbuffers(const uint8_t* p, size_t n);

}  // namespace sb::untrusted
