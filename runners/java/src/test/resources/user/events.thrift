namespace * serbench.user.events

enum Level {
  LOW = 0,
  MID = 1,
  HIGH = 2
}

struct Child {
  1: required i32 x,
  2: required string label
}

struct Event {
  1: required i64 id,
  2: required string name,
  3: required double score,
  4: required double ratio,
  5: required binary blob,
  6: required i64 at,
  7: required list<string> tags,
  8: required map<string, i32> attrs,
  9: optional string note,
  10: required Level level,
  11: optional Child child,
  12: required i64 count,
  13: required bool ok
}
