#include "dataset.h"

#include <fstream>
#include <sstream>

namespace sb {
using json = nlohmann::json;

const char* dataset_name(DatasetId id) {
  switch (id) {
    case DatasetId::AndroidUsers:
      return "android-users";
    case DatasetId::Test1:
      return "pb-vs-msgpack-test1";
    case DatasetId::Test2:
      return "pb-vs-msgpack-test2";
    case DatasetId::Test3:
      return "pb-vs-msgpack-test3";
    case DatasetId::Test4:
      return "pb-vs-msgpack-test4";
    case DatasetId::OneMbDict:
      return "one-mb-dict";
    case DatasetId::ClickMaps:
      return "click-maps";
    case DatasetId::LogRecords:
      return "log-records";
  }
  return "?";
}
bool dataset_from_name(const std::string& name, DatasetId& out) {
  for (DatasetId id : kAllDatasets)
    if (name == dataset_name(id)) return out = id, true;
  return false;
}

json read_json_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}

}  // namespace sb
