// serbench C++ runner: `describe`, `serve` and `transport` (docs/runner-protocol.md).
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "serializer.h"

#ifndef SB_CXX_FLAGS
#define SB_CXX_FLAGS "?"
#endif
#ifndef SB_BUILD_TYPE
#define SB_BUILD_TYPE "?"
#endif

using json = nlohmann::json;

namespace sb {

namespace {

void emit(const json& j) {
  std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
}

std::string runtime_details() {
  std::ostringstream os;
  os << "compiler: g++ " << __VERSION__ << "; build: " << SB_BUILD_TYPE
     << "; flags: " << SB_CXX_FLAGS << "; C++ " << __cplusplus
     << "; alloc counting: interposed malloc family (incl. operator new)"
     << "; clocks: CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID";
  return os.str();
}

void describe() {
  json out = {
      {"protocol", 2},
      {"protocol_minor", 1},
      {"runner", "cpp"},
      {"language", "cpp"},
      {"runtime", {{"name", "g++"}, {"version", __VERSION__}, {"details", runtime_details()}}},
      {"capabilities", json::array({"decode_from", "transport", "user_datasets", "untrusted"})}};
  json sers = json::array();
  for (const auto& e : registry()) {
    json ds = json::object();
    for (DatasetId id : kAllDatasets) {
      std::string r = e.reason(id);
      ds[dataset_name(id)] =
          r.empty() ? json{{"applicable", true}} : json{{"applicable", false}, {"reason", r}};
    }
    sers.push_back(
        {{"name", e.meta.name},
         {"format", e.meta.format},
         {"library", e.meta.library},
         {"version", e.meta.version},
         {"labels", e.meta.labels},
         {"footprint_bytes", e.meta.footprint_bytes ? json(*e.meta.footprint_bytes) : json()},
         {"datasets", ds},
         {"user_datasets", e.user_reason.empty()
                               ? json{{"applicable", true}}
                               : json{{"applicable", false}, {"reason", e.user_reason}}}});
  }
  out["serializers"] = sers;
  emit(out);
}

}  // namespace
}  // namespace sb

namespace sb {
int transport_main();
int serve_main();
}  // namespace sb

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "describe") return sb::describe(), 0;
  if (cmd == "serve") return sb::serve_main();
  if (cmd == "transport") return sb::transport_main();
  std::cerr << "usage: serbench-cpp-runner describe|serve|transport\n";
  return 2;
}
