#include "untrusted/canonical.h"

#include <cmath>

namespace sb::untrusted {

json too_deep() { return other("nested deeper than " + std::to_string(kMaxDepth)); }

json number(double f) {
  if (std::isnan(f)) return {{"$float", "NaN"}};
  if (std::isinf(f)) return {{"$float", f > 0 ? "Infinity" : "-Infinity"}};
  return f;
}

json bytes(const uint8_t* p, size_t n) { return {{"$bytes", hex(p, n)}}; }

json ext(int type, const uint8_t* p, size_t n) {
  return {{"$ext", json::array({type, hex(p, n)})}};
}

json other(const std::string& what) { return {{"$other", what}}; }

std::string hex(const uint8_t* p, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = kDigits[p[i] >> 4];
    s[2 * i + 1] = kDigits[p[i] & 15];
  }
  return s;
}

Bytes unhex(const std::string& text) {
  auto digit = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw NotApplicable("not hex: \"" + text.substr(0, 40) + "\"");
  };
  if (text.size() % 2)
    throw NotApplicable("odd number of hex digits: \"" + text.substr(0, 40) + "\"");
  Bytes out(text.size() / 2);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<uint8_t>(digit(text[2 * i]) << 4 | digit(text[2 * i + 1]));
  return out;
}

std::string special_key(const json& v) {
  if (!v.is_object() || v.size() != 1) return "";
  const std::string& k = v.begin().key();
  return !k.empty() && k[0] == '$' ? k : "";
}

}  // namespace sb::untrusted
