// S1 android-users for Thrift (mirrors android_users.proto; isMegane as bool).
namespace java serbench.thrift
namespace cpp serbench_thrift

enum Gender {
  Female = 0,
  Male = 1
}

struct SampleData {
  1: required i64 id,
  2: required string name,
  3: required i32 age,
  4: required Gender gender,
  5: required bool isMegane
}

struct SampleList {
  1: required list<SampleData> sampleData
}
