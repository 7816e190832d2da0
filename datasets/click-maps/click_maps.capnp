# S4 click-maps for Cap'n Proto (mirrors click_maps.proto; the map is a list of entries).
@0xfa192f922bc05703;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("serbench::capnp_gen::click_maps");

struct Viewport {
  width @0 :Int32;
  height @1 :Int32;
}

struct Click {
  x @0 :Int32;
  y @1 :Int32;
  count @2 :Int32;
  lastClick @3 :Int64;  # epoch milliseconds
  selector @4 :Text;
}

struct ClicksEntry {
  key @0 :Text;  # "x,y"
  value @1 :Click;
}

struct ClickMap {
  url @0 :Text;
  day @1 :Text;  # ISO date, YYYY-MM-DD
  viewport @2 :Viewport;
  clicks @3 :List(ClicksEntry);
}
