#include "timing.h"

#include <algorithm>
#include <cmath>

#include "alloc.h"

namespace sb {
namespace {

struct Raw {
  uint64_t wall, cpu, bytes, count;
};

Raw batch(TimedOp& op, uint64_t iters) {
  auto& ac = alloc_counters();
  uint64_t b0 = ac.bytes, c0 = ac.count;
  uint64_t c = now_ns(CLOCK_THREAD_CPUTIME_ID);
  uint64_t w = now_ns(CLOCK_MONOTONIC);
  for (uint64_t i = 0; i < iters; ++i) op.body();
  uint64_t w1 = now_ns(CLOCK_MONOTONIC);
  uint64_t c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
  return {w1 - w, c1 - c, ac.bytes - b0, ac.count - c0};
}

double median(std::vector<uint64_t> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? double(v[n / 2]) : (double(v[n / 2 - 1]) + double(v[n / 2])) / 2.0;
}

void calibrate_and_warm(TimedOp& op, const TimingConfig& cfg) {
  // The first batch is one operation: it also gives the peak heap growth of one operation
  // (outside the samples).
  auto& ac = alloc_counters();
  reset_peak();
  int64_t live0 = ac.live;
  uint64_t iters = 1;
  Raw r = batch(op, iters);
  if (cfg.peak_alloc) op.s.peak_alloc = ac.peak - live0;
  for (;;) {
    // Confirm a batch that reached the target with a second one and keep the faster, so
    // that one preemption does not end calibration early (not needed for long batches).
    if (r.wall >= cfg.min_sample_ns &&
        r.wall < std::max<uint64_t>(4 * cfg.min_sample_ns, 100000000))
      r.wall = std::min(r.wall, batch(op, iters).wall);
    if (r.wall >= cfg.min_sample_ns || iters >= (1ull << 40)) break;
    // jump close to the target, at most x16 at a time, powers of two
    uint64_t want = r.wall ? cfg.min_sample_ns / r.wall : 16;
    uint64_t mult = 2;
    while (mult < want && mult < 16) mult *= 2;
    iters *= mult;
    r = batch(op, iters);
  }
  op.s.iterations = iters;
  std::vector<uint64_t> walls;
  uint64_t start = now_ns(CLOCK_MONOTONIC);
  size_t w = std::max<size_t>(cfg.warmup_window, 1);
  op.s.steady = false;
  for (;;) {
    Raw r = batch(op, iters);
    walls.push_back(r.wall);
    if (walls.size() >= 2 * w) {
      std::vector<uint64_t> last(walls.end() - w, walls.end());
      std::vector<uint64_t> prev(walls.end() - 2 * w, walls.end() - w);
      double a = median(last), b = median(prev);
      if (b > 0 && std::fabs(a - b) / b <= cfg.warmup_tolerance) {
        op.s.steady = true;
        break;
      }
    }
    if (now_ns(CLOCK_MONOTONIC) - start >= cfg.warmup_max_ns) break;
  }
  op.s.warmup_samples = walls.size();
  op.s.warmup_wall = now_ns(CLOCK_MONOTONIC) - start;
}

}  // namespace

void measure(std::vector<TimedOp*>& ops, const TimingConfig& cfg) {
  for (auto* op : ops) calibrate_and_warm(*op, cfg);
  // Round-robin: one sample of each unfinished operation in turn.
  std::vector<uint64_t> spent(ops.size(), 0);
  uint64_t start = now_ns(CLOCK_MONOTONIC);
  for (;;) {
    bool all_done = true;
    uint64_t elapsed = now_ns(CLOCK_MONOTONIC) - start;
    for (size_t i = 0; i < ops.size(); ++i) {
      auto& s = ops[i]->s;
      size_t k = s.wall.size();
      bool done =
          k >= cfg.max_samples || (k >= cfg.min_samples && elapsed >= cfg.max_measure_ns) ||
          (cfg.budget_ns && spent[i] >= cfg.budget_ns && k >= std::min<size_t>(3, cfg.min_samples));
      if (done) continue;
      all_done = false;
      Raw r = batch(*ops[i], s.iterations);
      s.wall.push_back(r.wall);
      s.cpu.push_back(r.cpu);
      s.alloc_bytes.push_back(r.bytes);
      s.alloc_count.push_back(r.count);
      spent[i] += r.wall;
    }
    if (all_done) break;
  }
}

}  // namespace sb
