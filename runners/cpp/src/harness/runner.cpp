// serbench C++ runner: `describe` and `run` (docs/runner-protocol.md).
#include <sys/resource.h>
#include <sys/stat.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cell.h"
#include "compress.h"
#include "dataset.h"
#include "serializer.h"
#include "timing.h"

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

long peak_rss_kb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
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
      {"protocol", 1},
      {"runner", "cpp"},
      {"language", "cpp"},
      {"runtime", {{"name", "g++"}, {"version", __VERSION__}, {"details", runtime_details()}}},
      {"capabilities", json::array({"decode_from", "transport"})}};
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
         {"datasets", ds}});
  }
  out["serializers"] = sers;
  emit(out);
}

json base_result(const std::string& ser, const std::string& ds, const std::string& op) {
  return {{"event", "result"}, {"serializer", ser}, {"dataset", ds},    {"operation", op},
          {"status", "ok"},    {"error", nullptr},  {"check", nullptr}, {"messages", nullptr},
          {"sizes", nullptr},  {"timing", nullptr}};
}
json error_result(const std::string& ser, const std::string& ds, const std::string& op,
                  const std::string& status, const std::string& code, const std::string& msg) {
  json r = base_result(ser, ds, op);
  r["status"] = status;
  r["error"] = {{"code", code}, {"message", msg}};
  return r;
}

struct Cell {
  std::string serializer, dataset, data, check_data;
  std::string decode_from;  // optional: another runner's dump to decode (section 11)
  std::vector<std::string> operations;
};

// Parses "encode", "decode", "encode+c", "c+decode".
bool parse_op(const std::string& op, bool& encode, std::string& codec) {
  codec.clear();
  if (op == "encode") return encode = true, true;
  if (op == "decode") return encode = false, true;
  if (op.rfind("encode+", 0) == 0) return encode = true, codec = op.substr(7), true;
  auto p = op.find("+decode");
  if (p != std::string::npos && p + 7 == op.size())
    return encode = false, codec = op.substr(0, p), true;
  return false;
}

json timing_json(const Samples& s) {
  return {
      {"iterations", s.iterations},
      {"wall_ns", s.wall},
      {"cpu_ns", s.cpu},
      {"alloc_bytes", s.alloc_bytes},
      {"alloc_count", s.alloc_count},
      {"gc_count", nullptr},
      {"gc_ns", nullptr},
      {"warmup", {{"samples", s.warmup_samples}, {"wall_ns", s.warmup_wall}, {"steady", s.steady}}},
      {"peak_alloc_bytes", s.peak_alloc >= 0 ? json(s.peak_alloc) : json()},
      {"clock", {{"wall", "CLOCK_MONOTONIC"}, {"cpu", "CLOCK_THREAD_CPUTIME_ID"}}}};
}

std::string names_list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

template <class T>
void run_typed(const SerializerEntry& e, DatasetId id, const Cell& cell, const TimingConfig& cfg,
               const std::string& dump_dir, std::set<std::string>& done) {
  auto fail_all = [&](const std::string& status, const std::string& code, const std::string& msg) {
    for (const auto& op : cell.operations)
      if (!done.count(op))
        emit(error_result(cell.serializer, cell.dataset, op, status, code, msg)), done.insert(op);
  };
  std::string reason = e.reason(id);
  if (!reason.empty()) return fail_all("not_applicable", "not_applicable", reason);

  auto base = e.make(id);
  auto* codec = dynamic_cast<Codec<T>*>(base.get());
  if (!codec) return fail_all("error", "exception", "internal: codec type mismatch");
  CellRunner<T> r{*codec, {}, {}, {}, {}, {}, 0, 0};
  try {
    r.data = load_dataset<T>(cell.data);
    r.check_items =
        cell.check_data == cell.data ? r.data.items : load_dataset<T>(cell.check_data).items;
  } catch (const std::exception& ex) {
    return fail_all("error", "bad_data", std::string("cannot load dataset: ") + ex.what());
  }
  const bool foreign = !cell.decode_from.empty();
  json chk;
  if (foreign) {
    std::ifstream f(cell.decode_from, std::ios::binary);
    if (!f)
      return fail_all("error", "bad_data", "cannot open decode_from file " + cell.decode_from);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    chk = r.check_bytes(bytes);
  } else {
    try {
      chk = r.check();
    } catch (const std::exception& ex) {
      chk = {{"ok", false}, {"detail", std::string("round trip threw: ") + ex.what()}};
    }
  }
  if (!chk["ok"].get<bool>()) {
    for (const auto& op : cell.operations) {
      if (done.count(op)) continue;
      json res = base_result(cell.serializer, cell.dataset, op);
      res["status"] = "check_failed";
      res["check"] = chk;
      res["messages"] = r.n_messages();
      emit(res);
      done.insert(op);
    }
    return;
  }
  if (!dump_dir.empty() && !foreign) {
    std::ofstream f(dump_dir + "/cpp." + cell.serializer + "." + cell.dataset + ".bin",
                    std::ios::binary);
    f.write(reinterpret_cast<const char*>(r.enc.data()), static_cast<std::streamsize>(r.enc_size));
  }
  json sizes = foreign ? json{{"encoded", r.enc_size}} : r.sizes();

  // set up the timed operations
  struct OpState {
    std::string name;
    TimedOp op;
    Bytes out, input;
    std::unique_ptr<Compressor> comp;
  };
  std::vector<std::unique_ptr<OpState>> ops;
  for (const auto& name : cell.operations) {
    if (done.count(name)) continue;
    bool enc;
    std::string cname;
    if (!parse_op(name, enc, cname)) {
      emit(error_result(
          cell.serializer, cell.dataset, name, "unsupported", "unsupported",
          "unknown operation; valid: encode, decode, encode+c, c+decode for c in zlib, zstd, lz4"));
      done.insert(name);
      continue;
    }
    if (!cname.empty() && !make_compressor(cname)) {
      emit(error_result(cell.serializer, cell.dataset, name, "unsupported", "unsupported",
                        "unknown codec '" + cname + "'; valid: zlib, zstd, lz4"));
      done.insert(name);
      continue;
    }
    if (foreign && name != "decode") {
      emit(error_result(cell.serializer, cell.dataset, name, "unsupported", "unsupported",
                        "with decode_from only decode is timed"));
      done.insert(name);
      continue;
    }
    if (enc && codec->no_encoder()) {
      emit(error_result(cell.serializer, cell.dataset, name, "unsupported", "unsupported",
                        codec->no_encoder()));
      done.insert(name);
      continue;
    }
    auto st = std::make_unique<OpState>();
    st->name = name;
    st->op.body = r.body(enc, cname, st->out, st->input, st->comp);
    ops.push_back(std::move(st));
  }
  std::vector<TimedOp*> timed;
  for (auto& o : ops) timed.push_back(&o->op);
  try {
    measure(timed, cfg);
  } catch (const std::exception& ex) {
    return fail_all("error", "exception", std::string("while timing: ") + ex.what());
  }
  for (auto& o : ops) {
    json res = base_result(cell.serializer, cell.dataset, o->name);
    res["check"] = chk;
    res["messages"] = r.n_messages();
    res["sizes"] = sizes;
    res["timing"] = timing_json(o->op.s);
    emit(res);
    done.insert(o->name);
  }
}

void run_cell(const Cell& cell, const TimingConfig& cfg, const std::string& dump_dir) {
  emit({{"event", "start"}, {"serializer", cell.serializer}, {"dataset", cell.dataset}});
  std::set<std::string> done;
  auto fail_all = [&](const std::string& code, const std::string& msg) {
    for (const auto& op : cell.operations)
      if (!done.count(op))
        emit(error_result(cell.serializer, cell.dataset, op, "error", code, msg)), done.insert(op);
  };
  const SerializerEntry* entry = nullptr;
  std::vector<std::string> names;
  for (const auto& e : registry()) {
    names.push_back(e.meta.name);
    if (e.meta.name == cell.serializer) entry = &e;
  }
  if (!entry)
    return fail_all("unknown_serializer",
                    "unknown serializer '" + cell.serializer + "'; valid: " + names_list(names));
  DatasetId id;
  if (!dataset_from_name(cell.dataset, id)) {
    std::vector<std::string> ds;
    for (DatasetId d : kAllDatasets) ds.push_back(dataset_name(d));
    return fail_all("unknown_dataset",
                    "unknown dataset '" + cell.dataset + "'; valid: " + names_list(ds));
  }
  try {
    dispatch_dataset(id, [&](auto d) {
      run_typed<dataset_t<decltype(d)::value>>(*entry, id, cell, cfg, dump_dir, done);
    });
  } catch (const std::exception& ex) {
    fail_all("exception", ex.what());
  } catch (...) {
    fail_all("exception", "unknown exception");
  }
  std::cerr << "serbench-cpp: " << cell.serializer << " " << cell.dataset << " done; peak RSS "
            << peak_rss_kb() << " KiB\n";
}

int run() {
  std::stringstream ss;
  ss << std::cin.rdbuf();
  json req;
  std::vector<Cell> cells;
  TimingConfig cfg;
  std::string dump_dir;
  try {
    req = json::parse(ss.str());
    if (!req.is_object() || req.value("protocol", 0) != 1)
      throw std::runtime_error("protocol must be 1");
    for (const auto& c : req.at("cells")) {
      Cell cell;
      cell.serializer = c.at("serializer").get<std::string>();
      cell.dataset = c.at("dataset").get<std::string>();
      cell.data = c.value("data", std::string());
      cell.check_data = c.contains("check_data") && !c["check_data"].is_null()
                            ? c["check_data"].get<std::string>()
                            : cell.data;
      if (c.contains("decode_from") && c["decode_from"].is_string())
        cell.decode_from = c["decode_from"].get<std::string>();
      cell.operations = c.contains("operations") ? c["operations"].get<std::vector<std::string>>()
                                                 : std::vector<std::string>{"encode", "decode"};
      cells.push_back(cell);
    }
    if (req.contains("timing") && req["timing"].is_object()) {
      const auto& t = req["timing"];
      cfg.min_sample_ns = t.value("min_sample_ns", cfg.min_sample_ns);
      cfg.min_samples = t.value("min_samples", cfg.min_samples);
      cfg.max_samples = t.value("max_samples", cfg.max_samples);
      cfg.max_measure_ns = t.value("max_measure_ns", cfg.max_measure_ns);
      cfg.warmup_window = t.value("warmup_window", cfg.warmup_window);
      cfg.warmup_tolerance = t.value("warmup_tolerance", cfg.warmup_tolerance);
      cfg.warmup_max_ns = t.value("warmup_max_ns", cfg.warmup_max_ns);
      cfg.peak_alloc = t.value("peak_alloc", cfg.peak_alloc);
      if (t.contains("budget_ns") && t["budget_ns"].is_number())
        cfg.budget_ns = t["budget_ns"].get<uint64_t>();
    }
    if (req.contains("dump_dir") && req["dump_dir"].is_string())
      dump_dir = req["dump_dir"].get<std::string>();
  } catch (const std::exception& ex) {
    emit({{"event", "error"}, {"code", "bad_request"}, {"message", ex.what()}});
    return 2;
  }
  if (!dump_dir.empty()) mkdir(dump_dir.c_str(), 0755);
  for (const auto& cell : cells) run_cell(cell, cfg, dump_dir);
  emit({{"event", "done"}});
  std::cerr << "serbench-cpp: peak RSS " << peak_rss_kb() << " KiB\n";
  return 0;
}

}  // namespace
}  // namespace sb

namespace sb {
int transport_main();
}

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "describe") return sb::describe(), 0;
  if (cmd == "run") return sb::run();
  if (cmd == "transport") return sb::transport_main();
  std::cerr << "usage: serbench-cpp-runner describe|run|transport\n";
  return 2;
}
