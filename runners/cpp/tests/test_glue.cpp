// The schema glue serbench-typegen generates (build/generated/serbench/glue_*.h), checked
// apart from the runner: CMake has typegen write the glue of S2 pb-vs-msgpack (ints, uint32,
// a string, nested records) and S6 mesh (float32, a list of records) alone into
// build/glue-check/serbench, and this test round-trips their messages through the four
// libraries and asserts the bytes each writes (S2 protobuf: the seed's 5/23/8197/8230 B less
// the 1-2 byte stream prefix ctest sizes_and_roundtrips counts). It does not link
// serbench_core, whose serializers include the runner's own glue headers.
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <flatbuffers/flatbuffers.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <iostream>

#include "harness/dataset.h"
#include "harness/serializer.h"
#include "serbench/glue_capnproto.h"
#include "serbench/glue_flatbuffers.h"
#include "serbench/glue_protobuf.h"
#include "serbench/glue_thrift.h"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::cout << (ok ? "ok   " : "FAIL ") << what << "\n";
  if (!ok) ++failures;
}

template <class T>
void check(const std::string& name, const T& v, size_t pb, size_t fb, size_t cp, size_t th) {
  using sb::glue::Capnproto, sb::glue::Flatbuffers, sb::glue::Protobuf, sb::glue::Thrift;
  auto same = [&](const T& got) { return !sb::first_difference(got, v, "$"); };

  typename Protobuf<T>::type m, m2;
  Protobuf<T>::to(v, m);
  std::string bytes = m.SerializeAsString();
  bool parsed = m2.ParseFromString(bytes);
  T p{};
  Protobuf<T>::from(m2, p);
  expect(parsed && bytes.size() == pb && same(p),
         name + " protobuf " + std::to_string(bytes.size()) + " B");

  flatbuffers::FlatBufferBuilder b;
  b.Finish(Flatbuffers<T>::build(b, v));
  flatbuffers::Verifier ver(b.GetBufferPointer(), b.GetSize());
  T f{};
  const auto* root = flatbuffers::GetRoot<typename Flatbuffers<T>::type>(b.GetBufferPointer());
  Flatbuffers<T>::read(root, f);
  expect(ver.VerifyBuffer<typename Flatbuffers<T>::type>(nullptr) && b.GetSize() == fb && same(f),
         name + " flatbuffers " + std::to_string(b.GetSize()) + " B");
  (void)Flatbuffers<T>::walk(root);

  capnp::MallocMessageBuilder mb;
  Capnproto<T>::build(mb.initRoot<typename Capnproto<T>::type>(), v);
  auto words = capnp::messageToFlatArray(mb);
  capnp::FlatArrayMessageReader reader(words);
  T c{};
  Capnproto<T>::read(reader.getRoot<typename Capnproto<T>::type>(), c);
  (void)Capnproto<T>::walk(reader.getRoot<typename Capnproto<T>::type>());
  expect(words.size() * sizeof(capnp::word) == cp && same(c),
         name + " capnproto " + std::to_string(words.size() * sizeof(capnp::word)) + " B");

  auto buf = std::make_shared<apache::thrift::transport::TMemoryBuffer>();
  apache::thrift::protocol::TCompactProtocol prot(buf);
  typename Thrift<T>::type t, t2;
  Thrift<T>::to(v, t);
  t.write(&prot);
  size_t n = buf->available_read();
  t2.read(&prot);
  T h{};
  Thrift<T>::from(t2, h);
  expect(n == th && same(h), name + " thrift-compact " + std::to_string(n) + " B");
}

}  // namespace

int main() {
  sb::Test1 t1{1, 2};
  sb::Test2 t2{-1, -2};
  sb::Test3 t3{std::string(8192, 'a')};
  check("S2 Test1", t1, 4, 24, 24, 5);
  check("S2 Test2", t2, 22, 24, 24, 5);
  check("S2 Test3", t3, 8195, 8220, 8240, 8196);
  check("S2 Test4", sb::Test4{t1, t2, t3}, 8228, 8280, 8280, 8210);
  sb::Mesh mesh;
  mesh.triangles.push_back({{0.5f, 0.25f, 0.125f}, {0, 0, 0}, {0.75f, 1e-3f, 0.9f}, {0, 1, 0}});
  mesh.triangles.push_back({});
  // proto3 leaves zero floats out (an empty Vector3 is 2 B); Thrift writes float32 as double
  check("S6 mesh", mesh, 55, 172, 224, 237);
  std::cout << (failures ? "FAILED" : "passed") << "\n";
  return failures ? 1 : 0;
}
