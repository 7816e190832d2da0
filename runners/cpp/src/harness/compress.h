#pragma once
#include <memory>
#include <string>

#include "serializer.h"

namespace sb {
// zlib (RFC 1950) level 6, zstd level 3, lz4 frame format at its default level.
// Contexts are created once per cell and reused, as a store of separate blobs would.
struct Compressor {
  virtual ~Compressor() = default;
  virtual void compress(const uint8_t* p, size_t n, Bytes& out) = 0;  // appends
  // Replaces out's content; out.size() = result + kPad zero bytes (simdjson padding).
  virtual size_t decompress(const uint8_t* p, size_t n, Bytes& out) = 0;
};
inline constexpr size_t kPad = 64;
std::unique_ptr<Compressor> make_compressor(const std::string& name);  // null: unknown
inline const char* kCodecs[] = {"zlib", "zstd", "lz4"};
}  // namespace sb
