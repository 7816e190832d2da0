@0xa9727ea5482eb53e;

struct Root {
  value @0 :List(Event);
}

struct Event {
  id @0 :UInt64;
  name @1 :Text;
  score @2 :Float64;
  ratio @3 :Float32;
  blob @4 :Data;
  at @5 :Int64;
  tags @6 :List(Text);
  attrs @7 :List(Entry0);
  parent :union {
    null @8 :Void;
    value @9 :Ref;
  }
  level @10 :Level;
  flag @11 :Bool;
  n32 @12 :Int32;
}

struct Entry0 {
  key @0 :Text;
  value @1 :Int64;
}

struct Ref {
  id @0 :Int64;
  note :union {
    null @1 :Void;
    value @2 :Text;
  }
}

enum Level {
  low @0;
  high @1;
}
