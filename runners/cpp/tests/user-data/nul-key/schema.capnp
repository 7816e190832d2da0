@0xfcbe1fffdfd6fcee;

struct Counts {
  name @0 :Text;
  by @1 :List(Entry0);
}

struct Entry0 {
  key @0 :Text;
  value @1 :Int64;
}
