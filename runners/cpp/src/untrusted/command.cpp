#include "untrusted/command.h"

#include <chrono>
#include <fstream>
#include <iterator>

#include "harness/compress.h"
#include "harness/dataset.h"
#include "harness/user.h"
#include "untrusted/rows.h"

namespace sb::untrusted {
namespace {

constexpr size_t kMaxErrorText = 300;
constexpr size_t kScannedMessages = 64;  // distinct messages a typed decode is compared with

// A reply "error" event, thrown out of a command.
struct Failure : std::runtime_error {
  std::string code;
  Failure(std::string c, const std::string& message)
      : std::runtime_error(message), code(std::move(c)) {}
};

template <class T>
struct Typed final : TypedRow {
  std::unique_ptr<CodecBase> base;
  Codec<T>* codec = nullptr;
  Dataset<T> data;

  Bytes encode(size_t message) override {
    Bytes out;
    codec->encode(data.items[message % data.items.size()], out);
    return out;
  }
  json decode(const uint8_t* p, size_t n) override {
    T got{};
    codec->decode(p, n, got);
    size_t scanned = std::min(data.items.size(), kScannedMessages);
    for (size_t k = 0; k < scanned; ++k)
      if (!first_difference(got, data.items[k], "$"))
        return {{"$check", "equal to message " + std::to_string(k)}};
    return {{"$check", *first_difference(got, data.items[0], "$")}};
  }
};

std::unique_ptr<TypedRow> make_typed(const SerializerEntry& entry, DatasetId id,
                                     const std::string& path) {
  return dispatch_dataset(id, [&](auto d) -> std::unique_ptr<TypedRow> {
    using T = dataset_t<decltype(d)::value>;
    auto row = std::make_unique<Typed<T>>();
    row->base = entry.make(id);
    row->codec = dynamic_cast<Codec<T>*>(row->base.get());
    if (!row->codec) throw Failure("exception", "internal: codec type mismatch");
    try {
      row->data = load_dataset<T>(path);
    } catch (const std::exception& ex) {
      throw Failure("bad_data", "cannot load dataset " + path + ": " + ex.what());
    }
    for (const T& item : row->data.items)
      if (std::string why = row->codec->reject(item); !why.empty())
        throw Failure("not_applicable", why);
    row->codec->prepare(row->data.items);
    return row;
  });
}

// The input's bytes followed by kPad zero bytes (simdjson reads past the end).
Bytes input_bytes(const json& item) {
  std::string raw;
  if (item.contains("path") && item["path"].is_string()) {
    std::string path = item["path"].get<std::string>();
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Failure("bad_request", "cannot open input " + path);
    raw.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  } else if (item.contains("b64") && item["b64"].is_string()) {
    try {
      raw = base64_decode(item["b64"].get<std::string>());
    } catch (const std::exception& ex) {
      throw Failure("bad_request", std::string("input is not base64: ") + ex.what());
    }
  } else {
    throw Failure("bad_request", "an input has neither b64 nor path");
  }
  Bytes out(raw.begin(), raw.end());
  out.resize(raw.size() + kPad, 0);
  return out;
}

json outcome(const std::string& id, const std::function<json(const uint8_t*, size_t)>& decode,
             const Refusal refusal, const Bytes& input) {
  const size_t n = input.size() - kPad;
  json out = {{"id", id}};
  auto start = std::chrono::steady_clock::now();
  try {
    json value = decode(input.data(), n);
    out["outcome"] = "accepted";
    out["value"] = std::move(value);
  } catch (...) {
    std::exception_ptr e = std::current_exception();
    out["outcome"] = refusal(e) ? "rejected" : "error";
    out["error"] = describe(e).substr(0, kMaxErrorText);
  }
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                 start);
  out["ns"] = ns.count();
  return out;
}

const SerializerEntry& find_entry(const std::string& name) {
  for (const auto& e : registry())
    if (e.meta.name == name) return e;
  throw Failure("unknown_serializer", "unknown serializer '" + name + "'");
}

std::string b64(const Bytes& b) { return base64_encode(std::string(b.begin(), b.end())); }

}  // namespace

TypedRow& Commands::typed(const std::string& serializer, const json& dataset) {
  if (!dataset.is_object() || !dataset.contains("name") || !dataset["name"].is_string() ||
      !dataset.contains("data") || !dataset["data"].is_string())
    throw Failure("bad_request", "dataset needs a string name and data");
  if (dataset.value("kind", std::string("builtin")) == "user")
    throw Failure("unsupported", "untrusted input against user datasets is not supported yet");
  const std::string name = dataset["name"].get<std::string>();
  const std::string path = dataset["data"].get<std::string>();
  auto key = std::make_pair(serializer, path);
  auto it = typed_.find(key);
  if (it != typed_.end()) return *it->second;
  const SerializerEntry& entry = find_entry(serializer);
  DatasetId id;
  if (!dataset_from_name(name, id))
    throw Failure("unknown_dataset", "unknown dataset '" + name + "'");
  if (std::string why = entry.reason(id); !why.empty()) throw Failure("not_applicable", why);
  return *(typed_[key] = make_typed(entry, id, path));
}

json Commands::handle(const json& c) {
  const std::string cell = c.value("cell", std::string());
  try {
    if (!c.contains("serializer") || !c["serializer"].is_string())
      throw Failure("bad_request", "a string \"serializer\" is required");
    const std::string ser = c["serializer"].get<std::string>();
    find_entry(ser);
    const Row* row = find_row(ser);
    if (!row) throw Failure("unsupported", ser + " decodes nothing (a baseline)");
    const json none;
    const json& dataset = c.contains("dataset") ? c["dataset"] : none;
    const bool encode = c["cmd"] == "untrusted_encode";

    if (encode) {
      if (!dataset.is_null()) {
        const json& m = c.contains("message") ? c["message"] : json(0);
        if (!m.is_number_unsigned() && !(m.is_number_integer() && m.get<int64_t>() >= 0))
          throw Failure("bad_request", "message must be an integer >= 0");
        Bytes out = typed(ser, dataset).encode(m.get<size_t>());
        return {{"event", "untrusted_encoded"}, {"cell", cell}, {"b64", b64(out)}};
      }
      if (!row->encode) throw Failure("unsupported", ser + " does not encode generic values here");
      try {
        Bytes out = row->encode(c.contains("value") ? c["value"] : none);
        return {{"event", "untrusted_encoded"}, {"cell", cell}, {"b64", b64(out)}};
      } catch (const NotApplicable& ex) {
        throw Failure("not_applicable", ex.what());
      }
    }

    std::function<json(const uint8_t*, size_t)> decode;
    if (!dataset.is_null()) {
      TypedRow* t = &typed(ser, dataset);
      decode = [t](const uint8_t* p, size_t n) { return t->decode(p, n); };
    } else if (row->decode) {
      decode = row->decode;
    } else {
      throw Failure("unsupported", ser + " has no generic-value decode: name a dataset");
    }
    if (!c.contains("inputs") || !c["inputs"].is_array())
      throw Failure("bad_request", "\"inputs\" must be an array");
    json outcomes = json::array();
    for (const json& item : c["inputs"]) {
      if (!item.is_object() || !item.contains("id") || !item["id"].is_string())
        throw Failure("bad_request", "every input needs a string \"id\"");
      outcomes.push_back(
          outcome(item["id"].get<std::string>(), decode, row->refusal, input_bytes(item)));
    }
    return {{"event", "untrusted_decoded"}, {"cell", cell}, {"outcomes", outcomes}};
  } catch (const Failure& f) {
    return {{"event", "error"}, {"code", f.code}, {"message", f.what()}, {"cell", cell}};
  } catch (const NotApplicable& ex) {  // a message the format cannot carry
    return {{"event", "error"}, {"code", "not_applicable"}, {"message", ex.what()}, {"cell", cell}};
  } catch (const std::exception& ex) {  // preparing the typed row, encoding its message
    return {{"event", "error"},
            {"code", "exception"},
            {"message", describe(std::current_exception())},
            {"cell", cell}};
  }
}

}  // namespace sb::untrusted
