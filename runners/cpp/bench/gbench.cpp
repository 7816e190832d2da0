// Google Benchmark version of a serbench cell, timing the very body the runner times
// (src/harness/cell.h): the native harness of `serbench calibrate`
// (docs/runner-protocol.md, section 12).
// Usage: serbench-cpp-gbench --serializer S --dataset D --dataset-file F
//        --operation encode|decode --samples K --sample-ms M --warmup-ms W [--iterations N]
// Google Benchmark picks each repetition's iterations (MinTime: M ms; it cannot combine a
// fixed Iterations with its warm-up) and prints one JSON line per repetition:
// {"wall_ns": ..., "cpu_ns": ..., "iterations": ...}.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <iostream>
#include <map>

#include "harness/cell.h"

using namespace sb;

namespace {
struct Holder {
  virtual ~Holder() = default;
};
template <class T>
struct CellHolder : Holder {
  std::unique_ptr<CodecBase> base;
  std::unique_ptr<CellRunner<T>> r;
  Bytes out, input;
  std::unique_ptr<Compressor> comp;
  std::function<void()> body;
};

// Every repetition's raw times, one JSON line each (Google Benchmark's own reporters
// print per-iteration means and aggregates).
class JsonLines : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
      std::printf("{\"wall_ns\": %.0f, \"cpu_ns\": %.0f, \"iterations\": %lld}\n",
                  run.real_accumulated_time * 1e9, run.cpu_accumulated_time * 1e9,
                  static_cast<long long>(run.iterations));
    }
    std::fflush(stdout);
  }
};

using Args = std::map<std::string, std::string>;

const std::string& arg(const Args& args, const std::string& name) {
  auto it = args.find(name);
  if (it == args.end()) throw std::runtime_error("missing --" + name);
  return it->second;
}

std::unique_ptr<Holder> register_cell(const Args& a) {
  const std::string &ser = arg(a, "serializer"), &ds = arg(a, "dataset"), &op = arg(a, "operation");
  const SerializerEntry* e = nullptr;
  for (const auto& x : registry())
    if (x.meta.name == ser) e = &x;
  DatasetId id;
  if (!e || !dataset_from_name(ds, id))
    throw std::runtime_error("unknown serializer or dataset: " + ser + ", " + ds);
  if (op != "encode" && op != "decode") throw std::runtime_error("--operation: encode or decode");
  std::unique_ptr<Holder> held;
  dispatch_dataset(id, [&](auto d) {
    using T = dataset_t<decltype(d)::value>;
    auto h = std::make_unique<CellHolder<T>>();
    h->base = e->make(id);
    auto& codec = dynamic_cast<Codec<T>&>(*h->base);
    h->r.reset(
        new CellRunner<T>{codec, load_dataset<T>(arg(a, "dataset-file")), {}, {}, {}, {}, 0, 0});
    h->r->check_items = h->r->data.items;
    json chk = h->r->check();
    if (!chk["ok"].get<bool>()) throw std::runtime_error("check failed: " + chk.dump());
    std::string cname;
    h->body = h->r->body(op == "encode", cname, h->out, h->input, h->comp);
    auto* body = &h->body;
    benchmark::RegisterBenchmark((ser + "/" + ds + "/" + op).c_str(),
                                 [body](benchmark::State& st) {
                                   for (auto _ : st) (*body)();
                                 })
        ->MinTime(std::stod(arg(a, "sample-ms")) / 1e3)
        ->Repetitions(std::stoi(arg(a, "samples")))
        ->MinWarmUpTime(std::stod(arg(a, "warmup-ms")) / 1e3)
        ->UseRealTime();
    held = std::move(h);
  });
  return held;
}
}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) args[std::string(argv[i]).substr(2)] = argv[i + 1];
  std::unique_ptr<Holder> cell;
  try {
    cell = register_cell(args);
  } catch (const std::exception& ex) {  // std::invalid_argument: a flag that is no number
    std::cerr << "serbench-cpp-gbench: " << ex.what() << "\n";
    return 2;
  }
  JsonLines reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
