@0xe1472a57b6a673f8;

struct Root {
  value @0 :List(Tweet);
}

struct Tweet {
  id @0 :UInt64;
  text @1 :Text;
  lang @2 :Lang;
  user :union {
    null @3 :Void;
    value @4 :User;
  }
  coords :union {
    null @5 :Void;
    value @6 :List(Float64);
  }
  geo @7 :Void;
  counts @8 :List(Entry0);
  score @9 :Float32;
  at @10 :Int64;
  raw @11 :Data;
  replies @12 :List(Tweet);
  hidden @13 :List(Void);
  max @14 :UInt32;
  n @15 :Int64;
}

struct Entry0 {
  key @0 :Text;
  value @1 :Int32;
}

struct User {
  screenName @0 :Text;
  followers :union {
    null @1 :Void;
    value @2 :Int64;
  }
}

enum Lang {
  en @0;
  ja @1;
  und @2;
}
