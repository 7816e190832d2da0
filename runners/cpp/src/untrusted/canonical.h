// The canonical JSON of a decoded generic value (docs/runner-protocol.md section 11): JSON's
// own null, booleans, strings, exact integers and finite floats; everything else a one-key
// "$..." object.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/serializer.h"

namespace sb::untrusted {

using json = nlohmann::json;

// A value nested deeper than this is rendered as {"$other": ...}: the root is depth 0.
inline constexpr int kMaxDepth = 400;

json too_deep();
// A float: the JSON number when finite, else {"$float": "NaN" | "Infinity" | "-Infinity"}.
json number(double f);
json bytes(const uint8_t* p, size_t n);
json ext(int type, const uint8_t* p, size_t n);
json other(const std::string& what);

std::string hex(const uint8_t* p, size_t n);
// Throws NotApplicable on text that is not hex.
Bytes unhex(const std::string& text);

// The key of a one-key "$..." object (a value JSON cannot carry), or empty.
std::string special_key(const json& v);

}  // namespace sb::untrusted
