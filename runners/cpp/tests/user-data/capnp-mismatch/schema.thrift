namespace * usertest.capnpmismatch

struct Reading {
  1: required string sensor,
  2: required i64 at,
  3: required double value,
  4: required binary raw,
  5: required map<string, string> labels,
  6: required i64 count,
  7: optional string note,
  8: required list<i64> samples
}
