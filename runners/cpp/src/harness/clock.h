// The clocks the runner reads at batch boundaries, and the optimisation barrier (sink)
// every timed operation's result goes through.
#pragma once

#include <time.h>

#include <cstdint>

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

}  // namespace sb
