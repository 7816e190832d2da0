// Google Benchmark versions of serbench cells, timing the very bodies the runner times
// (src/harness/cell.h), to cross-check the runner's timing loop (bench/compare.py).
// Usage: serbench-cpp-gbench --cell=<serializer>:<dataset>:<operation>:<data path> ...
//        [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <iostream>

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
std::vector<std::unique_ptr<Holder>> holders;

void add_cell(const std::string& spec) {
  // serializer:dataset:operation:path (the path may contain ':')
  size_t a = spec.find(':'), b = spec.find(':', a + 1), c = spec.find(':', b + 1);
  if (a == std::string::npos || b == std::string::npos || c == std::string::npos)
    throw std::runtime_error("bad --cell " + spec);
  std::string ser = spec.substr(0, a), ds = spec.substr(a + 1, b - a - 1),
              op = spec.substr(b + 1, c - b - 1), path = spec.substr(c + 1);
  const SerializerEntry* e = nullptr;
  for (const auto& x : registry())
    if (x.meta.name == ser) e = &x;
  DatasetId id;
  if (!e || !dataset_from_name(ds, id))
    throw std::runtime_error("unknown serializer or dataset in " + spec);
  dispatch_dataset(id, [&](auto d) {
    using T = dataset_t<decltype(d)::value>;
    auto h = std::make_unique<CellHolder<T>>();
    h->base = e->make(id);
    auto& codec = dynamic_cast<Codec<T>&>(*h->base);
    h->r.reset(new CellRunner<T>{codec, load_dataset<T>(path), {}, {}, {}, {}, 0, 0});
    h->r->check_items = h->r->data.items;
    json chk = h->r->check();
    if (!chk["ok"].get<bool>()) throw std::runtime_error("check failed: " + chk.dump());
    bool enc;
    std::string cname;
    if (op == "encode" || op == "decode") {
      enc = op == "encode";
    } else {
      throw std::runtime_error("gbench supports encode and decode only");
    }
    h->body = h->r->body(enc, cname, h->out, h->input, h->comp);
    auto* body = &h->body;
    benchmark::RegisterBenchmark((ser + "/" + ds + "/" + op).c_str(), [body](benchmark::State& st) {
      for (auto _ : st) (*body)();
    })->UseRealTime();
    holders.push_back(std::move(h));
  });
}
}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--cell=", 0) == 0) {
        add_cell(a.substr(7));
      } else {
        std::cerr << "unknown argument " << a << "\n";
        return 2;
      }
    }
  } catch (const std::exception& ex) {
    std::cerr << "serbench-cpp-gbench: " << ex.what() << "\n";
    return 2;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
