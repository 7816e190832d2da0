// The registry: one line per library file.
#include <link.h>
#include <sys/stat.h>

#include <cstring>
#include <string>

#include "serializer.h"

namespace sb {

// Size of the loaded shared objects whose file name starts with one of the prefixes.
std::optional<long long> lib_footprint(std::initializer_list<const char*> prefixes) {
  struct Ctx {
    std::initializer_list<const char*> pre;
    long long total = 0;
    bool found = false;
  } ctx{prefixes};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* c = static_cast<Ctx*>(data);
        const char* path = info->dlpi_name;
        if (!path || !*path) return 0;
        const char* base = std::strrchr(path, '/');
        base = base ? base + 1 : path;
        for (const char* p : c->pre) {
          if (std::strncmp(base, p, std::strlen(p)) == 0) {
            struct stat st {};
            if (stat(path, &st) == 0) c->total += st.st_size, c->found = true;
          }
        }
        return 0;
      },
      &ctx);
  if (!ctx.found) return std::nullopt;
  return ctx.total;
}

#define SB_LIBRARIES(X)      \
  X(reg_noop)                \
  X(reg_memcpy)              \
  X(reg_handwritten)         \
  X(reg_msgpack)             \
  X(reg_msgpack_zerocopy)    \
  X(reg_protobuf)            \
  X(reg_protobuf_dynamic)    \
  X(reg_nlohmann_json)       \
  X(reg_rapidjson)           \
  X(reg_simdjson_ondemand)   \
  X(reg_simdjson_dom)        \
  X(reg_cereal)              \
  X(reg_boost_serialization) \
  X(reg_libbson)             \
  X(reg_flatbuffers)         \
  X(reg_flatbuffers_lazy)    \
  X(reg_flexbuffers)         \
  X(reg_capnproto)           \
  X(reg_capnproto_lazy)      \
  X(reg_capnproto_dynamic)   \
  X(reg_thrift_compact)      \
  X(reg_thrift_binary)

#define SB_DECLARE(fn) SerializerEntry fn();
SB_LIBRARIES(SB_DECLARE)

std::vector<SerializerEntry>& registry() {
  static std::vector<SerializerEntry> r = [] {
    std::vector<SerializerEntry> v;
#define SB_ADD(fn) v.push_back(fn());
    SB_LIBRARIES(SB_ADD)
    return v;
  }();
  return r;
}

}  // namespace sb
