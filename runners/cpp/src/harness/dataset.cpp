#include "dataset.h"

#include <fstream>
#include <sstream>

namespace sb {
using json = nlohmann::json;

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
