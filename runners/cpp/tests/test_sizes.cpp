// ctest: byte-exact sizes the scenarios publish (S1, S2) and a round trip of every
// serializer on every dataset it declares applicable, on data built here from the specs.
#include <cstring>
#include <filesystem>
#include <iostream>

#include "harness/dataset.h"
#include "harness/lenient.h"
#include "harness/serializer.h"
#include "harness/user.h"

using namespace sb;

namespace {
int failures = 0;
void expect(bool ok, const std::string& what) {
  std::cout << (ok ? "ok   " : "FAIL ") << what << "\n";
  if (!ok) ++failures;
}

SampleList s1() {
  SampleList v;
  for (int i = 0; i < 30; ++i)
    v.push_back({i, "user " + std::to_string(i), (i * 7) % 50,
                 i % 3 ? Gender::Male : Gender::Female, i % 2 == 0});
  return v;
}
Test3 t3() { return {std::string(8192, 'a')}; }
Test4 t4() { return {{1, 2}, {-1, -2}, t3()}; }
Dict dict() {
  auto run = [](size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += static_cast<char>('a' + i % 26);
    return s;
  };
  return {{"key1", run(3000)}, {"key2", run(3000)}, {"key3", run(4000)}};
}
ClickMap clickmap() {
  ClickMap m{"https://news.example.org/a", "2014-03-07", {768, 1024}, {}};
  m.clicks["87,2466"] = {87, 2466, 4, 1394156093428, "button.menu > img"};
  m.clicks["5,6"] = {5, 6, 1, 1394156093000, "a"};
  return m;
}
TestClassList logs() {
  TestClassList v;
  for (int i = 1; i <= 50; ++i) {
    TestClass t{"hoge" + std::to_string(i),
                i,
                Timestamp(std::chrono::milliseconds(944870400000LL + i * 86400000LL)),
                i % 2 == 0,
                {}};
    for (int k = 1; k <= 10; ++k) t.MyProperty5.push_back({std::to_string(k), std::to_string(i)});
    v.push_back(t);
  }
  return v;
}

const SerializerEntry& entry(const std::string& name) {
  for (const auto& e : registry())
    if (e.meta.name == name) return e;
  throw std::runtime_error("no serializer " + name);
}

template <class T>
size_t encoded_size(const std::string& ser, DatasetId id, const T& v, bool framed) {
  auto base = entry(ser).make(id);
  auto& c = dynamic_cast<Codec<T>&>(*base);
  Bytes b;
  c.encode(v, b);
  return framed && !c.self_delimiting() ? varint_size(b.size()) + b.size() : b.size();
}

template <class T>
void roundtrip_all(DatasetId id, const T& v) {
  for (const auto& e : registry()) {
    std::string what = e.meta.name + " " + dataset_name(id);
    if (!e.reason(id).empty()) {
      std::cout << "n/a  " << what << ": " << e.reason(id) << "\n";
      continue;
    }
    try {
      auto base = e.make(id);
      auto& c = dynamic_cast<Codec<T>&>(*base);
      std::vector<T> items{v};
      c.prepare(items);
      Bytes b;
      c.encode(v, b);
      size_t n = b.size();
      b.resize(n + 64, 0);
      T got{};
      c.decode(b.data(), n, got);
      auto diff = first_difference(got, v, "");
      expect(!diff,
             what + " round trip (" + std::to_string(n) + " B)" + (diff ? ": " + *diff : ""));
      uint64_t sink = 0;
      T scratch{};
      size_t used = c.decode_timed(b.data(), n, scratch, sink);
      expect(used > 0 || n == 0, what + " timed decode");
    } catch (const std::exception& ex) {
      expect(false, what + " threw " + ex.what());
    }
  }
}
// Every built-in of the generated model (seeds and later ones, e.g. S6 mesh) on its quick
// canonical file, when `serbench` has generated it (.serbench/data/quick/<name>.<hash>.json).
void roundtrip_quick_data() {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(SB_DATA_SCRIPT_DIR) / ".serbench" / "data" / "quick";
  if (!fs::is_directory(dir)) return;
  for (DatasetId id : kAllDatasets) {
    std::string prefix = std::string(dataset_name(id)) + ".";
    for (const auto& f : fs::directory_iterator(dir)) {
      std::string name = f.path().filename().string();
      if (name.rfind(prefix, 0) != 0 || f.path().extension() != ".json") continue;
      dispatch_dataset(id, [&](auto d) {
        using T = dataset_t<decltype(d)::value>;
        roundtrip_all(id, load_dataset<T>(f.path().string()).items.at(0));
      });
      break;
    }
  }
}
}  // namespace

int main() {
  expect(encoded_size("protobuf", DatasetId::AndroidUsers, s1(), false) == 560,
         "S1 protobuf 560 B");
  expect(encoded_size("msgpack", DatasetId::AndroidUsers, s1(), false) == 383, "S1 msgpack 383 B");
  expect(encoded_size("protobuf", DatasetId::PbVsMsgpackTest1, Test1{1, 2}, true) == 5,
         "S2 Test1 protobuf 5 B/msg");
  expect(encoded_size("msgpack", DatasetId::PbVsMsgpackTest1, Test1{1, 2}, true) == 3,
         "S2 Test1 msgpack 3 B/msg");
  expect(encoded_size("protobuf", DatasetId::PbVsMsgpackTest2, Test2{-1, -2}, true) == 23,
         "S2 Test2 protobuf 23 B/msg");
  expect(encoded_size("msgpack", DatasetId::PbVsMsgpackTest2, Test2{-1, -2}, true) == 3,
         "S2 Test2 msgpack 3 B/msg");
  expect(encoded_size("protobuf", DatasetId::PbVsMsgpackTest3, t3(), true) == 8197,
         "S2 Test3 protobuf 8197 B/msg");
  expect(encoded_size("msgpack", DatasetId::PbVsMsgpackTest3, t3(), true) == 8195,
         "S2 Test3 msgpack 8195 B/msg");
  expect(encoded_size("protobuf", DatasetId::PbVsMsgpackTest4, t4(), true) == 8230,
         "S2 Test4 protobuf 8230 B/msg");
  expect(encoded_size("msgpack", DatasetId::PbVsMsgpackTest4, t4(), true) == 8202,
         "S2 Test4 msgpack 8202 B/msg");
  // the positional rule, not a per-type case: any record of one field is its bare value
  // (S6's Mesh is its list of triangles, an empty fixarray here, as the go runner writes it)
  expect(encoded_size("msgpack", DatasetId::Mesh, Mesh{}, false) == 1, "S6 empty mesh msgpack 1 B");

  expect(parse_iso8601_ms("1999-12-12T00:00:00+00:00") == 944956800000LL, "ISO-8601 with offset");
  expect(parse_iso8601_ms("1999-12-12T01:00:00.250+01:00") == 944956800250LL,
         "ISO-8601 fraction, +01:00");
  expect(parse_iso8601_ms("1969-12-31T23:59:59Z") == -1000, "ISO-8601 before the epoch");

  // user datasets: objects keep the file's key order (Cap'n Proto map entries are written in
  // it), integers beyond 64 bits keep their digits
  const char* doc = R"({"b": 1, "": 2, "a": 123456789012345678901234567890})";
  Value v = parse_json_exact(doc, std::strlen(doc));
  expect(v.o.size() == 3 && v.o[0].first == "b" && v.o[1].first == "" && v.o[2].first == "a",
         "user JSON keeps key order");
  expect(v.o.size() == 3 && v.o[2].second.k == Value::K::BigInt &&
             v.o[2].second.s == "123456789012345678901234567890",
         "user JSON keeps big integers exact");

  roundtrip_all(DatasetId::AndroidUsers, s1());
  roundtrip_all(DatasetId::PbVsMsgpackTest1, Test1{1, 2});
  roundtrip_all(DatasetId::PbVsMsgpackTest2, Test2{-1, -2});
  roundtrip_all(DatasetId::PbVsMsgpackTest3, t3());
  roundtrip_all(DatasetId::PbVsMsgpackTest4, t4());
  roundtrip_all(DatasetId::OneMbDict, dict());
  roundtrip_all(DatasetId::ClickMaps, clickmap());
  roundtrip_all(DatasetId::LogRecords, logs());
  roundtrip_quick_data();
  std::cout << (failures ? "FAILED: " : "all passed: ") << failures << " failure(s)\n";
  return failures ? 1 : 0;
}
