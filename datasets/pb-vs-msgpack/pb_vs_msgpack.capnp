# S2 pb-vs-msgpack for Cap'n Proto (mirrors pb_vs_msgpack.proto).
@0xfd7a0300df56a98e;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("serbench::capnp_gen::pb_vs_msgpack");

struct Test1 {
  a @0 :UInt32;
  b @1 :UInt32;
}

struct Test2 {
  a @0 :Int32;
  b @1 :Int32;
}

struct Test3 {
  s @0 :Text;
}

struct Test4 {
  t1 @0 :Test1;
  t2 @1 :Test2;
  t3 @2 :Test3;
}
