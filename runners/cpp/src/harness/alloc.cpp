// Counting allocator: the runner interposes the glibc malloc family (and routes the global
// operator new/delete through it), so every sample can report bytes and calls allocated.
// The runner is single-threaded while timing; counters are plain integers.
#include "alloc.h"

#include <malloc.h>

#include <cerrno>
#include <cstddef>
#include <new>

extern "C" {
void* __libc_malloc(size_t);
void __libc_free(void*);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
}

namespace sb {
static AllocCounters g_counters;
AllocCounters& alloc_counters() { return g_counters; }
}  // namespace sb

namespace {
inline void on_alloc(void* p, size_t req) {
  if (!p) return;
  auto& c = sb::g_counters;
  c.bytes += req;
  c.count += 1;
  c.live += static_cast<int64_t>(malloc_usable_size(p));
  if (c.live > c.peak) c.peak = c.live;
}
inline void on_free(void* p) {
  if (p) sb::g_counters.live -= static_cast<int64_t>(malloc_usable_size(p));
}
}  // namespace

extern "C" {
void* malloc(size_t n) {
  void* p = __libc_malloc(n);
  on_alloc(p, n);
  return p;
}
void free(void* p) {
  on_free(p);
  __libc_free(p);
}
void* calloc(size_t a, size_t b) {
  void* p = __libc_calloc(a, b);
  on_alloc(p, a * b);
  return p;
}
void* realloc(void* old, size_t n) {
  on_free(old);
  void* p = __libc_realloc(old, n);
  if (p) {
    on_alloc(p, n);
  } else if (old && n) {
    sb::g_counters.live += static_cast<int64_t>(malloc_usable_size(old));  // old block kept
  }
  return p;
}
void* memalign(size_t al, size_t n) {
  void* p = __libc_memalign(al, n);
  on_alloc(p, n);
  return p;
}
void* aligned_alloc(size_t al, size_t n) { return memalign(al, n); }
int posix_memalign(void** out, size_t al, size_t n) {
  void* p = memalign(al, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
void* valloc(size_t n) { return memalign(4096, n); }
}

void* operator new(size_t n) {
  void* p = malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return malloc(n ? n : 1); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return malloc(n ? n : 1); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, size_t) noexcept { free(p); }
void operator delete[](void* p, size_t) noexcept { free(p); }
void* operator new(size_t n, std::align_val_t al) {
  void* p = memalign(static_cast<size_t>(al), n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t n, std::align_val_t al) { return operator new(n, al); }
void operator delete(void* p, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { free(p); }
