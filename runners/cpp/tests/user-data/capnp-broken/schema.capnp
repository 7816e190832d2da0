@0xb69909b3dc8c9afd;

struct Reading {
  sensor @0 :Text;
  at @1 :Int64;
  value @2 :Float64;
  raw @3 :Data;
  labels @4 :List(Entry0);
  count @5 :UInt33;
  note :union {
    null @6 :Void;
    value @7 :Text;
  }
  samples @8 :List(Int64);
}

struct Entry0 {
  key @0 :Text;
  value @1 :Text;
}
