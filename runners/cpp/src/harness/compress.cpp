#include "compress.h"

#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <stdexcept>

namespace sb {
namespace {

struct Zlib final : Compressor {
  z_stream def{}, inf{};
  Zlib() {
    if (deflateInit(&def, 6) != Z_OK || inflateInit(&inf) != Z_OK)
      throw std::runtime_error("zlib init failed");
  }
  ~Zlib() override {
    deflateEnd(&def);
    inflateEnd(&inf);
  }
  void compress(const uint8_t* p, size_t n, Bytes& out) override {
    deflateReset(&def);
    size_t old = out.size(), bound = deflateBound(&def, n);
    out.resize(old + bound);
    def.next_in = const_cast<uint8_t*>(p);
    def.avail_in = static_cast<uInt>(n);
    def.next_out = out.data() + old;
    def.avail_out = static_cast<uInt>(bound);
    if (deflate(&def, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate failed");
    out.resize(old + bound - def.avail_out);
  }
  size_t decompress(const uint8_t* p, size_t n, Bytes& out) override {
    inflateReset(&inf);
    if (out.size() < n * 4 + kPad) out.resize(n * 4 + kPad);
    inf.next_in = const_cast<uint8_t*>(p);
    inf.avail_in = static_cast<uInt>(n);
    size_t done = 0;
    for (;;) {
      inf.next_out = out.data() + done;
      inf.avail_out = static_cast<uInt>(out.size() - kPad - done);
      int rc = inflate(&inf, Z_FINISH);
      done = out.size() - kPad - inf.avail_out;
      if (rc == Z_STREAM_END) break;
      if (rc != Z_BUF_ERROR && rc != Z_OK) throw std::runtime_error("inflate failed");
      out.resize(out.size() * 2);
    }
    std::fill(out.begin() + done, out.begin() + done + kPad, 0);
    return done;
  }
};

struct Zstd final : Compressor {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_DCtx* d = ZSTD_createDCtx();
  ~Zstd() override {
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
  }
  void compress(const uint8_t* p, size_t n, Bytes& out) override {
    size_t old = out.size(), bound = ZSTD_compressBound(n);
    out.resize(old + bound);
    size_t r = ZSTD_compressCCtx(c, out.data() + old, bound, p, n, 3);
    if (ZSTD_isError(r)) throw std::runtime_error(ZSTD_getErrorName(r));
    out.resize(old + r);
  }
  size_t decompress(const uint8_t* p, size_t n, Bytes& out) override {
    unsigned long long sz = ZSTD_getFrameContentSize(p, n);
    if (sz == ZSTD_CONTENTSIZE_ERROR || sz == ZSTD_CONTENTSIZE_UNKNOWN)
      throw std::runtime_error("zstd: unknown content size");
    if (out.size() < sz + kPad) out.resize(sz + kPad);
    size_t r = ZSTD_decompressDCtx(d, out.data(), sz, p, n);
    if (ZSTD_isError(r)) throw std::runtime_error(ZSTD_getErrorName(r));
    std::fill(out.begin() + r, out.begin() + r + kPad, 0);
    return r;
  }
};

struct Lz4 final : Compressor {
  LZ4F_cctx* c = nullptr;
  LZ4F_dctx* d = nullptr;
  Lz4() {
    LZ4F_createCompressionContext(&c, LZ4F_VERSION);
    LZ4F_createDecompressionContext(&d, LZ4F_VERSION);
  }
  ~Lz4() override {
    LZ4F_freeCompressionContext(c);
    LZ4F_freeDecompressionContext(d);
  }
  void compress(const uint8_t* p, size_t n, Bytes& out) override {
    size_t old = out.size(), bound = LZ4F_compressFrameBound(n, nullptr);
    out.resize(old + bound);
    size_t r = LZ4F_compressFrame(out.data() + old, bound, p, n, nullptr);
    if (LZ4F_isError(r)) throw std::runtime_error(LZ4F_getErrorName(r));
    out.resize(old + r);
  }
  size_t decompress(const uint8_t* p, size_t n, Bytes& out) override {
    LZ4F_resetDecompressionContext(d);
    if (out.size() < n * 4 + kPad) out.resize(n * 4 + kPad);
    size_t done = 0, in = 0;
    for (;;) {
      size_t dst = out.size() - kPad - done, src = n - in;
      size_t r = LZ4F_decompress(d, out.data() + done, &dst, p + in, &src, nullptr);
      if (LZ4F_isError(r)) throw std::runtime_error(LZ4F_getErrorName(r));
      done += dst;
      in += src;
      if (r == 0) break;
      if (in >= n && dst == 0) throw std::runtime_error("lz4: truncated frame");
      if (out.size() - kPad - done < 65536) out.resize(out.size() * 2);
    }
    std::fill(out.begin() + done, out.begin() + done + kPad, 0);
    return done;
  }
};

}  // namespace

std::unique_ptr<Compressor> make_compressor(const std::string& name) {
  if (name == "zlib") return std::make_unique<Zlib>();
  if (name == "zstd") return std::make_unique<Zstd>();
  if (name == "lz4") return std::make_unique<Lz4>();
  return nullptr;
}

}  // namespace sb
