// cereal BinaryOutputArchive / BinaryInputArchive; serialize() comes from the field lists.
#include <cereal/archives/binary.hpp>
#include <cereal/types/chrono.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cereal/version.hpp>
#include <istream>
#include <ostream>

#include "membuf.h"

namespace sb {
// found by ADL for every record type of types.h
template <class Archive, class T, std::enable_if_t<is_record_v<T>, int> = 0>
void serialize(Archive& ar, T& v) {
  for_each_field(v, [&](const char*, auto& m) { ar(m); });
}

namespace {
struct Impl {
  static constexpr const char* no_user_data =
      "cereal serializes C++ types declared at compile time; a user dataset's types are known only "
      "at run time";
  template <class T>
  void encode(const T& v, Bytes& out) {
    BytesOutBuf buf(out);
    std::ostream os(&buf);
    {
      cereal::BinaryOutputArchive ar(os);
      ar(v);
    }
  }
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    MemInBuf buf(p, n);
    std::istream is(&buf);
    try {
      cereal::BinaryInputArchive ar(is);
      ar(out);
    } catch (const cereal::Exception& e) {
      throw DecodeError(std::string("cereal: ") + e.what());
    }
    return buf.used();
  }
};
std::string version() {
  return std::to_string(CEREAL_VERSION_MAJOR) + "." + std::to_string(CEREAL_VERSION_MINOR) + "." +
         std::to_string(CEREAL_VERSION_PATCH);
}
}  // namespace

SerializerEntry reg_cereal() {
  return make_entry<Impl>({"cereal",
                           "cereal-binary",
                           "cereal (BinaryArchive)",
                           version(),
                           {"binary", "schema-required", "copying-decode"},
                           std::nullopt});
}
}  // namespace sb
