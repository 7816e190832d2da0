// `noop` (harness overhead) and `memcpy` (copy of pre-encoded bytes: the floor).
#include "../harness/clock.h"
#include "../harness/typed_user.h"
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
  // flatten: the vector's growth inlined, as in the rows it is the floor of (handwritten.h)
  [[gnu::flatten]] void encode(const T&, Bytes& out) override {
    out.insert(out.end(), kBlob, kBlob + sizeof kBlob);
  }
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

// The copy floor. encode appends the prepared hand-written bytes of the message with one
// copy (their size is known, so stream framing writes the prefix first and copies once);
// decode copies each message's bytes into a scratch buffer without parsing them. The
// check decodes those bytes with the hand-written reader.
template <class T>
struct Memcpy final : Codec<T> {
  const std::vector<T>* items = nullptr;
  std::vector<Bytes> pre;
  Bytes scratch, other;
  void prepare(const std::vector<T>& v) override {
    items = &v;
    pre.clear();
    for (const auto& x : v) {
      Bytes b;
      hw::write(b, x);
      pre.push_back(std::move(b));
    }
  }
  // The prepared bytes of v, which is one of the prepared items (the harness encodes
  // items[i % n]); any other value is written on the spot (unit tests only).
  const Bytes& bytes_of(const T& v) {
    auto a = reinterpret_cast<uintptr_t>(&v);
    if (items && !items->empty()) {
      auto lo = reinterpret_cast<uintptr_t>(items->data());
      auto hi = reinterpret_cast<uintptr_t>(items->data() + items->size());
      if (a >= lo && a < hi) return pre[(a - lo) / sizeof(T)];
    }
    other.clear();
    hw::write(other, v);
    return other;
  }
  [[gnu::flatten]] void encode(const T& v, Bytes& out) override {  // as Noop::encode
    const Bytes& b = bytes_of(v);
    size_t old = out.size();
    out.resize(old + b.size());
    std::memcpy(out.data() + old, b.data(), b.size());
  }
  bool has_encoded_size() const override { return true; }
  size_t encoded_size(const T& v) override { return bytes_of(v).size(); }
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
  SerializerEntry e;
  e.meta = {"noop", "none", "none", "1", {"baseline"}, 0};
  e.make = make<Noop>;
  e.reason = [](DatasetId) { return std::string(); };
  e.make_user = [] { return std::unique_ptr<CodecBase>(new Noop<Value>()); };
  return e;
}
SerializerEntry reg_memcpy() {
  SerializerEntry e;
  e.meta = {"memcpy", "handwritten-binary", "libc memcpy", "1", {"baseline"}, 0};
  e.make = make<Memcpy>;
  e.reason = [](DatasetId) { return std::string(); };
  e.make_typed_user = [](size_t i) {
    return dispatch_user_model(i, [](auto tag) -> std::unique_ptr<CodecBase> {
      return std::make_unique<Memcpy<typename decltype(tag)::type>>();
    });
  };
  return e;
}
}  // namespace sb
