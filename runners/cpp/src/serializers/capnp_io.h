// What the Cap'n Proto rows share: writing a message into the cell's byte buffer and
// reading one from bytes that may not be word-aligned.
#pragma once

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <cstring>
#include <vector>

#include "../harness/serializer.h"

namespace sb {

// A kj stream that appends to a Bytes buffer (writeMessage: the standard unpacked framing).
struct CapnpOut final : kj::OutputStream {
  Bytes* b;
  explicit CapnpOut(Bytes& x) : b(&x) {}
  void write(const void* p, size_t n) override { append(*b, p, n); }
};

// The words of p[0, n): p itself when aligned, else a copy in `aligned` (a message inside
// a stream starts after its varint prefix).
inline kj::ArrayPtr<const capnp::word> capnp_words(const uint8_t* p, size_t n,
                                                   std::vector<capnp::word>& aligned) {
  if (n % sizeof(capnp::word)) throw DecodeError("capnp: size is not a whole number of words");
  const auto* w = reinterpret_cast<const capnp::word*>(p);
  if (reinterpret_cast<uintptr_t>(p) % alignof(capnp::word)) {
    aligned.resize(n / sizeof(capnp::word));
    std::memcpy(aligned.data(), p, n);
    w = aligned.data();
  }
  return kj::ArrayPtr<const capnp::word>(w, n / sizeof(capnp::word));
}

// Reader limits for whole datasets in one message (the default stops at 64 MiB traversed).
inline capnp::ReaderOptions capnp_reader_options() {
  capnp::ReaderOptions opts;
  opts.traversalLimitInWords = ~uint64_t(0) >> 4;
  return opts;
}

}  // namespace sb
