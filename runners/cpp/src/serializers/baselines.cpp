// `noop` (harness overhead) and `memcpy` (copy of pre-encoded bytes: the floor).
#include "../harness/timing.h"
#include "handwritten.h"

namespace sb {
namespace {

// encode appends a buffer prepared before timing (8 zero bytes, as the Python runner's
// noop); decode hands back the original object. Both run through the same loop, framing and sinks
// as real serializers.
template <class T>
struct Noop final : Codec<T> {
  const std::vector<T>* items = nullptr;
  size_t next = 0;
  void prepare(const std::vector<T>& v) override { items = &v, next = 0; }
  static constexpr uint8_t kBlob[8] = {};
  void encode(const T&, Bytes& out) override { out.insert(out.end(), kBlob, kBlob + sizeof kBlob); }
  size_t decode(const uint8_t*, size_t n, T& out) override {
    out = (*items)[next++ % items->size()];
    return n ? n : 1;
  }
  size_t decode_timed(const uint8_t*, size_t n, T&, uint64_t& sink) override {
    const T* v = &(*items)[next++ % items->size()];
    do_not_optimize(v);
    sink += reinterpret_cast<uintptr_t>(v) & 1;
    return n ? n : 1;
  }
  bool self_delimiting() const override { return false; }
};

// encode appends the item's pre-encoded (handwritten) bytes; decode copies the bytes into
// a scratch buffer. The check decodes those bytes with the handwritten reader.
template <class T>
struct Memcpy final : Codec<T> {
  std::vector<Bytes> pre;
  std::vector<const T*> index;
  size_t next = 0;
  Bytes scratch;
  void prepare(const std::vector<T>& v) override {
    pre.clear();
    for (const auto& x : v) {
      Bytes b;
      hw::write(b, x);
      pre.push_back(std::move(b));
    }
    next = 0;
  }
  void encode(const T&, Bytes& out) override {
    const Bytes& b = pre[next++ % pre.size()];
    size_t old = out.size();
    out.resize(old + b.size());
    std::memcpy(out.data() + old, b.data(), b.size());
  }
  size_t decode(const uint8_t* p, size_t n, T& out) override {
    hw::Reader r{p, p + n};
    hw::read(r, out);
    return n;
  }
  size_t decode_timed(const uint8_t* p, size_t n, T&, uint64_t& sink) override {
    scratch.resize(n);
    std::memcpy(scratch.data(), p, n);
    do_not_optimize(scratch.data());
    sink += scratch.empty() ? 0 : scratch[0] & 1;
    return n;
  }
};

template <template <class> class C>
std::unique_ptr<CodecBase> make(DatasetId id) {
  return dispatch_dataset(id, [](auto d) -> std::unique_ptr<CodecBase> {
    return std::make_unique<C<dataset_t<decltype(d)::value>>>();
  });
}

}  // namespace

SerializerEntry reg_noop() {
  return {{"noop", "none", "none", "1", {"baseline"}, 0}, make<Noop>, [](DatasetId) {
            return std::string();
          }};
}
SerializerEntry reg_memcpy() {
  return {{"memcpy", "handwritten-binary", "libc memcpy", "1", {"baseline", "binary"}, 0},
          make<Memcpy>,
          [](DatasetId) { return std::string(); }};
}
}  // namespace sb
