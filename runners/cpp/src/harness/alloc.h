#pragma once
#include <cstdint>

namespace sb {
// Process-wide heap counters, maintained by the malloc family interposed in alloc.cpp
// (this catches C libraries such as zlib, zstd and libbson as well as operator new).
struct AllocCounters {
  uint64_t bytes = 0;  // requested bytes, cumulative
  uint64_t count = 0;  // allocations, cumulative
  int64_t live = 0;    // usable bytes currently allocated
  int64_t peak = 0;    // high-water mark of live since the last reset_peak()
};
AllocCounters& alloc_counters();
inline void reset_peak() { alloc_counters().peak = alloc_counters().live; }
}  // namespace sb
