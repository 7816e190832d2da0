// msgpack-c's generic value (msgpack::object) rendered canonically, and its packer over a
// canonical value (the encode direction of msgpack-test-suite).
#include <msgpack.hpp>

#include "untrusted/rows.h"

namespace sb::untrusted {
namespace {

uint64_t big_endian(const char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v << 8 | static_cast<uint8_t>(p[i]);
  return v;
}

// The timestamp extension (type -1) in its three sizes; anything else stays an $ext.
json extension(const msgpack::object_ext& e) {
  const char* d = e.data();
  const auto* u = reinterpret_cast<const uint8_t*>(d);
  if (e.type() == -1 && e.size == 4) return {{"$timestamp", {big_endian(d, 4), 0}}};
  if (e.type() == -1 && e.size == 8) {
    uint64_t v = big_endian(d, 8);
    return {{"$timestamp", {v & 0x3ffffffffULL, v >> 34}}};
  }
  if (e.type() == -1 && e.size == 12)
    return {{"$timestamp", {static_cast<int64_t>(big_endian(d + 4, 8)), big_endian(d, 4)}}};
  return ext(e.type(), u + 0, e.size);
}

json canon(const msgpack::object& o, int depth) {
  if (depth > kMaxDepth) return too_deep();
  switch (o.type) {
    case msgpack::type::NIL:
      return nullptr;
    case msgpack::type::BOOLEAN:
      return o.via.boolean;
    case msgpack::type::POSITIVE_INTEGER:
      return o.via.u64;
    case msgpack::type::NEGATIVE_INTEGER:
      return o.via.i64;
    case msgpack::type::FLOAT32:
    case msgpack::type::FLOAT64:
      return number(o.via.f64);
    case msgpack::type::STR:
      return std::string(o.via.str.ptr, o.via.str.size);
    case msgpack::type::BIN:
      return bytes(reinterpret_cast<const uint8_t*>(o.via.bin.ptr), o.via.bin.size);
    case msgpack::type::EXT:
      return extension(o.via.ext);
    case msgpack::type::ARRAY: {
      json a = json::array();
      for (uint32_t i = 0; i < o.via.array.size; ++i)
        a.push_back(canon(o.via.array.ptr[i], depth + 1));
      return a;
    }
    case msgpack::type::MAP: {
      const auto& m = o.via.map;
      bool string_keys = true;
      for (uint32_t i = 0; i < m.size; ++i) string_keys &= m.ptr[i].key.type == msgpack::type::STR;
      if (string_keys) {
        json out = json::object();
        for (uint32_t i = 0; i < m.size; ++i)
          out[m.ptr[i].key.as<std::string>()] = canon(m.ptr[i].val, depth + 1);
        return out;
      }
      json pairs = json::array();
      for (uint32_t i = 0; i < m.size; ++i)
        pairs.push_back({canon(m.ptr[i].key, depth + 1), canon(m.ptr[i].val, depth + 1)});
      return {{"$map", pairs}};
    }
  }
  return other("msgpack type " + std::to_string(o.type));
}

bool referenced(msgpack::type::object_type, std::size_t, void*) { return true; }

using Packer = msgpack::packer<msgpack::sbuffer>;

void pack_timestamp(Packer& pk, const json& v) {
  if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
    throw NotApplicable("$timestamp is [seconds, nanoseconds]");
  int64_t s = v[0].get<int64_t>();
  uint64_t ns = v[1].get<uint64_t>();
  auto be = [](uint64_t x, size_t n, char* out) {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>(x >> (8 * (n - 1 - i)));
  };
  char body[12];
  size_t n;
  if (s >= 0 && (static_cast<uint64_t>(s) >> 34) == 0) {
    uint64_t packed = ns << 34 | static_cast<uint64_t>(s);
    n = packed >> 32 ? 8 : 4;
    be(packed, n, body);
  } else {
    n = 12;
    be(ns, 4, body);
    be(static_cast<uint64_t>(s), 8, body + 4);
  }
  pk.pack_ext(n, -1);
  pk.pack_ext_body(body, n);
}

void pack(Packer& pk, const json& v) {
  std::string k = special_key(v);
  const json& inner = k.empty() ? v : v.begin().value();
  if (k == "$bytes") {
    Bytes b = unhex(inner.get<std::string>());
    pk.pack_bin(static_cast<uint32_t>(b.size()));
    pk.pack_bin_body(reinterpret_cast<const char*>(b.data()), static_cast<uint32_t>(b.size()));
  } else if (k == "$ext") {
    Bytes b = unhex(inner.at(1).get<std::string>());
    pk.pack_ext(b.size(), inner.at(0).get<int8_t>());
    pk.pack_ext_body(reinterpret_cast<const char*>(b.data()), static_cast<uint32_t>(b.size()));
  } else if (k == "$timestamp") {
    pack_timestamp(pk, inner);
  } else if (k == "$float") {
    std::string s = inner.get<std::string>();
    double inf = std::numeric_limits<double>::infinity();
    pk.pack_double(s == "NaN" ? std::nan("") : s == "Infinity" ? inf : -inf);
  } else if (k == "$map") {
    pk.pack_map(static_cast<uint32_t>(inner.size()));
    for (const auto& kv : inner) {
      pack(pk, kv.at(0));
      pack(pk, kv.at(1));
    }
  } else if (!k.empty()) {
    throw NotApplicable(k + " values have no msgpack-c representation here");
  } else if (v.is_null()) {
    pk.pack_nil();
  } else if (v.is_boolean()) {
    v.get<bool>() ? pk.pack_true() : pk.pack_false();
  } else if (v.is_number_unsigned()) {
    pk.pack_uint64(v.get<uint64_t>());  // the smallest form that holds it
  } else if (v.is_number_integer()) {
    pk.pack_int64(v.get<int64_t>());
  } else if (v.is_number_float()) {
    pk.pack_double(v.get<double>());
  } else if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    pk.pack_str(static_cast<uint32_t>(s.size()));
    pk.pack_str_body(s.data(), static_cast<uint32_t>(s.size()));
  } else if (v.is_array()) {
    pk.pack_array(static_cast<uint32_t>(v.size()));
    for (const auto& x : v) pack(pk, x);
  } else {
    pk.pack_map(static_cast<uint32_t>(v.size()));
    for (const auto& [key, x] : v.items()) {
      pk.pack_str(static_cast<uint32_t>(key.size()));
      pk.pack_str_body(key.data(), static_cast<uint32_t>(key.size()));
      pack(pk, x);
    }
  }
}

}  // namespace

json decode_msgpack(const uint8_t* p, size_t n) {
  msgpack::object_handle h = msgpack::unpack(reinterpret_cast<const char*>(p), n);
  return canon(h.get(), 0);
}

// The zero-copy row's unpack: strings, bins and extensions point into the input.
json decode_msgpack_zerocopy(const uint8_t* p, size_t n) {
  msgpack::zone zone;
  size_t off = 0;
  msgpack::object o = msgpack::unpack(zone, reinterpret_cast<const char*>(p), n, off, referenced);
  return canon(o, 0);
}

Bytes encode_msgpack(const json& value) {
  msgpack::sbuffer buf;
  Packer pk(buf);
  try {
    pack(pk, value);
  } catch (const json::exception& ex) {
    throw NotApplicable(std::string("not a canonical value: ") + ex.what());
  }
  return Bytes(buf.data(), buf.data() + buf.size());
}

}  // namespace sb::untrusted
