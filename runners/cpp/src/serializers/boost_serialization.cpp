// Boost.Serialization binary_oarchive / binary_iarchive (no_header: one archive per
// message); serialize() comes from the field lists, timestamps as int64 ms.
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/map.hpp>
#include <boost/serialization/split_free.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <boost/version.hpp>
#include <istream>
#include <ostream>

#include "../harness/typed_user.h"
#include "membuf.h"

namespace boost::serialization {
template <class Archive>
void save(Archive& ar, const sb::Timestamp& t, unsigned) {
  int64_t ms = t.time_since_epoch().count();
  ar << ms;
}
template <class Archive>
void load(Archive& ar, sb::Timestamp& t, unsigned) {
  int64_t ms;
  ar >> ms;
  t = sb::Timestamp(std::chrono::milliseconds(ms));
}
template <class Archive>
void serialize(Archive& ar, sb::Timestamp& t, unsigned version) {
  split_free(ar, t, version);
}
template <class Archive, class T>
void save(Archive& ar, const std::optional<T>& o, unsigned) {
  bool has = o.has_value();
  ar << has;
  if (has) ar << *o;
}
template <class Archive, class T>
void load(Archive& ar, std::optional<T>& o, unsigned) {
  bool has;
  ar >> has;
  o.reset();
  if (has) ar >> o.emplace();
}
template <class Archive, class T>
void serialize(Archive& ar, std::optional<T>& o, unsigned version) {
  split_free(ar, o, version);
}
// Every record of the generated model, from its field list. Boost passes the version as a
// version_type, so this overload is a better match than Boost's own template.
template <class Archive, class T, std::enable_if_t<sb::is_record_v<T>, int> = 0>
void serialize(Archive& ar, T& v, const version_type) {
  sb::for_each_field(v, [&](const char*, auto& m) { ar& m; });
}
}  // namespace boost::serialization

namespace sb {
namespace {
constexpr unsigned kFlags = boost::archive::no_header;
struct Impl {
  template <class T>
  void encode(const T& v, Bytes& out) {
    BytesOutBuf buf(out);
    boost::archive::binary_oarchive ar(buf, kFlags);
    ar << v;
  }
  template <class T>
  size_t decode(const uint8_t* p, size_t n, T& out) {
    MemInBuf buf(p, n);
    try {
      boost::archive::binary_iarchive ar(buf, kFlags);
      ar >> out;
    } catch (const boost::archive::archive_exception& e) {
      throw DecodeError(std::string("boost: ") + e.what());
    }
    return buf.used();
  }
};
std::string version() {
  return std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) +
         "." + std::to_string(BOOST_VERSION % 100);
}
}  // namespace

SerializerEntry reg_boost_serialization() {
  return typed_entry<Impl>({"boost-serialization",
                            "boost-binary-archive",
                            "Boost.Serialization (binary archive)",
                            version(),
                            {"binary", "schema-required", "copying-decode"},
                            lib_footprint({"libboost_serialization.so"})});
}
}  // namespace sb
