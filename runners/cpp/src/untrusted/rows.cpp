// Which exceptions each row's library documents for input it cannot decode. The harness's
// DecodeError is how a row reports a library that refuses by return value (a false from
// ParseFromArray, bson_validate or a FlatBuffers Verifier, RapidJSON's HasParseError) or
// whose exception the row rethrows as it (thrift's TException, cereal::Exception, Boost's
// archive_exception, kj::Exception in capnproto): it is a refusal for every row.
#include "untrusted/rows.h"

#include <cxxabi.h>
#include <kj/exception.h>
#include <simdjson.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <msgpack.hpp>

namespace sb::untrusted {
namespace {

template <class E>
bool thrown_as(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const E&) {
    return true;
  } catch (...) {
    return false;
  }
}
template <class... E>
bool refused(const std::exception_ptr& e) {
  return (thrown_as<DecodeError>(e) || ... || thrown_as<E>(e));
}

}  // namespace

const Row* find_row(const std::string& serializer) {
  static const std::map<std::string, Row> rows = {
      {"handwritten", {refused<>}},
      // msgpack-c: unpack throws msgpack::unpack_error (parse_error, insufficient_bytes,
      // size_overflow, ...); object::as / convert throw msgpack::type_error
      {"msgpack",
       {refused<msgpack::unpack_error, msgpack::type_error>, decode_msgpack, encode_msgpack}},
      {"msgpack-zerocopy",
       {refused<msgpack::unpack_error, msgpack::type_error>, decode_msgpack_zerocopy,
        encode_msgpack}},
      {"protobuf", {refused<>}},
      {"protobuf-dynamic", {refused<>}},
      // nlohmann/json: parse throws json::parse_error; get / at throw json::type_error and
      // json::out_of_range on another shape (all derive from json::exception)
      {"nlohmann-json", {refused<nlohmann::json::exception>, decode_nlohmann, encode_nlohmann}},
      // RapidJSON reports through its ParseResult (no exceptions)
      {"rapidjson", {refused<>, decode_rapidjson}},
      // simdjson (exceptions enabled): every error code is thrown as simdjson_error
      {"simdjson-ondemand", {refused<simdjson::simdjson_error>, decode_simdjson_ondemand}},
      {"simdjson-dom", {refused<simdjson::simdjson_error>, decode_simdjson_dom}},
      {"cereal", {refused<>}},
      {"boost-serialization", {refused<>}},
      // libbson: bson_init_static and bson_validate_with_error return false
      {"libbson", {refused<>, decode_bson}},
      {"flatbuffers", {refused<>}},
      {"flatbuffers-lazy", {refused<>}},
      // flexbuffers: VerifyBuffer returns false
      {"flexbuffers", {refused<>, decode_flexbuffers}},
      // Cap'n Proto: a malformed message throws kj::Exception
      {"capnproto", {refused<kj::Exception>}},
      {"capnproto-lazy", {refused<kj::Exception>}},
      {"capnproto-dynamic", {refused<kj::Exception>}},
      {"thrift-compact", {refused<>}},
      {"thrift-binary", {refused<>}},
  };
  auto it = rows.find(serializer);
  return it == rows.end() ? nullptr : &it->second;
}

std::string describe(const std::exception_ptr& e) {
  auto type_name = [](const std::type_info& t) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> name(
        abi::__cxa_demangle(t.name(), nullptr, nullptr, &status), std::free);
    return std::string(status == 0 && name ? name.get() : t.name());
  };
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc& ex) {
    // the address-space limit made an allocation fail: the orchestrator's "excessive
    // allocation" (it looks for these words)
    return "out of memory: " + type_name(typeid(ex));
  } catch (const std::exception& ex) {
    return type_name(typeid(ex)) + ": " + ex.what();
  } catch (const kj::Exception& ex) {
    return std::string("kj::Exception: ") + ex.getDescription().cStr();
  } catch (...) {
    return "an exception of a type that is not std::exception";
  }
}

}  // namespace sb::untrusted
