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
}  // namespace boost::serialization

namespace sb {
// One overload per record type (more specialised than Boost's own template), all from
// the field lists.
#define SB_BOOST_RECORD(T)                                   \
  template <class Archive>                                   \
  void serialize(Archive& ar, T& v, const unsigned) {        \
    for_each_field(v, [&](const char*, auto& m) { ar& m; }); \
  }
SB_BOOST_RECORD(SampleData)
SB_BOOST_RECORD(Test1)
SB_BOOST_RECORD(Test2)
SB_BOOST_RECORD(Test3)
SB_BOOST_RECORD(Test4)
SB_BOOST_RECORD(Viewport)
SB_BOOST_RECORD(Click)
SB_BOOST_RECORD(ClickMap)
SB_BOOST_RECORD(Pair)
SB_BOOST_RECORD(TestClass)

namespace {
constexpr unsigned kFlags = boost::archive::no_header;
struct Impl {
  static constexpr const char* no_user_data =
      "Boost.Serialization serializes C++ types declared at compile time (a serialize() per "
      "class); a user dataset's types are known only at run time";
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
  return make_entry<Impl>({"boost-serialization",
                           "boost-binary-archive",
                           "Boost.Serialization (binary archive)",
                           version(),
                           {"binary", "schema-required", "copying-decode"},
                           lib_footprint({"libboost_serialization.so"})});
}
}  // namespace sb
