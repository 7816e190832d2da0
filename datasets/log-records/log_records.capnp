# S5 log-records for Cap'n Proto (mirrors log_records.proto).
# Cap'n Proto field names must start lower-case: MyPropertyN is myPropertyN here.
@0xf916db869964a4c9;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("serbench::capnp_gen::log_records");

struct Pair {
  key @0 :Text;
  value @1 :Text;
}

struct TestClass {
  myProperty1 @0 :Text;
  myProperty2 @1 :Int32;
  myProperty3 @2 :Int64;  # date-time as epoch milliseconds, UTC
  myProperty4 @3 :Bool;
  myProperty5 @4 :List(Pair);
}

struct TestClassList {
  items @0 :List(TestClass);
}
