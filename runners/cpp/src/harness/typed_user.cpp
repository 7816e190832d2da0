#include "typed_user.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace sb {

namespace {
uint64_t fnv1a_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : ss.str()) h = (h ^ c) * 0x100000001b3ull;
  return h;
}
}  // namespace

size_t find_user_model(const std::string& name, const std::string& types_path, std::string& why) {
  const uint64_t hash = fnv1a_file(types_path);
  for (size_t i = 0; kUserModels[i].name; ++i) {
    const UserModel& m = kUserModels[i];
    if (name != m.name || hash != m.types_hash) continue;
    if (m.unsupported)
      why = std::string("the typed model cannot hold this dataset: ") + m.unsupported;
    return i;
  }
  why = "typed model not built for this dataset's types: run `serbench build -r cpp`";
  return 0;
}

void typed_mismatch(const std::string& path, const char* want, const Value& got) {
  throw DecodeError(path + ": expected " + want + ", got " + show(got));
}

}  // namespace sb
