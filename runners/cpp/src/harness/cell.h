// One cell's data, reference encoding, round-trip check, sizes and the bodies of its timed
// operations. Shared by the runner and the Google Benchmark cross-check (bench/gbench.cpp),
// so that both time the very same code.
#pragma once

#include <nlohmann/json.hpp>

#include "clock.h"
#include "compress.h"
#include "dataset.h"
#include "serializer.h"
#include "user.h"

namespace sb {
using json = nlohmann::json;

template <class T>
struct CellRunner {
  Codec<T>& codec;
  Dataset<T> data;
  std::vector<T> check_items;
  Bytes enc, tmp, tmp2;  // enc: reference encoding, + kPad zero bytes
  size_t enc_size = 0;
  uint64_t sink = 0;
  bool prefixed_input = false;  // decode_from: a self-delimiting stream written with prefixes

  size_t n_messages() const { return data.stream() ? data.count : 1; }
  const T& item(size_t i) const { return data.items[i % data.items.size()]; }

  // The timed encode of the whole dataset. The framing is chosen once, not per message (a
  // string compare and two virtual calls), and `flatten` inlines the frame's varint and
  // vector::insert: in this unit of many instantiations GCC otherwise calls an out-of-line
  // copy of insert for every message.
  [[gnu::flatten]] void encode_all(Bytes& out) {
    out.clear();
    const size_t n = n_messages();
    if (!data.stream() || codec.self_delimiting()) {
      for (size_t i = 0; i < n; ++i) codec.encode(item(i), out);
    } else if (codec.has_encoded_size()) {
      for (size_t i = 0; i < n; ++i) {
        put_varint(out, codec.encoded_size(item(i)));
        codec.encode(item(i), out);
      }
    } else {
      for (size_t i = 0; i < n; ++i) {
        tmp.clear();
        codec.encode(item(i), tmp);
        put_varint(out, tmp.size());
        append(out, tmp.data(), tmp.size());
      }
    }
  }
  void encode_all_compressed(Compressor& c, Bytes& out) {
    out.clear();
    size_t n = n_messages();
    for (size_t i = 0; i < n; ++i) {
      tmp.clear();
      codec.encode(item(i), tmp);
      if (data.stream()) {
        tmp2.clear();
        c.compress(tmp.data(), tmp.size(), tmp2);
        put_varint(out, tmp2.size());
        append(out, tmp2.data(), tmp2.size());
      } else {
        c.compress(tmp.data(), tmp.size(), out);
      }
    }
  }
  // Walks the frames of buf[0, n): f(ptr, len_available) -> bytes used
  template <class F>
  void for_each_frame(const uint8_t* p, size_t n, F&& f) {
    size_t msgs = n_messages(), pos = 0;
    for (size_t i = 0; i < msgs; ++i) {
      if (!data.stream()) {
        f(i, p, n);
        return;
      }
      if (codec.self_delimiting() && !prefixed_input) {
        size_t used = f(i, p + pos, n - pos);
        if (used == 0) throw DecodeError("decoder consumed no bytes");
        pos += used;
      } else {
        uint64_t len;
        size_t h = get_varint(p + pos, n - pos, len);
        if (!h || len > n - pos - h) throw DecodeError("bad frame length");
        f(i, p + pos + h, static_cast<size_t>(len));
        pos += h + len;
      }
    }
  }
  template <class F>
  void for_each_compressed_frame(Compressor& c, const uint8_t* p, size_t n, F&& f) {
    size_t msgs = n_messages(), pos = 0;
    for (size_t i = 0; i < msgs; ++i) {
      if (!data.stream()) {
        size_t m = c.decompress(p, n, tmp);
        f(i, tmp.data(), m);
        return;
      }
      uint64_t len;
      size_t h = get_varint(p + pos, n - pos, len);
      if (!h || len > n - pos - h) throw DecodeError("bad frame length");
      size_t m = c.decompress(p + pos + h, static_cast<size_t>(len), tmp);
      f(i, tmp.data(), m);
      pos += h + len;
    }
  }

  // The round-trip check: encode the dataset, decode every message, compare. With `decode`
  // false (prepare's verify: false) only the encoding, and null: no decode, no comparison.
  json check(bool decode = true) {
    for (size_t i = 0; i < data.items.size(); ++i) {
      std::string why = codec.reject(data.items[i]);
      if (why.empty()) continue;
      size_t root = why.find('$');  // "$..." names a path inside message i
      if (root != std::string::npos) why.insert(root + 1, "[" + std::to_string(i) + "]");
      throw NotApplicable(why);
    }
    codec.prepare(data.items);
    encode_all(enc);
    enc_size = enc.size();
    enc.resize(enc_size + kPad, 0);
    return decode ? verify() : json();
  }
  // decode_from: check (and later time) another runner's bytes instead of our own.
  json check_bytes(const std::string& bytes) {
    codec.prepare(data.items);
    enc.assign(bytes.begin(), bytes.end());
    enc_size = enc.size();
    enc.resize(enc_size + kPad, 0);
    try {
      return verify();
    } catch (const std::exception& ex) {
      // A self-delimiting format's stream may have been written with varint prefixes
      // (the protocol allows both): try that framing before giving up.
      if (data.stream() && codec.self_delimiting()) {
        prefixed_input = true;
        try {
          return verify();
        } catch (const std::exception&) {
          prefixed_input = false;
        }
      }
      return {{"ok", false}, {"detail", std::string("cannot decode: ") + ex.what()}};
    }
  }
  // Decodes enc[0, enc_size) message by message and compares with check_items.
  json verify() {
    T got;
    std::optional<std::string> diff;
    size_t compared = 0;
    for_each_frame(enc.data(), enc_size, [&](size_t i, const uint8_t* p, size_t n) -> size_t {
      if (diff) return n ? n : 1;
      got = T{};
      size_t used = codec.decode(p, n, got);
      diff = first_difference(got, check_items[i % check_items.size()],
                              "$[" + std::to_string(i) + "]");
      ++compared;
      return used;
    });
    codec.prepare(data.items);
    if (diff) return {{"ok", false}, {"detail", *diff}};
    std::string what = data.stream() ? std::to_string(compared) + " messages equal" : "equal";
    if constexpr (is_vector<T>::value) {
      if (!data.stream()) what = std::to_string(data.items[0].size()) + " records equal";
    }
    return {{"ok", true}, {"detail", what}};
  }

  json sizes() {
    json s = {{"encoded", enc_size}};
    for (const char* name : kCodecs) {
      auto c = make_compressor(name);
      size_t total = 0;
      if (!data.stream()) {
        Bytes out;
        c->compress(enc.data(), enc_size, out);
        total = out.size();
      } else {
        // every message is compressed on its own: size per distinct item, summed
        std::vector<size_t> per(data.items.size());
        for (size_t k = 0; k < data.items.size(); ++k) {
          Bytes m, out;
          codec.encode(data.items[k], m);
          c->compress(m.data(), m.size(), out);
          per[k] = varint_size(out.size()) + out.size();
        }
        for (size_t i = 0; i < data.count; ++i) total += per[i % per.size()];
      }
      s[name] = total;
    }
    return s;
  }

  // The body of one iteration of an operation.
  std::function<void()> body(bool encode, const std::string& codec_name, Bytes& out, Bytes& input,
                             std::unique_ptr<Compressor>& comp) {
    if (!codec_name.empty()) comp = make_compressor(codec_name);
    if (encode) {
      if (comp)
        return [this, &out, &comp] {
          encode_all_compressed(*comp, out);
          do_not_optimize(out.data());
        };
      return [this, &out] {
        encode_all(out);
        do_not_optimize(out.data());
      };
    }
    if (comp) {
      encode_all_compressed(*comp, input);
      size_t n = input.size();
      return [this, &input, n, &comp] {
        T scratch;
        for_each_compressed_frame(*comp, input.data(), n,
                                  [&](size_t, const uint8_t* p, size_t m) -> size_t {
                                    return codec.decode_timed(p, m, scratch, sink);
                                  });
        do_not_optimize(scratch);
        do_not_optimize(sink);
      };
    }
    return [this] {
      if (data.stream()) {
        T scratch;  // reused across the messages of one iteration
        for_each_frame(enc.data(), enc_size, [&](size_t, const uint8_t* p, size_t m) -> size_t {
          return codec.decode_timed(p, m, scratch, sink);
        });
        do_not_optimize(scratch);
      } else {
        T obj;  // a fresh object per iteration
        codec.decode_timed(enc.data(), enc_size, obj, sink);
        do_not_optimize(obj);
      }
      do_not_optimize(sink);
    };
  }
};

// Instantiated once, in cells.cpp (core library): the runner and the Google Benchmark
// cross-check then execute the very same machine code for an operation's body.
// The built-in message types come from the generated model (SB_BUILTIN_MESSAGE_TYPES).
#define SB_EXTERN_CELL(T) extern template struct CellRunner<T>;
SB_BUILTIN_MESSAGE_TYPES(SB_EXTERN_CELL)
#undef SB_EXTERN_CELL
extern template struct CellRunner<Value>;

}  // namespace sb
