// S4 click-maps for Thrift (mirrors click_maps.proto).
namespace java serbench.thrift
namespace cpp serbench_thrift

struct Viewport {
  1: required i32 width,
  2: required i32 height
}

struct Click {
  1: required i32 x,
  2: required i32 y,
  3: required i32 count,
  4: required i64 lastClick,  // epoch milliseconds
  5: required string selector
}

struct ClickMap {
  1: required string url,
  2: required string day,  // ISO date, YYYY-MM-DD
  3: required Viewport viewport,
  4: required map<string, Click> clicks  // key "x,y"
}
