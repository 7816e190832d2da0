namespace * usertest.optlists

struct Item {
  1: required double n,
  2: required bool on
}

struct Bag {
  1: required i32 id,
  2: optional list<string> tags,
  3: optional list<Item> items,
  4: required double score
}
