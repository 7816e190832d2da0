// std::streambuf adapters for the stream-based archives (cereal, Boost): append to Bytes,
// read from a memory range.
#pragma once

#include <streambuf>

#include "../harness/serializer.h"

namespace sb {
struct BytesOutBuf : std::streambuf {
  Bytes* out;
  explicit BytesOutBuf(Bytes& b) : out(&b) {}
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) out->push_back(static_cast<uint8_t>(c));
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    append(*out, s, static_cast<size_t>(n));
    return n;
  }
};
struct MemInBuf : std::streambuf {
  MemInBuf(const uint8_t* p, size_t n) {
    char* b = const_cast<char*>(reinterpret_cast<const char*>(p));
    setg(b, b, b + n);
  }
  size_t used() const { return static_cast<size_t>(gptr() - eback()); }
};
}  // namespace sb
