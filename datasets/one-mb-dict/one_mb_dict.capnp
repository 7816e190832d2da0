# S3 one-mb-dict for Cap'n Proto (mirrors one_mb_dict.proto; the map is a list of entries).
@0xa5f98e50a9a793eb;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("serbench::capnp_gen::one_mb_dict");

struct Entry {
  key @0 :Text;
  value @1 :Text;
}

struct Dict {
  entries @0 :List(Entry);
}
