// Forms other runners write that readers here accept as well (cross-language read-back,
// protocol section 11): ISO-8601 date-times in text formats, enum symbols by name.
// Writers here use the canonical form (epoch ms, enum ordinals), except FlexBuffers, whose
// maps carry enums as their symbol (the generic value tree of the schemaless formats).
#pragma once

#include <cstdint>
#include <iterator>
#include <string_view>

#include "serializer.h"

namespace sb {

// "YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]" -> milliseconds since the epoch.
inline int64_t parse_iso8601_ms(std::string_view s) {
  auto num = [&](size_t pos, size_t len) -> int64_t {
    if (pos + len > s.size()) throw DecodeError("bad date-time: " + std::string(s));
    int64_t v = 0;
    for (size_t i = pos; i < pos + len; ++i) {
      if (s[i] < '0' || s[i] > '9') throw DecodeError("bad date-time: " + std::string(s));
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  int64_t y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2),
          se = num(17, 2);
  size_t p = 19;
  int64_t ms = 0;
  if (p < s.size() && s[p] == '.') {
    int64_t scale = 100;
    for (++p; p < s.size() && s[p] >= '0' && s[p] <= '9'; ++p, scale /= 10)
      ms += (s[p] - '0') * scale;
  }
  int64_t offset_min = 0;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
    offset_min = (num(p + 1, 2) * 60 + num(p + 4, 2)) * (s[p] == '-' ? -1 : 1);
  }
  // days from civil (Howard Hinnant)
  y -= mo <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  int64_t days = era * 146097 + doe - 719468;
  return ((days * 24 + h) * 60 + mi - offset_min) * 60000 + se * 1000 + ms;
}

// Enum symbols by ordinal, from the generated model's enum_symbols.
template <class E>
const char* enum_name(E e) {
  const auto& names = enum_symbols<E>::names;
  auto i = static_cast<size_t>(e);
  return i < std::size(names) ? names[i] : "";
}

template <class E>
E enum_from_name(std::string_view s) {
  const auto& names = enum_symbols<E>::names;
  for (size_t i = 0; i < std::size(names); ++i)
    if (s == names[i]) return static_cast<E>(i);
  throw DecodeError("unknown enum symbol " + std::string(s));
}

}  // namespace sb
