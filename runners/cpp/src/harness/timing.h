// Protocol section 7: calibrate, warm up until steady, measure round-robin.
#pragma once

#include <time.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sb {

inline uint64_t now_ns(clockid_t clk) {
  timespec ts;
  clock_gettime(clk, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// An optimisation barrier in the style of benchmark::DoNotOptimize.
template <class T>
inline void do_not_optimize(T const& v) {
  asm volatile("" : : "r,m"(v) : "memory");
}

struct TimingConfig {
  uint64_t min_sample_ns = 1000000;
  size_t min_samples = 20, max_samples = 200;
  uint64_t max_measure_ns = 500000000;
  size_t warmup_window = 5;
  double warmup_tolerance = 0.05;
  uint64_t warmup_max_ns = 300000000;
  bool peak_alloc = true;
  uint64_t budget_ns = 0;  // 0: none; else stop an operation at 3 samples once it is spent
};

struct Samples {
  uint64_t iterations = 1;
  std::vector<uint64_t> wall, cpu, alloc_bytes, alloc_count;
  size_t warmup_samples = 0;
  uint64_t warmup_wall = 0;
  bool steady = false;
  int64_t peak_alloc = -1;  // -1: not measured
};

// One timed operation: `body` runs one iteration.
struct TimedOp {
  std::function<void()> body;
  Samples s;
};

// Calibrates and warms up each op, then measures them round-robin.
void measure(std::vector<TimedOp*>& ops, const TimingConfig& cfg);

}  // namespace sb
