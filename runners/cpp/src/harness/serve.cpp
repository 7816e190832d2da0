// `serve` (docs/runner-protocol.md section 4): prepare / sample / peak_alloc / release /
// quit, one JSON command per line on stdin, exactly one JSON reply line per command.
// The runner holds no timing defaults: a sample command runs exactly `samples` batches
// of `iterations` operations and reports the raw clock and allocation readings.
#include <sys/resource.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "alloc.h"
#include "cell.h"
#include "clock.h"
#include "compress.h"
#include "dataset.h"
#include "serializer.h"
#include "typed_user.h"
#include "untrusted/command.h"
#include "user.h"

namespace sb {
namespace {

using json = nlohmann::json;

void reply(const json& j) {
  std::cout << j.dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
}
json error_event(const std::string& code, const std::string& message) {
  return {{"event", "error"}, {"code", code}, {"message", message}};
}

std::string names_list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

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

// A failed prepare: every field the reply needs, with the status and error given.
struct PrepareFailure : std::runtime_error {
  std::string status, code;
  PrepareFailure(std::string s, std::string c, const std::string& m)
      : std::runtime_error(m), status(std::move(s)), code(std::move(c)) {}
};

struct DatasetRef {
  std::string name, kind, data, check_data;
  json raw;  // the whole dataset object (user datasets read types and schemas from it)
};

struct PrepareRequest {
  std::string cell, serializer;
  DatasetRef dataset;
  std::vector<std::string> operations;
  std::string dump_path, decode_from;  // empty: not given
  // false: an earlier process of the run checked this cell and holds its sizes, so the
  // prepare only encodes (no decode, comparison or codec sizes on the run's critical path)
  bool verify = true;
};

// One prepared cell: its data, reference encoding and the bodies of its operations.
struct Cell {
  virtual ~Cell() = default;
  virtual bool has(const std::string& op) const = 0;
  virtual std::function<void()>& body(const std::string& op) = 0;
};

struct OpState {
  Bytes out, input;
  std::unique_ptr<Compressor> comp;
  std::function<void()> body;
};

template <class T>
struct TypedCell final : Cell {
  std::shared_ptr<const void> keep;  // what the codec refers to (a user dataset's types)
  std::unique_ptr<CodecBase> base;
  std::unique_ptr<CellRunner<T>> r;
  std::map<std::string, std::unique_ptr<OpState>> ops;
  bool has(const std::string& op) const override { return ops.count(op) != 0; }
  std::function<void()>& body(const std::string& op) override { return ops.at(op)->body; }
};

struct Prepared {
  json reply;
  std::unique_ptr<Cell> cell;  // set when status is ok
};

template <class T>
Prepared prepare_typed(std::unique_ptr<CodecBase> base, const PrepareRequest& q,
                       const std::function<Dataset<T>(const std::string&)>& load,
                       std::shared_ptr<const void> keep = nullptr) {
  auto cell = std::make_unique<TypedCell<T>>();
  cell->keep = std::move(keep);
  cell->base = std::move(base);
  auto* codec = dynamic_cast<Codec<T>*>(cell->base.get());
  if (!codec) throw PrepareFailure("error", "exception", "internal: codec type mismatch");
  cell->r.reset(new CellRunner<T>{*codec, {}, {}, {}, {}, {}, 0, 0});
  auto& r = *cell->r;
  const bool foreign = !q.decode_from.empty();
  const bool verify = q.verify || foreign;  // decode_from is there to be checked
  try {
    r.data = load(q.dataset.data);
    if (verify)
      r.check_items =
          q.dataset.check_data == q.dataset.data ? r.data.items : load(q.dataset.check_data).items;
  } catch (const PrepareFailure&) {
    throw;
  } catch (const std::exception& ex) {
    throw PrepareFailure("error", "bad_data", std::string("cannot load dataset: ") + ex.what());
  }
  json chk;
  if (foreign) {
    std::ifstream f(q.decode_from, std::ios::binary);
    if (!f) throw PrepareFailure("error", "bad_data", "cannot open decode_from " + q.decode_from);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    chk = r.check_bytes(bytes);
  } else {
    try {
      chk = r.check(verify);
    } catch (const NotApplicable& ex) {
      throw PrepareFailure("not_applicable", "not_applicable", ex.what());
    } catch (const std::exception& ex) {
      chk = {{"ok", false}, {"detail", std::string("round trip threw: ") + ex.what()}};
    }
  }
  json out = {{"event", "prepared"},
              {"cell", q.cell},
              {"status", "ok"},
              {"check", chk},
              {"messages", r.n_messages()},
              {"sizes", nullptr},
              {"unsupported", json::array()},
              {"error", nullptr}};
  if (!chk.is_null() && !chk["ok"].get<bool>()) {
    out["status"] = "check_failed";
    return {out, nullptr};
  }
  if (!q.dump_path.empty() && !foreign) {
    std::ofstream f(q.dump_path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(r.enc.data()), static_cast<std::streamsize>(r.enc_size));
    if (!f) throw PrepareFailure("error", "exception", "cannot write dump_path " + q.dump_path);
  }
  out["sizes"] = foreign || !verify ? json{{"encoded", r.enc_size}} : r.sizes();
  for (const auto& name : q.operations) {
    bool enc;
    std::string cname;
    if (!parse_op(name, enc, cname) || (!cname.empty() && !make_compressor(cname)) ||
        (foreign && name != "decode") || (enc && codec->no_encoder())) {
      out["unsupported"].push_back(name);
      continue;
    }
    if (cell->ops.count(name)) continue;
    auto st = std::make_unique<OpState>();
    st->body = r.body(enc, cname, st->out, st->input, st->comp);
    cell->ops[name] = std::move(st);
  }
  return {out, std::move(cell)};
}

std::shared_ptr<UserTypes> user_types(const PrepareRequest& q) {
  auto types = std::make_shared<UserTypes>();
  try {
    *types = load_user_types(q.dataset.raw.at("types").get<std::string>(), q.dataset.raw);
  } catch (const std::exception& ex) {
    throw PrepareFailure("error", "bad_data", std::string("cannot read types: ") + ex.what());
  }
  return types;
}

// A user dataset through the generated typed model (kUserModels).
Prepared prepare_typed_user(const SerializerEntry& entry, const PrepareRequest& q) {
  auto types = user_types(q);
  std::string why;
  size_t i = find_user_model(q.dataset.name, q.dataset.raw.at("types").get<std::string>(), why);
  if (!why.empty()) throw PrepareFailure("not_applicable", "not_applicable", why);
  return dispatch_user_model(i, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // a row that needs more than the model (a schema's generated classes) says why not
    auto codec = entry.make_typed_user(i);
    std::string na = codec->configure(*types);
    if (!na.empty()) throw PrepareFailure("not_applicable", "not_applicable", na);
    return prepare_typed<T>(
        std::move(codec), q,
        [types](const std::string& path) {
          return typed_dataset<T>(load_user_dataset(path, *types));
        },
        types);
  });
}

Prepared prepare(const PrepareRequest& q) {
  const SerializerEntry* entry = nullptr;
  std::vector<std::string> names;
  for (const auto& e : registry()) {
    names.push_back(e.meta.name);
    if (e.meta.name == q.serializer) entry = &e;
  }
  if (!entry)
    throw PrepareFailure("error", "unknown_serializer",
                         "unknown serializer '" + q.serializer + "'; valid: " + names_list(names));
  if (q.dataset.kind == "user" && entry->make_typed_user) return prepare_typed_user(*entry, q);
  if (q.dataset.kind == "user") {
    std::string reason = entry->user_reason;
    if (!reason.empty()) throw PrepareFailure("not_applicable", "not_applicable", reason);
    auto types = user_types(q);
    auto base = entry->make_user();
    auto* codec = dynamic_cast<Codec<Value>*>(base.get());
    if (!codec) throw PrepareFailure("error", "exception", "internal: no user codec");
    std::string why = codec->configure(*types);
    if (!why.empty()) throw PrepareFailure("not_applicable", "not_applicable", why);
    return prepare_typed<Value>(
        std::move(base), q,
        [types](const std::string& path) { return load_user_dataset(path, *types); }, types);
  }
  DatasetId id;
  if (!dataset_from_name(q.dataset.name, id)) {
    std::vector<std::string> ds;
    for (DatasetId d : kAllDatasets) ds.push_back(dataset_name(d));
    throw PrepareFailure("error", "unknown_dataset",
                         "unknown dataset '" + q.dataset.name + "'; valid: " + names_list(ds));
  }
  std::string reason = entry->reason(id);
  if (!reason.empty()) throw PrepareFailure("not_applicable", "not_applicable", reason);
  return dispatch_dataset(id, [&](auto d) {
    using T = dataset_t<decltype(d)::value>;
    return prepare_typed<T>(entry->make(id), q,
                            [](const std::string& path) { return load_dataset<T>(path); });
  });
}

PrepareRequest parse_prepare(const json& c) {
  PrepareRequest q;
  q.cell = c.at("cell").get<std::string>();
  q.serializer = c.at("serializer").get<std::string>();
  const json& d = c.at("dataset");
  if (!d.is_object()) throw std::runtime_error("dataset must be an object");
  q.dataset.raw = d;
  q.dataset.name = d.at("name").get<std::string>();
  q.dataset.kind = d.value("kind", std::string("builtin"));
  if (q.dataset.kind != "builtin" && q.dataset.kind != "user")
    throw std::runtime_error("dataset.kind must be builtin or user");
  q.dataset.data = d.at("data").get<std::string>();
  q.dataset.check_data = d.contains("check_data") && d["check_data"].is_string()
                             ? d["check_data"].get<std::string>()
                             : q.dataset.data;
  q.operations = c.at("operations").get<std::vector<std::string>>();
  if (q.operations.empty()) throw std::runtime_error("operations is empty");
  for (const auto& op : q.operations) {
    bool enc;
    std::string cname;
    if (!parse_op(op, enc, cname)) throw std::runtime_error("unknown operation '" + op + "'");
  }
  if (c.contains("dump_path") && c["dump_path"].is_string())
    q.dump_path = c["dump_path"].get<std::string>();
  if (c.contains("decode_from") && c["decode_from"].is_string())
    q.decode_from = c["decode_from"].get<std::string>();
  if (c.contains("verify") && c["verify"].is_boolean()) q.verify = c["verify"].get<bool>();
  return q;
}

json prepare_command(const json& c, std::map<std::string, std::unique_ptr<Cell>>& cells) {
  PrepareRequest q;
  try {
    q = parse_prepare(c);
  } catch (const std::exception& ex) {
    return error_event("bad_request", std::string("bad prepare: ") + ex.what());
  }
  cells.erase(q.cell);
  json fail = {
      {"event", "prepared"}, {"cell", q.cell},   {"status", "error"},           {"check", nullptr},
      {"messages", nullptr}, {"sizes", nullptr}, {"unsupported", json::array()}};
  try {
    Prepared p = prepare(q);
    if (p.cell) cells[q.cell] = std::move(p.cell);
    return p.reply;
  } catch (const PrepareFailure& ex) {
    fail["status"] = ex.status;
    fail["error"] = {{"code", ex.code}, {"message", ex.what()}};
  } catch (const std::exception& ex) {
    fail["error"] = {{"code", "exception"}, {"message", ex.what()}};
  } catch (...) {
    fail["error"] = {{"code", "exception"}, {"message", "unknown exception"}};
  }
  return fail;
}

// The timed loop: exactly `samples` batches of `iterations` calls after `untimed` calls that
// are not timed; clocks and allocation counters are read at batch boundaries only.
json sample_command(const json& c, std::map<std::string, std::unique_ptr<Cell>>& cells) {
  std::string id, op;
  uint64_t iterations, samples, untimed = 0;
  try {
    id = c.at("cell").get<std::string>();
    op = c.at("operation").get<std::string>();
    iterations = c.at("iterations").get<uint64_t>();
    samples = c.at("samples").get<uint64_t>();
    if (iterations < 1 || samples < 1) throw std::runtime_error("iterations and samples >= 1");
    if (c.contains("untimed")) {
      if (!c.at("untimed").is_number_unsigned()) throw std::runtime_error("untimed >= 0");
      untimed = c.at("untimed").get<uint64_t>();
    }
  } catch (const std::exception& ex) {
    return error_event("bad_request", std::string("bad sample: ") + ex.what());
  }
  auto it = cells.find(id);
  if (it == cells.end() || !it->second->has(op)) {
    json e = error_event("unknown_cell", it == cells.end()
                                             ? "cell '" + id + "' is not prepared (or not ok)"
                                             : "cell '" + id + "' has no operation " + op);
    e["cell"] = id;
    return e;
  }
  std::function<void()>& body = it->second->body(op);
  std::vector<uint64_t> wall(samples), cpu(samples), abytes(samples), acount(samples);
  auto& ac = alloc_counters();
  try {
    for (uint64_t i = 0; i < untimed; ++i) body();
    for (uint64_t k = 0; k < samples; ++k) {
      uint64_t b0 = ac.bytes, n0 = ac.count;
      uint64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
      uint64_t w0 = now_ns(CLOCK_MONOTONIC);
      for (uint64_t i = 0; i < iterations; ++i) body();
      uint64_t w1 = now_ns(CLOCK_MONOTONIC);
      uint64_t c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
      wall[k] = w1 > w0 ? w1 - w0 : 1;
      cpu[k] = c1 - c0;
      abytes[k] = ac.bytes - b0;
      acount[k] = ac.count - n0;
    }
  } catch (const std::exception& ex) {
    json e = error_event("exception", std::string("while sampling: ") + ex.what());
    e["cell"] = id;
    return e;
  }
  return {{"event", "samples"},    {"cell", id},
          {"operation", op},       {"iterations", iterations},
          {"wall_ns", wall},       {"cpu_ns", cpu},
          {"alloc_bytes", abytes}, {"alloc_count", acount},
          {"gc_count", nullptr},   {"gc_ns", nullptr},
          {"compile_ns", nullptr}};
}

// One operation outside any sample: the high-water mark of live heap bytes above the
// level before it.
json peak_alloc_command(const json& c, std::map<std::string, std::unique_ptr<Cell>>& cells) {
  std::string id, op;
  try {
    id = c.at("cell").get<std::string>();
    op = c.at("operation").get<std::string>();
  } catch (const std::exception& ex) {
    return error_event("bad_request", std::string("bad peak_alloc: ") + ex.what());
  }
  auto it = cells.find(id);
  if (it == cells.end() || !it->second->has(op)) {
    json e = error_event("unknown_cell", "cell '" + id + "' is not prepared for " + op);
    e["cell"] = id;
    return e;
  }
  auto& ac = alloc_counters();
  int64_t live0;
  try {
    reset_peak();
    live0 = ac.live;
    it->second->body(op)();
  } catch (const std::exception& ex) {
    json e = error_event("exception", std::string("during peak_alloc: ") + ex.what());
    e["cell"] = id;
    return e;
  }
  int64_t bytes = ac.peak - live0;
  return {
      {"event", "peak_alloc"}, {"cell", id}, {"operation", op}, {"bytes", bytes > 0 ? bytes : 0}};
}

}  // namespace

int serve_main() {
  std::map<std::string, std::unique_ptr<Cell>> cells;
  untrusted::Commands untrusted;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json c;
    try {
      c = json::parse(line);
    } catch (const std::exception& ex) {
      reply(error_event("bad_request", std::string("not JSON: ") + ex.what()));
      continue;
    }
    if (!c.is_object() || !c.contains("cmd") || !c["cmd"].is_string()) {
      reply(error_event("bad_request", "a command is a JSON object with a string \"cmd\""));
      continue;
    }
    std::string cmd = c["cmd"].get<std::string>();
    if (cmd == "prepare") {
      reply(prepare_command(c, cells));
    } else if (cmd == "sample") {
      reply(sample_command(c, cells));
    } else if (cmd == "peak_alloc") {
      reply(peak_alloc_command(c, cells));
    } else if (cmd == "release") {
      if (!c.contains("cell") || !c["cell"].is_string()) {
        reply(error_event("bad_request", "release needs a string \"cell\""));
        continue;
      }
      std::string id = c["cell"].get<std::string>();
      cells.erase(id);
      reply({{"event", "released"}, {"cell", id}});
    } else if (cmd == "untrusted_decode" || cmd == "untrusted_encode") {
      reply(untrusted.handle(c));
    } else if (cmd == "quit") {
      reply({{"event", "bye"}});
      break;
    } else {
      reply(error_event("bad_request", "unknown cmd '" + cmd +
                                           "'; valid: prepare, sample, peak_alloc, release, "
                                           "untrusted_decode, untrusted_encode, quit"));
    }
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::cerr << "serbench-cpp: peak RSS " << ru.ru_maxrss << " KiB\n";
  return 0;
}

}  // namespace sb
