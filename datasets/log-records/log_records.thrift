// S5 log-records for Thrift (mirrors log_records.proto).
namespace java serbench.thrift
namespace cpp serbench_thrift

struct Pair {
  1: required string key,
  2: required string value
}

struct TestClass {
  1: required string MyProperty1,
  2: required i32 MyProperty2,
  3: required i64 MyProperty3,  // date-time as epoch milliseconds, UTC
  4: required bool MyProperty4,
  5: required list<Pair> MyProperty5
}

struct TestClassList {
  1: required list<TestClass> items
}
