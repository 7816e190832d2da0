@0xa342998cd59be6de;

struct Sparse {
  id @0 :Int64;
  gone @1 :Void;
  empty @2 :List(Void);
  maybe :union {
    null @3 :Void;
    value @4 :Text;
  }
  also @5 :Void;
}
