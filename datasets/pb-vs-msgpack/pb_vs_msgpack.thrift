// S2 pb-vs-msgpack for Thrift (mirrors pb_vs_msgpack.proto and its field numbers).
// Thrift has no unsigned integers: Test1's uint32 fields are i64.
namespace java serbench.thrift
namespace cpp serbench_thrift

struct Test1 {
  1: required i64 a,
  2: required i64 b
}

struct Test2 {
  3: required i32 a,
  4: required i32 b
}

struct Test3 {
  5: required string s
}

struct Test4 {
  6: required Test1 t1,
  7: required Test2 t2,
  8: required Test3 t3
}
