// serbench-typegen: writes the C++ typed model of every dataset from its types.json
// (datasets/README.md, "Types"). CMake builds it first and runs it at build time:
//
//   serbench-typegen OUTDIR builtin=FAMILY=PATH... user=NAME=PATH...
//
// writes OUTDIR/model.h (the built-in datasets) and OUTDIR/user_model.h (the user datasets).
//
// Built-in families go into namespace sb (their names must not clash) with the DatasetId
// table the harness dispatches on; each user dataset gets namespace sb::user_model::NAME
// and an entry of kUserModels, keyed by the FNV-1a hash of its types file so that the
// runner can tell a model built from other types. A type this model cannot hold (`any`,
// `bigint`, a recursive record) leaves the user dataset without a model, with the reason.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using nlohmann::ordered_json;

namespace {

struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const std::set<std::string> kKeywords = {
    "alignas",      "alignof",
    "and",          "and_eq",
    "asm",          "auto",
    "bitand",       "bitor",
    "bool",         "break",
    "case",         "catch",
    "char",         "char16_t",
    "char32_t",     "class",
    "compl",        "const",
    "constexpr",    "const_cast",
    "continue",     "decltype",
    "default",      "delete",
    "do",           "double",
    "dynamic_cast", "else",
    "enum",         "explicit",
    "export",       "extern",
    "false",        "float",
    "for",          "friend",
    "goto",         "if",
    "inline",       "int",
    "long",         "mutable",
    "namespace",    "new",
    "noexcept",     "not",
    "not_eq",       "nullptr",
    "operator",     "or",
    "or_eq",        "private",
    "protected",    "public",
    "register",     "reinterpret_cast",
    "return",       "short",
    "signed",       "sizeof",
    "static",       "static_assert",
    "static_cast",  "struct",
    "switch",       "template",
    "this",         "thread_local",
    "throw",        "true",
    "try",          "typedef",
    "typeid",       "typename",
    "union",        "unsigned",
    "using",        "virtual",
    "void",         "volatile",
    "wchar_t",      "while",
    "xor",          "xor_eq",
    "fields",  // the reflection member every record has
};

// A C++ identifier for a name from a types file.
std::string ident(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
  if (kKeywords.count(out) || out.find("__") != std::string::npos) out += "_";
  return out;
}

std::string camel(const std::string& s) {
  std::string out;
  bool up = true;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      up = true;
    } else {
      out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      up = false;
    }
  }
  return out;
}

std::string quote(const std::string& s) { return ordered_json(s).dump(); }

uint64_t fnv1a(const std::string& bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// One types.json, turned into C++ declarations in namespace `ns`.
struct Family {
  std::string ns;  // "::sb" or "::sb::user_model::NAME"
  ordered_json types;
  std::ostringstream decl;     // enums, records and aliases, in dependency order
  std::string ahead() const {  // a declaration of every record, written before `decl`
    std::string out;
    for (const auto& [name, d] : types.items())
      if (d.contains("record")) out += "struct " + ident(name) + ";\n";
    return out;
  }
  std::ostringstream symbols;        // enum_symbols specialisations (namespace sb)
  std::map<std::string, int> state;  // record/enum -> 1 being written, 2 written

  std::string inner(const std::string& t, size_t open) {
    if (t.back() != '>') throw std::runtime_error("bad type '" + t + "'");
    return t.substr(open, t.size() - open - 1);
  }

  // The C++ type of a type expression; writes the named types it needs first. A record may
  // hold itself through a list (std::vector takes an incomplete type; every record is
  // declared ahead), not otherwise.
  std::string cpp(std::string t, bool in_list = false) {
    t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
    static const std::map<std::string, std::string> scalars = {{"int32", "int32_t"},
                                                               {"uint32", "uint32_t"},
                                                               {"int64", "int64_t"},
                                                               {"uint64", "uint64_t"},
                                                               {"bool", "bool"},
                                                               {"string", "std::string"},
                                                               {"timestamp_ms", "::sb::Timestamp"},
                                                               {"bytes", "::sb::Blob"},
                                                               {"float32", "float"},
                                                               {"float64", "double"},
                                                               {"null", "::sb::Null"}};
    if (auto it = scalars.find(t); it != scalars.end()) return it->second;
    if (t == "any" || t == "bigint")
      throw Unsupported("type `" + t + "` has no C++ type in the typed model");
    if (t.rfind("list<", 0) == 0) return "std::vector<" + cpp(inner(t, 5), true) + ">";
    if (t.rfind("optional<", 0) == 0) return "std::optional<" + cpp(inner(t, 9)) + ">";
    if (t.rfind("map<string,", 0) == 0) return "std::map<std::string, " + cpp(inner(t, 11)) + ">";
    if (!types.contains(t)) throw std::runtime_error("unknown type '" + t + "'");
    if (!(in_list && state[t] == 1)) write_named(t);
    return ns + "::" + ident(t);
  }

  void write_named(const std::string& name) {
    int& st = state[name];
    if (st == 2) return;
    if (st == 1) throw Unsupported("record `" + name + "` contains itself");
    st = 1;
    const ordered_json& d = types.at(name);
    const std::string id = ident(name);
    std::ostringstream out;
    if (d.contains("enum")) {
      out << "enum class " << id << " : int32_t {";
      std::ostringstream names;
      int i = 0;
      for (const auto& s : d.at("enum")) {
        out << (i ? ", " : " ") << ident(s.get<std::string>()) << " = " << i;
        names << (i ? ", " : "") << quote(s.get<std::string>());
        ++i;
      }
      out << " };\n";
      symbols << "template <>\nstruct enum_symbols<" << ns << "::" << id
              << "> {\n  static constexpr const char* names[] = {" << names.str() << "};\n};\n";
    } else {
      std::vector<std::pair<std::string, std::string>> members;  // (key, member)
      std::set<std::string> used;
      out << "struct " << id << " {\n";
      for (const auto& f : d.at("record")) {
        std::string key = f.at(0).get<std::string>(), m = ident(key);
        while (!used.insert(m).second) m += "_";
        out << "  " << cpp(f.at(1).get<std::string>()) << " " << m << "{};\n";
        members.emplace_back(key, m);
      }
      out << "  static constexpr auto fields() {\n    using Self = " << id
          << ";\n    return std::make_tuple(";
      for (size_t i = 0; i < members.size(); ++i)
        out << (i ? ",\n                           " : "") << "::sb::field("
            << quote(members[i].first) << ", &Self::" << members[i].second << ")";
      out << ");\n  }\n};\n";
    }
    decl << out.str();
    st = 2;
  }

  // The message type of `message` ("Name" or a type expression wrapped in the root alias).
  std::string message(const std::string& m, const ordered_json& schema) {
    if (types.contains(m) && types.at(m).contains("record")) return cpp(m);
    std::string root = "Root";
    if (schema.contains("root")) root = schema.at("root").at(0).get<std::string>();
    std::string t = cpp(m);
    decl << "using " << ident(root) << " = " << t << ";\n";
    return ns + "::" + ident(root);
  }
};

// Writes text unless the file holds it already (an unchanged model recompiles nothing).
bool write_if_changed(const std::string& path, const std::string& text) {
  try {
    if (read_file(path) == text) return true;
  } catch (const std::exception&) {
  }
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) std::cerr << "serbench-typegen: cannot write " << path << "\n";
  return static_cast<bool>(f);
}

struct Builtin {
  std::string dataset, enumerator, type;
};
struct User {
  std::string name, ns, type, unsupported;
  uint64_t hash;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: serbench-typegen OUTDIR builtin=FAMILY=PATH... user=NAME=PATH...\n";
    return 2;
  }
  std::ostringstream builtin_decl, builtin_symbols, user_decl, user_symbols;
  std::vector<Builtin> builtins;
  std::vector<User> users;
  std::set<std::string> user_ns;
  try {
    for (int i = 2; i < argc; ++i) {
      std::string arg = argv[i];
      size_t a = arg.find('='), b = arg.find('=', a + 1);
      if (a == std::string::npos || b == std::string::npos)
        throw std::runtime_error("bad argument " + arg);
      std::string kind = arg.substr(0, a), name = arg.substr(a + 1, b - a - 1),
                  path = arg.substr(b + 1);
      std::string text = read_file(path);
      ordered_json j = ordered_json::parse(text);
      ordered_json schema = j.value("schema", ordered_json::object());
      Family fam;
      fam.types = j.at("types");
      if (kind == "builtin") {
        fam.ns = "::sb";
        const ordered_json& m = j.at("message");
        if (m.is_string()) {
          builtins.push_back({name, camel(name), fam.message(m.get<std::string>(), schema)});
        } else {
          for (const auto& [ds, t] : m.items())
            builtins.push_back({ds, camel(ds), fam.message(t.get<std::string>(), schema)});
        }
        for (const auto& [t, d] : fam.types.items()) fam.write_named(t);  // unused ones too
        builtin_decl << "// " << name << " (" << path << ")\n" << fam.ahead() << fam.decl.str();
        builtin_symbols << fam.symbols.str();
      } else if (kind == "user") {
        User u{name, ident(name), "", "", fnv1a(text)};
        while (!user_ns.insert(u.ns).second) u.ns += "_";
        fam.ns = "::sb::user_model::" + u.ns;
        try {
          u.type = fam.message(j.at("message").get<std::string>(), schema);
          user_decl << "// " << name << " (" << path << ")\nnamespace " << u.ns << " {\n"
                    << fam.ahead() << fam.decl.str() << "}  // namespace " << u.ns << "\n";
          user_symbols << fam.symbols.str();
        } catch (const Unsupported& e) {
          u.unsupported = e.what();
        }
        users.push_back(u);
      } else {
        throw std::runtime_error("bad argument " + arg);
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "serbench-typegen: " << e.what() << "\n";
    return 1;
  }

  std::ostringstream o;
  o << "// Generated by serbench-typegen (runners/cpp/tools/typegen) from the datasets'\n"
       "// types.json at build time: do not edit.\n#pragma once\n\n"
       "namespace sb {\n\n"
    << builtin_decl.str() << "\n";
  o << "// The built-in datasets, in the order describe lists them.\nenum class DatasetId {";
  for (size_t i = 0; i < builtins.size(); ++i) o << (i ? ", " : " ") << builtins[i].enumerator;
  o << " };\ninline constexpr DatasetId kAllDatasets[] = {";
  for (size_t i = 0; i < builtins.size(); ++i)
    o << (i ? ", " : "") << "DatasetId::" << builtins[i].enumerator;
  o << "};\ninline const char* dataset_name(DatasetId id) {\n  switch (id) {\n";
  for (const auto& d : builtins)
    o << "    case DatasetId::" << d.enumerator << ":\n      return " << quote(d.dataset) << ";\n";
  o << "  }\n  return \"?\";\n}\n";
  for (const auto& d : builtins)
    o << "template <>\nstruct DatasetType<DatasetId::" << d.enumerator
      << "> {\n  using type = " << d.type << ";\n};\n";
  // X(T) once per distinct message type: what the harness instantiates per dataset type
  // (cell.h, cells.cpp) without naming any dataset.
  o << "#define SB_BUILTIN_MESSAGE_TYPES(X)";
  std::set<std::string> listed;
  for (const auto& d : builtins)
    if (listed.insert(d.type).second) o << " X(" << d.type << ")";
  o << "\n";
  o << "// Calls f(std::integral_constant<DatasetId, D>{}) for the runtime id.\n"
       "template <class F>\ndecltype(auto) dispatch_dataset(DatasetId id, F&& f) {\n"
       "  switch (id) {\n";
  for (const auto& d : builtins)
    o << "    case DatasetId::" << d.enumerator
      << ":\n      return f(std::integral_constant<DatasetId, DatasetId::" << d.enumerator
      << ">{});\n";
  o << "  }\n  return f(std::integral_constant<DatasetId, DatasetId::" << builtins.at(0).enumerator
    << ">{});\n}\n\n";

  o << builtin_symbols.str() << "\n}  // namespace sb\n";

  // The user datasets' models in a header of their own: registering one recompiles only the
  // files that include it (the typed rows, serve).
  std::ostringstream u;
  u << "// Generated by serbench-typegen (runners/cpp/tools/typegen) from the user datasets'\n"
       "// types files at build time: do not edit.\n#pragma once\n\n#include "
       "\"harness/types.h\"\n\n"
       "namespace sb {\nnamespace user_model {\n"
    << user_decl.str() << "}  // namespace user_model\n\n"
    << user_symbols.str() << "\n";
  u << "inline constexpr UserModel kUserModels[] = {\n";
  for (const auto& m : users)
    u << "    {" << quote(m.name) << ", 0x" << std::hex << m.hash << std::dec << "ull, "
      << (m.unsupported.empty() ? "nullptr" : quote(m.unsupported)) << "},\n";
  u << "    {nullptr, 0, nullptr}};\n"
       "// Calls f(TypeTag<T>{}) for the message type of kUserModels[i] (Null when it has none).\n"
       "template <class F>\ndecltype(auto) dispatch_user_model(size_t i, F&& f) {\n"
       "  switch (i) {\n";
  for (size_t i = 0; i < users.size(); ++i)
    if (users[i].unsupported.empty())
      u << "    case " << i << ":\n      return f(TypeTag<" << users[i].type << ">{});\n";
  u << "    default:\n      return f(TypeTag<Null>{});\n  }\n}\n\n}  // namespace sb\n";

  const std::string dir = argv[1];
  return write_if_changed(dir + "/model.h", o.str()) &&
                 write_if_changed(dir + "/user_model.h", u.str())
             ? 0
             : 1;
}
