namespace * usertest.nulkey

struct Counts {
  1: required string name,
  2: required map<string, i64> by
}
