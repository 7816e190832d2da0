// cereal BinaryOutputArchive / BinaryInputArchive; serialize() comes from the field lists
// of the generated model, for the built-in datasets and the user datasets alike.
#include <cereal/archives/binary.hpp>
#include <cereal/types/chrono.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cereal/version.hpp>
#include <istream>
#include <ostream>

#include "../harness/typed_user.h"
#include "membuf.h"

// Every record of the generated model (found by ADL through the archive's namespace).
namespace cereal {
template <class Archive, class T, std::enable_if_t<sb::is_record_v<T>, int> = 0>
void serialize(Archive& ar, T& v) {
  sb::for_each_field(v, [&](const char*, auto& m) { ar(m); });
}
}  // namespace cereal

namespace sb {

namespace {
struct Impl {
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
  return typed_entry<Impl>({"cereal",
                            "cereal-binary",
                            "cereal (BinaryArchive)",
                            version(),
                            {"binary", "schema-required", "copying-decode"},
                            std::nullopt});
}
}  // namespace sb
