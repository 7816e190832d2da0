# S1 android-users for Cap'n Proto (mirrors android_users.proto; isMegane as Bool).
# Cap'n Proto requires lower-case enumerants.
@0x94b98fa4041ba880;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("serbench::capnp_gen::android_users");

enum Gender {
  female @0;
  male @1;
}

struct SampleData {
  id @0 :Int64;
  name @1 :Text;
  age @2 :Int32;
  gender @3 :Gender;
  isMegane @4 :Bool;
}

struct SampleList {
  sampleData @0 :List(SampleData);
}
