// ctest: protocol 2.1's untrusted commands through the serve dispatch (Commands): the
// canonical rendering, and per library one input it accepts and one it rejects.
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <iostream>

#include "harness/user.h"
#include "serializers/json_writer.h"
#include "untrusted/command.h"

using namespace sb;
using untrusted::json;

namespace {
int failures = 0;
void expect(bool ok, const std::string& what, const json& got = nullptr) {
  std::cout << (ok ? "ok   " : "FAIL ") << what;
  if (!ok) std::cout << ": " << got.dump(-1, ' ', false, json::error_handler_t::replace);
  std::cout << "\n";
  if (!ok) ++failures;
}

untrusted::Commands commands;

std::string b64(const std::string& bytes) { return base64_encode(bytes); }
std::string unhex(const std::string& h) {
  Bytes b = untrusted::unhex(h);
  return std::string(b.begin(), b.end());
}

// The one outcome of decoding `bytes` with `serializer` (dataset: null or a dataset object).
json decode(const std::string& serializer, const std::string& bytes,
            const json& dataset = nullptr) {
  json r = commands.handle({{"cmd", "untrusted_decode"},
                            {"cell", "t"},
                            {"serializer", serializer},
                            {"dataset", dataset},
                            {"inputs", {{{"id", "0"}, {"b64", b64(bytes)}}}}});
  return r.contains("outcomes") ? r["outcomes"][0] : r;
}
void accepts(const std::string& serializer, const std::string& bytes, const json& value,
             const std::string& what) {
  json o = decode(serializer, bytes);
  expect(o.value("outcome", "") == "accepted" && o["value"] == value, serializer + " " + what, o);
}
void rejects(const std::string& serializer, const std::string& bytes, const std::string& what) {
  json o = decode(serializer, bytes);
  expect(o.value("outcome", "") == "rejected" && !o.value("error", "").empty(),
         serializer + " rejects " + what, o);
}
std::string encode(const std::string& serializer, const json& value) {
  json r = commands.handle(
      {{"cmd", "untrusted_encode"}, {"cell", "e"}, {"serializer", serializer}, {"value", value}});
  if (!r.contains("b64")) return "error " + r.value("code", "");
  return untrusted::hex(
      reinterpret_cast<const uint8_t*>(base64_decode(r["b64"].get<std::string>()).data()),
      base64_decode(r["b64"].get<std::string>()).size());
}

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// A one-message android-users dataset file, written in the canonical shape.
json android_users() {
  SampleList v;
  for (int i = 0; i < 3; ++i)
    v.push_back({i, "user " + std::to_string(i), 20 + i, Gender::Male, i % 2 == 0});
  Bytes items;
  rj::encode(v, items);
  std::string path = "/tmp/serbench-cpp-untrusted-" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << R"({"name": "android-users", "framing": "single", "count": 1, "items": [)"
                      << std::string(items.begin(), items.end()) << "]}";
  return {{"name", "android-users"}, {"kind", "builtin"}, {"data", path}};
}

}  // namespace

int main() {
  // canonical forms
  expect(untrusted::number(std::nan("")) == json{{"$float", "NaN"}}, "NaN is $float");
  expect(untrusted::number(-INFINITY) == json{{"$float", "-Infinity"}}, "-Infinity is $float");
  expect(untrusted::hex(reinterpret_cast<const uint8_t*>("\x01\xab"), 2) == "01ab", "hex");

  const json probe = json::array({1, "a", {{"b", nullptr}}});
  for (const char* s : {"nlohmann-json", "rapidjson", "simdjson-dom", "simdjson-ondemand"}) {
    accepts(s, R"([1,"a",{"b":null}])", probe, "a document");
    accepts(s, "[1.5, -2, 18446744073709551615, true]",
            json::array({1.5, -2, 18446744073709551615ULL, true}), "numbers");
    rejects(s, "[1,", "a truncated array");
    rejects(s, "[1] x", "trailing text");
    // 401 levels: the innermost array is deeper than 400
    json o = decode(s, nested(402));
    json v = o.value("value", json());
    for (int i = 0; i < 401 && v.is_array() && !v.empty(); ++i) v = v[0];
    expect(v.is_object() && v.contains("$other"), std::string(s) + " renders depth > 400 as $other",
           o);
  }
  for (const char* s : {"msgpack", "msgpack-zerocopy"}) {
    accepts(s, unhex("9301a16181a162c0"), probe, "a document");
    accepts(s, unhex("c4020102"), {{"$bytes", "0102"}}, "bin");
    accepts(s, unhex("d6ff5a4af6a5"), {{"$timestamp", {1514862245, 0}}}, "timestamp32");
    accepts(s, unhex("d7ffa1dcd7c85a4af6a5"), {{"$timestamp", {1514862245, 678901234}}},
            "timestamp64");
    accepts(s, unhex("c70cff00000001ffffffffffffffff"), {{"$timestamp", {-1, 1}}}, "timestamp96");
    accepts(s, unhex("d40110"), {{"$ext", {1, "10"}}}, "ext");
    accepts(s, unhex("81c3a0"), {{"$map", {{true, ""}}}}, "a map with a boolean key");
    accepts(s, unhex("cb7ff8000000000000"), {{"$float", "NaN"}}, "NaN");
    rejects(s, unhex("9301"), "a truncated array");
    rejects(s, unhex("dbffffffff61"), "a str32 claiming 4 GiB");
  }
  expect(encode("msgpack", {{"$timestamp", {1514862245, 0}}}) == "d6ff5a4af6a5",
         "encode timestamp32");
  expect(encode("msgpack", {{"$timestamp", {-1, 1}}}) == "c70cff00000001ffffffffffffffff",
         "encode timestamp96");
  expect(encode("msgpack", {{"$ext", {1, "10"}}}) == "d40110", "encode ext");
  expect(encode("msgpack", json::array({1, -1, 0.5, "a"})) == "9401ffcb3fe0000000000000a161",
         "encode array");
  expect(encode("msgpack", {{"$tag", {1, 2}}}) == "error not_applicable", "$tag is not applicable");
  expect(encode("nlohmann-json", {{"a", json::array({1})}}) ==
             untrusted::hex(reinterpret_cast<const uint8_t*>("{\"a\":[1]}"), 9),
         "encode JSON");

  // {"a": 1, "b": [true]}
  accepts("libbson", unhex("180000001061000100000004620009000000083000010000"),
          {{"a", 1}, {"b", json::array({true})}}, "a document");
  rejects("libbson", unhex("1800000010610001000000046200090000000830000100"),
          "a truncated document");
  // flexbuffers [1, 2] as a typed vector of int8
  accepts("flexbuffers", unhex("020102022c01"), json::array({1, 2}), "a typed vector");
  rejects("flexbuffers", unhex("020102022cff"), "a root byte width past the buffer");

  // typed rows: their own encoding accepted as equal, a truncated varint rejected
  json ds = android_users();
  for (const char* s : {"protobuf", "msgpack", "capnproto", "flatbuffers", "thrift-compact"}) {
    json r = commands.handle({{"cmd", "untrusted_encode"},
                              {"cell", "e"},
                              {"serializer", s},
                              {"dataset", ds},
                              {"message", 0}});
    std::string own = r.contains("b64") ? base64_decode(r["b64"].get<std::string>()) : "";
    json o = decode(s, own, ds);
    expect(o.value("outcome", "") == "accepted" &&
               o["value"] == json{{"$check", "equal to message 0"}},
           std::string(s) + " accepts its own encoding", o);
    o = decode(s, own.substr(0, own.size() / 2), ds);
    expect(o.value("outcome", "") != "accepted" ||
               o["value"] != json{{"$check", "equal to message 0"}},
           std::string(s) + " does not take half of it as the same value", o);
  }
  json o = decode("protobuf", std::string("\x08\x80", 2), ds);
  expect(o.value("outcome", "") == "rejected", "protobuf typed rejects a truncated varint", o);
  json r = commands.handle({{"cmd", "untrusted_decode"},
                            {"cell", "x"},
                            {"serializer", "noop"},
                            {"inputs", json::array()}});
  expect(r.value("code", "") == "unsupported", "noop is unsupported", r);
  r = commands.handle({{"cmd", "untrusted_decode"},
                       {"cell", "x"},
                       {"serializer", "protobuf"},
                       {"inputs", json::array()}});
  expect(r.value("code", "") == "unsupported", "protobuf has no generic decode", r);
  std::remove(ds["data"].get<std::string>().c_str());

  std::cout << (failures ? "FAILED: " : "all passed") << (failures ? std::to_string(failures) : "")
            << "\n";
  return failures ? 1 : 0;
}
