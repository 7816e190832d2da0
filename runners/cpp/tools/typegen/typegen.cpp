// serbench-typegen: writes the C++ typed model of every dataset from its types.json
// (datasets/README.md, "Types"). CMake builds it first and runs it at build time:
//
//   serbench-typegen OUTDIR builtin=FAMILY=PATH... user=NAME=PATH...
//                   userpb=|userthrift=|userfbs=|usercapnp=TYPES=INCLUDE=PACKAGE...
//
// writes OUTDIR/model.h (the built-in datasets), OUTDIR/user_model.h (the user datasets),
// OUTDIR/glue_{protobuf,flatbuffers,capnproto,thrift}.h: the schema glue of every built-in
// dataset (its schemas compiled by CMake as .serbench/gen/schemas/FAMILY/FAMILY_SNAKE.*), and
// OUTDIR/user_glue_{protobuf,thrift,flatbuffers,capnproto}.h: the glue of the user datasets whose
// schema CMake compiled (the user*= arguments). One set of glue writers serves both.
//
// Built-in families go into namespace sb (their names must not clash) with the DatasetId
// table the harness dispatches on; each user dataset gets namespace sb::user_model::NAME
// and an entry of kUserModels, keyed by the FNV-1a hash of its types file so that the
// runner can tell a model built from other types. A type this model cannot hold (`any`,
// `bigint`, a recursive record) leaves the user dataset without a model, with the reason.
#include <algorithm>
#include <cstdint>
#include <cstring>
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

// One record's `to` (typed model `n` -> library class `m::r`) and `from`, given their bodies:
// the shape every protobuf and Thrift glue writer emits.
void write_to_from(std::ostream& o, const std::string& n, const std::string& r,
                   const std::string& to, const std::string& from) {
  o << "inline void to(const " << n << "& v, m::" << r << "& p) {\n"
    << to << "}\ninline void from(const m::" << r << "& p, " << n << "& v) {\n"
    << from << "}\n";
}

// A types.json "types" object, as every glue writer reads it.
struct TypesTable {
  const ordered_json& types;

  static std::string strip(std::string t) {
    t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
    return t;
  }
  bool is_record(const std::string& t) const {
    return types.contains(t) && types.at(t).contains("record");
  }
  bool is_enum(const std::string& t) const {
    return types.contains(t) && types.at(t).contains("enum");
  }
};

bool plain(const std::string& s) {  // a name every schema writer keeps as it is
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return !kKeywords.count(s);
}
std::string upper_first(std::string s) {
  s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// ---- schema glue of a dataset, built-in or user: the conversions between its typed model
// (sb or sb::user_model::NAME) and the classes a pinned compiler generates from the schema the
// orchestrator wrote (src/serbench/userdata/schemas/). What the writers share: the walk from
// the message through every record it reaches (names every schema writer keeps as they are,
// no nested list, map or optional), and the namespace of `to`/`from` functions per record.
// Anything else leaves the dataset without glue: its typed row says why.
struct UserGlue : TypesTable {
  std::string ns, gen;  // "::sb" or "::sb::user_model::NAME", the generated classes' namespace
  std::set<std::string> seen;
  std::vector<std::string> recs;

  UserGlue(const ordered_json& t, std::string model_ns, std::string gen_ns)
      : TypesTable{t}, ns(std::move(model_ns)), gen(std::move(gen_ns)) {}
  virtual ~UserGlue() = default;

  static bool is_scalar(const std::string& t) {
    static const std::set<std::string> s = {"int32", "uint32",      "int64",   "uint64",
                                            "bool",  "float32",     "float64", "string",
                                            "bytes", "timestamp_ms"};
    return s.count(t) > 0;
  }
  void visit(const std::string& name) {
    if (!seen.insert(name).second) return;
    if (!plain(name)) throw Unsupported("type name `" + name + "`");
    if (is_enum(name)) return;
    std::set<std::string> lowered;
    for (const auto& f : types.at(name).at("record")) {
      const std::string key = field_name(f.at(0).get<std::string>());
      std::string low = lower(key);
      if (!escapes_keywords() && cpp_keyword(low)) throw Unsupported("field name `" + key + "`");
      if (!lowered.insert(low).second)
        throw Unsupported("field names that differ in case only (`" + key + "`)");
      std::string t = strip(f.at(1).get<std::string>());
      if (optional_lists() && t.rfind("optional<list<", 0) == 0) t = inner(t, 9);
      for (const char* w : {"list<", "optional<", "map<string,"})
        if (t.rfind(w, 0) == 0) {
          t = t.substr(std::strlen(w), t.size() - std::strlen(w) - 1);
          break;
        }
      if (t.rfind("list<", 0) == 0 || t.rfind("map<", 0) == 0 || t.rfind("optional<", 0) == 0)
        throw Unsupported("a nested list, map or optional");
      if (is_scalar(t) || t == "null") continue;
      if (!types.contains(t)) throw Unsupported("type `" + t + "`");
      visit(t);
    }
    recs.push_back(name);  // after the records it holds
  }
  static std::string inner(const std::string& t, size_t k) { return t.substr(k, t.size() - k - 1); }
  // A field's name in the schemas (protocol section 7): characters other than [A-Za-z0-9_]
  // as `_`, a leading digit (or nothing) prefixed `_`; the generated accessors keep it.
  static std::string field_name(const std::string& key) {
    std::string out;
    for (char c : key) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
    return out;
  }
  // schema.field_types of the writer's schema language: {"Record.field": wire type}, a field
  // the schema declares with another type than the types' (android-users' isMegane: int32)
  ordered_json wire_types = ordered_json::object();
  virtual const char* language() const = 0;  // the writer's key in schema.field_types
  std::string wire_type(const std::string& r, const std::string& raw) const {
    auto it = wire_types.find(r + "." + raw);
    return it == wire_types.end() ? "" : it->get<std::string>();
  }
  // Whether the writer maps optional<list<T>> (a field that may be absent).
  virtual bool optional_lists() const { return false; }
  // protoc and flatc append `_` to a name that is a C++ keyword; thrift does not.
  virtual bool escapes_keywords() const { return true; }
  static bool cpp_keyword(const std::string& s) { return s != "fields" && kKeywords.count(s); }
  static std::string escaped(const std::string& s) { return cpp_keyword(s) ? s + "_" : s; }
  // The native expression of a field: the wrapper's only field is the model value itself
  // (`using Root = T`), every other record's a member.
  std::string wrapper;
  std::string member(const std::string& r, const std::string& key) const {
    return r == wrapper ? "v" : "v." + ident(key);
  }
  // A message that is not a record is carried by the wrapper record the schema writers add
  // (`Root` with field `value`, or types.json's `schema.root`), added here to `all` (a copy
  // of the types this writer reads); a user dataset's message must name a record or enum of
  // its own, or its trait would be shared with another dataset's (std::vector<int64_t>); a
  // built-in's is one of namespace sb (S3's std::map<std::string, std::string>).
  static std::string wrap(ordered_json& all, const std::string& message, const ordered_json& schema,
                          bool own_type) {
    std::string t = strip(message);
    for (bool more = true; more;) {
      more = false;
      for (const char* w : {"list<", "optional<", "map<string,"})
        if (t.rfind(w, 0) == 0) {
          t = t.substr(std::strlen(w), t.size() - std::strlen(w) - 1);
          more = true;
        }
    }
    if (own_type && !all.contains(t))
      throw Unsupported("message `" + message + "` names no type of its own");
    std::string root = "Root", field = "value";
    if (schema.contains("root")) {
      root = schema.at("root").at(0).get<std::string>();
      field = schema.at("root").at(1).get<std::string>();
    }
    if (all.contains(root)) throw Unsupported("wrapper `" + root + "` is a type of the dataset");
    all[root] = {{"record", ordered_json::array({ordered_json::array({field, message})})}};
    return root;
  }

  // One record's `to` and `from` (the writer's own mapping), declared ahead of them all.
  virtual void record(const std::string& r, std::ostream& o) = 0;
  virtual void declare(const std::string& r, const std::string& n, std::ostream& o) const {
    o << "inline void to(const " << n << "& v, m::" << r << "& p);\ninline void from(const m::" << r
      << "& p, " << n << "& v);\n";
  }
  virtual std::string prelude() const { return ""; }

  // The trait `trait<model type>` naming message's generated class, its `to` (body `to_body`)
  // and `from` calling the glue in namespace `gns`.
  void write_trait(std::ostream& tail, const char* trait, const std::string& message,
                   const std::string& to_body, const std::string& gns) const {
    const std::string n = ns + "::" + ident(message);
    tail << "template <>\nstruct " << trait << "<" << n << "> {\n  static constexpr bool "
         << "generated = true;\n  using type = " << gen << "::" << message
         << ";\n  static void to(const " << n << "& v, type& p) " << to_body
         << "\n  static void from(const type& p, " << n << "& v) { " << gns
         << "::from(p, v); }\n};\n";
  }
  // The glue of message `message` in namespace `gns` (the trait is the writer's).
  void write_body(const std::string& message, const std::string& gns, std::ostream& body) {
    if (!is_record(message)) throw Unsupported("message `" + message + "` is not a record");
    if (!wire_types.empty() && std::string(language()) != "protobuf")
      throw Unsupported(std::string("schema.field_types.") + language());
    visit(message);
    std::ostringstream o;
    o << "namespace " << gns << " {\nnamespace m = " << gen << ";\n" << prelude();
    for (const auto& r : recs) declare(r, ns + "::" + ident(r), o);
    for (const auto& r : recs) record(r, o);
    o << "}  // namespace " << gns << "\n";
    body << o.str();
  }
};

// The protobuf glue (src/serbench/userdata/schemas/proto.py): scalars, bytes, timestamp_ms
// (int64), enums (symbols numbered by position), nested records, proto3 `optional` (has_),
// repeated and map<string, _> fields, null (an `optional bool` never set, `repeated bool` in
// a list).
struct UserPbGlue final : UserGlue {
  using UserGlue::UserGlue;
  const char* language() const override { return "protobuf"; }

  // the C++ type of a numeric .proto type a field_types entry may declare
  static std::string wire_cpp(const std::string& w) {
    static const std::map<std::string, std::string> c = {
        {"int32", "int32_t"},    {"sint32", "int32_t"},   {"sfixed32", "int32_t"},
        {"uint32", "uint32_t"},  {"fixed32", "uint32_t"}, {"int64", "int64_t"},
        {"sint64", "int64_t"},   {"sfixed64", "int64_t"}, {"uint64", "uint64_t"},
        {"fixed64", "uint64_t"}, {"bool", "bool"},        {"float", "float"},
        {"double", "double"}};
    auto it = c.find(w);
    return it == c.end() ? "" : it->second;
  }

  // native element -> wire value, and back
  std::string out(const std::string& t, const std::string& x) const {
    if (is_enum(t)) return "static_cast<m::" + t + ">(" + x + ")";
    if (t == "timestamp_ms") return x + ".time_since_epoch().count()";
    if (t == "bytes")
      return "std::string(reinterpret_cast<const char*>(" + x + ".data()), " + x + ".size())";
    return x;
  }
  std::string in(const std::string& t, const std::string& x) const {
    if (is_enum(t)) return "static_cast<" + ns + "::" + ident(t) + ">(" + x + ")";
    if (t == "timestamp_ms") return "::sb::Timestamp(std::chrono::milliseconds(" + x + "))";
    if (t == "bytes") return "::sb::Blob(" + x + ".begin(), " + x + ".end())";
    return x;
  }
  void record(const std::string& r, std::ostream& o) override {
    const std::string n = ns + "::" + ident(r);
    std::ostringstream to, from;
    for (const auto& f : types.at(r).at("record")) {
      const std::string raw = f.at(0).get<std::string>(), key = field_name(raw),
                        mem = member(r, raw), pl = escaped(lower(key));
      std::string t = strip(f.at(1).get<std::string>());
      auto inner = [&](size_t k) { return UserGlue::inner(t, k); };
      if (t.rfind("list<", 0) == 0) {
        t = inner(5);
        to << "  p.mutable_" << pl << "()->Reserve(static_cast<int>(" << mem << ".size()));\n";
        from << "  " << mem << ".resize(static_cast<size_t>(p." << pl << "_size()));\n";
        if (t == "null") {  // a list only ever seen empty (protobuf-dynamic says the same)
          to << "  if (!" << mem << ".empty())\n    throw ::sb::NotApplicable(\"protobuf: nulls in "
             << "a list (a repeated bool field) at " << r << "." << key << "\");\n";
        } else if (is_record(t)) {
          to << "  for (const auto& x : " << mem << ") to(x, *p.add_" << pl << "());\n";
          from << "  for (size_t i = 0; i < " << mem << ".size(); ++i) from(p." << pl
               << "(static_cast<int>(i)), " << mem << "[i]);\n";
        } else {
          to << "  for (const auto& x : " << mem << ") p.add_" << pl << "(" << out(t, "x")
             << ");\n";
          from << "  for (size_t i = 0; i < " << mem << ".size(); ++i) " << mem
               << "[i] = " << in(t, "p." + pl + "(static_cast<int>(i))") << ";\n";
        }
      } else if (t.rfind("map<string,", 0) == 0) {
        t = inner(11);
        if (t == "null") throw Unsupported("a map of nulls");
        to << "  {\n    auto& m_ = *p.mutable_" << pl
           << "();\n    for (const auto& [k, x] : " << mem << ") ";
        from << "  " << mem << ".clear();\n  for (const auto& [k, x] : p." << pl << "()) ";
        if (is_record(t)) {
          to << "to(x, m_[k]);\n  }\n";
          from << "from(x, " << mem << "[k]);\n";
        } else {
          to << "m_[k] = " << out(t, "x") << ";\n  }\n";
          from << mem << ".emplace(k, " << in(t, "x") << ");\n";
        }
      } else if (t.rfind("optional<", 0) == 0) {
        t = inner(9);
        if (t == "null") {  // an `optional bool` never set: always null
          from << "  " << mem << ".reset();\n";
          continue;
        }
        if (is_record(t)) {
          to << "  if (" << mem << ") to(*" << mem << ", *p.mutable_" << pl << "());\n";
          from << "  if (p.has_" << pl << "())\n    from(p." << pl << "(), " << mem
               << ".emplace());\n  else\n    " << mem << ".reset();\n";
        } else {
          to << "  if (" << mem << ") p.set_" << pl << "(" << out(t, "(*" + mem + ")") << ");\n";
          from << "  if (p.has_" << pl << "())\n    " << mem << " = " << in(t, "p." + pl + "()")
               << ";\n  else\n    " << mem << ".reset();\n";
        }
      } else if (t == "null") {
        // an `optional bool` never set
      } else if (is_record(t)) {
        to << "  to(" << mem << ", *p.mutable_" << pl << "());\n";
        from << "  from(p." << pl << "(), " << mem << ");\n";
      } else if (const std::string w = wire_type(r, raw); !w.empty()) {
        const std::string wc = wire_cpp(w), get = "p." + pl + "()";
        if (wc.empty() || !is_scalar(t) || t == "string" || t == "bytes")
          throw Unsupported("schema.field_types.protobuf " + r + "." + raw + ": " + w + " for " +
                            t);
        to << "  p.set_" << pl << "(static_cast<" << wc << ">(" << out(t, mem) << "));\n";
        from << "  " << mem << " = "
             << (t == "bool" ? get + " != 0" : "static_cast<decltype(" + mem + ")>(" + get + ")")
             << ";\n";
      } else {
        to << "  p.set_" << pl << "(" << out(t, mem) << ");\n";
        from << "  " << mem << " = " << in(t, "p." + pl + "()") << ";\n";
      }
    }
    write_to_from(o, n, r, to.str(), from.str());
  }
  // The glue of message `message` in namespace `gns`, and its trait.
  void write(const std::string& message, const std::string& gns, std::ostream& body,
             std::ostream& tail) {
    write_body(message, gns, body);
    write_trait(tail, "Protobuf", message, "{\n    p.Clear();\n    " + gns + "::to(v, p);\n  }",
                gns);
  }
};

// The Thrift glue (src/serbench/userdata/schemas/thrift.py, `thrift --gen cpp`): members
// named as the fields, `required` except optional<T> (`__isset`), uint32 and timestamp_ms as
// i64, float32 as double, bytes as binary (std::string), enums as `E::type`, lists, maps,
// nested records; a null field is an `optional bool` never set. The schema writer refuses
// uint64, lists of nulls and optionals in lists, so they never reach here.
struct UserThriftGlue final : UserGlue {
  using UserGlue::UserGlue;
  const char* language() const override { return "thrift"; }
  bool escapes_keywords() const override { return false; }
  bool optional_lists() const override { return true; }

  // native element -> wire value, and back
  std::string out(const std::string& t, const std::string& x) const {
    if (is_enum(t)) return "static_cast<m::" + t + "::type>(" + x + ")";
    if (t == "timestamp_ms") return x + ".time_since_epoch().count()";
    if (t == "bytes")
      return "std::string(reinterpret_cast<const char*>(" + x + ".data()), " + x + ".size())";
    if (t == "float32") return "static_cast<double>(" + x + ")";
    return x;
  }
  std::string in(const std::string& t, const std::string& x) const {
    if (is_enum(t)) return "static_cast<" + ns + "::" + ident(t) + ">(" + x + ")";
    if (t == "timestamp_ms") return "::sb::Timestamp(std::chrono::milliseconds(" + x + "))";
    if (t == "bytes") return "::sb::Blob(" + x + ".begin(), " + x + ".end())";
    if (t == "float32") return "static_cast<float>(" + x + ")";
    if (t == "uint32") return "static_cast<uint32_t>(" + x + ")";
    return x;
  }
  // one value of type t: native `v` <-> generated `p`
  std::string to_one(const std::string& t, const std::string& v, const std::string& p) const {
    if (is_record(t)) return "to(" + v + ", " + p + ");";
    return p + " = " + out(t, v) + ";";
  }
  std::string from_one(const std::string& t, const std::string& p, const std::string& v) const {
    if (is_record(t)) return "from(" + p + ", " + v + ");";
    return v + " = " + in(t, p) + ";";
  }
  void record(const std::string& r, std::ostream& o) override {
    const std::string n = ns + "::" + ident(r);
    std::ostringstream to, from;
    for (const auto& f : types.at(r).at("record")) {
      const std::string raw = f.at(0).get<std::string>(), key = field_name(raw),
                        mem = member(r, raw), pm = "p." + key;
      std::string t = strip(f.at(1).get<std::string>());
      if (t == "null") continue;  // an optional bool never set
      if (t.rfind("list<", 0) == 0) {
        t = inner(t, 5);
        if (t == "null") throw Unsupported("a list of nulls");
        to << "  " << pm << ".resize(" << mem << ".size());\n  for (size_t i = 0; i < " << mem
           << ".size(); ++i) " << to_one(t, mem + "[i]", pm + "[i]") << "\n";
        from << "  " << mem << ".resize(" << pm << ".size());\n  for (size_t i = 0; i < " << mem
             << ".size(); ++i) " << from_one(t, pm + "[i]", mem + "[i]") << "\n";
      } else if (t.rfind("map<string,", 0) == 0) {
        t = inner(t, 11);
        if (t == "null") throw Unsupported("a map of nulls");
        to << "  " << pm << ".clear();\n  for (const auto& [k, x] : " << mem << ") "
           << to_one(t, "x", pm + "[k]") << "\n";
        from << "  " << mem << ".clear();\n  for (const auto& [k, x] : " << pm << ") "
             << from_one(t, "x", mem + "[k]") << "\n";
      } else if (t.rfind("optional<", 0) == 0) {
        t = inner(t, 9);
        if (t == "null") {  // an optional bool never set: always null
          from << "  " << mem << ".reset();\n";
          continue;
        }
        if (t.rfind("list<", 0) == 0) {  // an optional list field (`__isset`)
          t = inner(t, 5);
          if (t == "null") throw Unsupported("a list of nulls");
          to << "  p.__isset." << key << " = " << mem << ".has_value();\n  if (" << mem
             << ") {\n    " << pm << ".resize(" << mem << "->size());\n    for (size_t i = 0; i < "
             << mem << "->size(); ++i) " << to_one(t, "(*" + mem + ")[i]", pm + "[i]") << "\n  }\n";
          from << "  if (p.__isset." << key << ") {\n    auto& x = " << mem
               << ".emplace();\n    x.resize(" << pm
               << ".size());\n    for (size_t i = 0; i < x.size(); ++i) "
               << from_one(t, pm + "[i]", "x[i]") << "\n  } else {\n    " << mem
               << ".reset();\n  }\n";
          continue;
        }
        to << "  p.__isset." << key << " = " << mem << ".has_value();\n  if (" << mem << ") "
           << to_one(t, "(*" + mem + ")", pm) << "\n";
        from << "  if (p.__isset." << key << ")\n    " << from_one(t, pm, mem + ".emplace()")
             << "\n  else\n    " << mem << ".reset();\n";
      } else {
        to << "  " << to_one(t, mem, pm) << "\n";
        from << "  " << from_one(t, pm, mem) << "\n";
      }
    }
    write_to_from(o, n, r, to.str(), from.str());
  }
  void write(const std::string& message, const std::string& gns, std::ostream& body,
             std::ostream& tail) {
    write_body(message, gns, body);
    write_trait(tail, "Thrift", message, "{ " + gns + "::to(v, p); }", gns);
  }
};

// The FlatBuffers glue (src/serbench/userdata/schemas/fbs.py, flatc): a table per record,
// its fields added through the table's Builder (absent optionals not added), strings,
// `[ubyte]` bytes, enums, nested tables, vectors, `= null` optional scalars
// (flatbuffers::Optional), and maps as vectors of entry tables, whose type the glue takes from
// the generated accessor (decltype) rather than from the writer's EntryN numbering. A null
// field is a `bool = null` never set; `list<null>` a `[bool]` of as many falses. A table's
// children are built before it, its maps' entries first and then the rest in field order (the
// order S4 click-maps was always written in: another order pads the map's values, whose int64
// is 8-aligned, differently and changes its size).
struct UserFbGlue final : UserGlue {
  using UserGlue::UserGlue;
  const char* language() const override { return "fbs"; }

  std::string prelude() const override { return "using FBB = flatbuffers::FlatBufferBuilder;\n"; }
  bool optional_lists() const override { return true; }
  void declare(const std::string& r, const std::string& n, std::ostream& o) const override {
    o << "inline flatbuffers::Offset<m::" << r << "> build(FBB& b, const " << n
      << "& v);\ninline void read(const m::" << r << "* p, " << n
      << "& v);\ninline uint64_t walk(const m::" << r << "* p);\n";
  }

  bool is_number(const std::string& t) const {  // written in place in the table
    return is_enum(t) || (is_scalar(t) && t != "string" && t != "bytes");
  }
  std::string out(const std::string& t, const std::string& x) const {
    if (is_enum(t)) return "static_cast<m::" + t + ">(" + x + ")";
    if (t == "timestamp_ms") return x + ".time_since_epoch().count()";
    return x;
  }
  std::string in(const std::string& t, const std::string& x) const {
    if (is_enum(t)) return "static_cast<" + ns + "::" + ident(t) + ">(" + x + ")";
    if (t == "timestamp_ms") return "::sb::Timestamp(std::chrono::milliseconds(" + x + "))";
    return x;
  }
  // Adds a number to a table. The builder leaves out a value equal to the field's default,
  // and -0.0 == 0.0: a negative zero is forced in, or it would read back as 0.
  static std::string add_number(const std::string& t, const std::string& tb, const std::string& key,
                                const std::string& x) {
    if (t != "float32" && t != "float64") return tb + ".add_" + key + "(" + x + ");";
    return "b.ForceDefaults(std::signbit(" + x + "));\n  " + tb + ".add_" + key + "(" + x +
           ");\n  b.ForceDefaults(false);";
  }
  // The offset of one non-number value (a string, bytes or a record).
  std::string offset(const std::string& t, const std::string& x) const {
    if (t == "string") return "b.CreateString(" + x + ")";
    if (t == "bytes") return "b.CreateVector(" + x + ")";
    return "build(b, " + x + ")";
  }
  // Reads one non-number value at pointer `q` into `x`.
  std::string read_one(const std::string& t, const std::string& q, const std::string& x,
                       const std::string& where) const {
    if (t == "string") return "::sb::glue::assign(" + x + ", " + q + ");";
    if (t == "bytes")
      return x + " = " + q + " ? ::sb::Blob(" + q + "->begin(), " + q + "->end()) : ::sb::Blob();";
    return "if (!" + q + ") throw ::sb::DecodeError(\"flatbuffers: missing " + where +
           "\");\n  read(" + q + ", " + x + ");";
  }
  // The element type of a list<t> vector (as `vector` builds it).
  std::string wire(const std::string& t) const {
    static const std::map<std::string, std::string> w = {
        {"null", "uint8_t"},         {"bool", "uint8_t"},
        {"timestamp_ms", "int64_t"}, {"int32", "int32_t"},
        {"uint32", "uint32_t"},      {"int64", "int64_t"},
        {"uint64", "uint64_t"},      {"float32", "float"},
        {"float64", "double"},       {"string", "flatbuffers::Offset<flatbuffers::String>"}};
    if (auto it = w.find(t); it != w.end()) return it->second;
    return "flatbuffers::Offset<m::" + t + ">";
  }
  // Reads vector `get` (when present) into the (empty) list `x`.
  std::string read_list(const std::string& t, const std::string& get, const std::string& x,
                        const std::string& where) const {
    std::string o =
        "  if (const auto* l = " + get + ") {\n    " + x +
        ".resize(l->size());\n    for (flatbuffers::uoffset_t i = 0; i < l->size(); ++i) ";
    if (t == "null") return o + "{\n    }\n  }\n";
    if (is_number(t)) return o + x + "[i] = " + in(t, "l->Get(i)") + ";\n  }\n";
    return o + "{\n      " + read_one(t, "l->Get(i)", x + "[i]", where) + "\n    }\n  }\n";
  }
  // Folds one value at pointer or value `q` into the lazy row's sum `s`, reading it in place.
  std::string walk_one(const std::string& t, const std::string& q) const {
    if (is_enum(t)) return "s += static_cast<uint64_t>(" + q + ");";
    if (is_record(t)) return "if (const auto* x_ = " + q + ") s += walk(x_);";
    return "s += ::sb::glue::touch(" + q + ");";  // numbers, strings, bytes
  }
  // Folds vector `get` (when present) into `s`.
  std::string walk_list(const std::string& t, const std::string& get) const {
    if (t == "null") return "  if (const auto* l = " + get + ") s += l->size();\n";
    return "  if (const auto* l = " + get + ")\n    for (auto x : *l) " + walk_one(t, "x") + "\n";
  }
  // The vector of a list<t> member (no vectors of vectors, of bytes or of enums here).
  std::string vector(const std::string& t, const std::string& mem) const {
    if (t == "null")
      return "b.CreateVector<uint8_t>(" + mem + ".size(), [](size_t) { return uint8_t{0}; })";
    if (t == "string") return "b.CreateVectorOfStrings(" + mem + ")";
    if (is_record(t))
      return "b.CreateVector<flatbuffers::Offset<m::" + t + ">>(" + mem +
             ".size(), [&](size_t i) { return build(b, " + mem + "[i]); })";
    if (t == "bool" || t == "timestamp_ms") {
      const std::string w = t == "bool" ? "uint8_t" : "int64_t";
      return "b.CreateVector<" + w + ">(" + mem + ".size(), [&](size_t i) { return static_cast<" +
             w + ">(" + out(t, mem + "[i]") + "); })";
    }
    return "b.CreateVector(" + mem + ")";
  }
  // The bytes a field of type t takes in its table: a number's width, else an offset's.
  size_t width(std::string t) const {
    if (t.rfind("optional<", 0) == 0) t = inner(t, 9);
    if (is_enum(t)) return types.at(t).at("enum").size() <= 128 ? 1 : 2;  // byte / short
    static const std::map<std::string, size_t> w = {
        {"bool", 1},  {"int32", 4},  {"uint32", 4},  {"float32", 4},
        {"int64", 8}, {"uint64", 8}, {"float64", 8}, {"timestamp_ms", 8}};
    auto it = w.find(t);
    return it == w.end() ? 4 : it->second;
  }
  // A table's fields added as flatc's Create<Table> adds them (widest first, the last
  // declared first among equals), so that the glue writes the bytes that function writes.
  static std::string in_create_order(std::vector<std::tuple<size_t, size_t, std::string>> adds) {
    std::sort(adds.begin(), adds.end(), [](const auto& x, const auto& y) {
      return std::get<0>(x) != std::get<0>(y) ? std::get<0>(x) > std::get<0>(y)
                                              : std::get<1>(x) > std::get<1>(y);
    });
    std::string out;
    for (const auto& x : adds) out += std::get<2>(x);
    return out;
  }
  void record(const std::string& r, std::ostream& o) override {
    const std::string n = ns + "::" + ident(r);
    std::ostringstream pre, maps, add, rd, wk;  // maps: the map fields' entries, built first
    std::vector<std::tuple<size_t, size_t, std::string>> adds;  // (width, position, add_ call)
    size_t i = 0, w = 0;
    auto flush = [&] {  // the previous field's add_ call
      if (!add.str().empty()) adds.emplace_back(w, i, add.str());
      add.str("");
    };
    for (const auto& f : types.at(r).at("record")) {
      flush();
      w = width(strip(f.at(1).get<std::string>()));
      const std::string raw = f.at(0).get<std::string>(), key = escaped(field_name(raw)),
                        mem = member(r, raw), get = "p->" + key + "()",
                        a = "o" + std::to_string(i++), where = r + "." + key;
      std::string t = strip(f.at(1).get<std::string>());
      if (t == "null") continue;  // a `bool = null` never set
      if (t.rfind("list<", 0) == 0) {
        t = inner(t, 5);
        if (t == "bytes" || is_enum(t)) throw Unsupported("a list of " + t);
        pre << "  auto " << a << " = " << vector(t, mem) << ";\n";
        add << "  t.add_" << key << "(" << a << ");\n";
        rd << "  " << mem << ".clear();\n" << read_list(t, get, mem, where);
        wk << walk_list(t, get);
      } else if (t.rfind("map<string,", 0) == 0) {
        t = inner(t, 11);
        if (t == "null" || t == "bytes") throw Unsupported("a map of " + t);
        const std::string e = "E" + a;
        maps << "  using " << e << " = std::remove_const_t<std::remove_pointer_t<typename "
             << "std::remove_pointer_t<decltype(std::declval<const m::" << r << "&>()." << key
             << "())>::return_type>>;\n  std::vector<flatbuffers::Offset<" << e << ">> " << a
             << "s;\n  " << a << "s.reserve(" << mem
             << ".size());\n  for (const auto& [k, x] : " << mem
             << ") {\n    auto k_ = b.CreateString(k);\n";
        if (!is_number(t)) maps << "    auto x_ = " << offset(t, "x") << ";\n";
        maps << "    typename " << e << "::Builder eb(b);\n    "
             << in_create_order({{4, 0, "eb.add_key(k_);\n    "},
                                 {width(t), 1,
                                  (is_number(t) ? add_number(t, "eb", "value", out(t, "x"))
                                                : "eb.add_value(x_);") +
                                      "\n    "}})
             << a << "s.push_back(eb.Finish());\n  }\n  auto " << a << " = b.CreateVector(" << a
             << "s);\n";
        add << "  t.add_" << key << "(" << a << ");\n";
        rd << "  " << mem << ".clear();\n  if (const auto* l = " << get
           << ")\n    for (const auto* e : *l) {\n      auto& x = " << mem
           << "[::sb::glue::str(e->key())];\n      ";
        if (is_number(t))
          rd << "x = " << in(t, "e->value()") << ";\n    }\n";
        else
          rd << read_one(t, "e->value()", "x", where) << "\n    }\n";
        wk << "  if (const auto* l = " << get << ")\n    for (const auto* e : *l) {\n      s += "
           << "::sb::glue::touch(e->key());\n      " << walk_one(t, "e->value()") << "\n    }\n";
      } else if (t.rfind("optional<", 0) == 0) {
        t = inner(t, 9);
        if (t == "null") {
          rd << "  " << mem << ".reset();\n";
          continue;
        }
        if (t.rfind("list<", 0) == 0) {  // a vector that may be absent
          t = inner(t, 5);
          if (t == "bytes" || is_enum(t)) throw Unsupported("a list of " + t);
          pre << "  flatbuffers::Offset<flatbuffers::Vector<" << wire(t) << ">> " << a
              << ";\n  if (" << mem << ") " << a << " = " << vector(t, "(*" + mem + ")") << ";\n";
          add << "  if (" << mem << ") t.add_" << key << "(" << a << ");\n";
          rd << "  if (" << get << ") {\n    auto& x = " << mem << ".emplace();\n"
             << read_list(t, get, "x", where) << "  } else {\n    " << mem << ".reset();\n  }\n";
          wk << walk_list(t, get);
          continue;
        }
        if (is_number(t)) {
          add << "  if (" << mem << ") t.add_" << key << "(" << out(t, "(*" + mem + ")") << ");\n";
          rd << "  {\n    auto x = " << get << ";\n    if (x.has_value())\n      " << mem << " = "
             << in(t, "*x") << ";\n    else\n      " << mem << ".reset();\n  }\n";
          wk << "  if (auto x = " << get << "; x.has_value()) " << walk_one(t, "*x") << "\n";
        } else {
          pre << "  decltype(" << offset(t, "*" + mem) << ") " << a << ";\n  if (" << mem << ") "
              << a << " = " << offset(t, "*" + mem) << ";\n";
          add << "  if (" << mem << ") t.add_" << key << "(" << a << ");\n";
          rd << "  if (" << get << ") {\n    " << read_one(t, get, mem + ".emplace()", where)
             << "\n  } else {\n    " << mem << ".reset();\n  }\n";
          wk << "  " << walk_one(t, get) << "\n";
        }
      } else if (is_number(t)) {
        add << "  " << add_number(t, "t", key, out(t, mem)) << "\n";
        rd << "  " << mem << " = " << in(t, get) << ";\n";
        wk << "  " << walk_one(t, get) << "\n";
      } else {
        pre << "  auto " << a << " = " << offset(t, mem) << ";\n";
        add << "  t.add_" << key << "(" << a << ");\n";
        rd << "  " << read_one(t, get, mem, where) << "\n";
        wk << "  " << walk_one(t, get) << "\n";
      }
    }
    flush();
    o << "inline flatbuffers::Offset<m::" << r << "> build(FBB& b, const " << n << "& v) {\n"
      << maps.str() << pre.str() << "  m::" << r << "::Builder t(b);\n"
      << in_create_order(std::move(adds))
      << "  return t.Finish();\n}\ninline void read(const m::" << r << "* p, " << n << "& v) {\n"
      << rd.str() << "}\ninline uint64_t walk(const m::" << r << "* p) {\n  uint64_t s = 0;\n"
      << wk.str() << "  return s;\n}\n";
  }
  void write(const std::string& message, const std::string& gns, std::ostream& body,
             std::ostream& tail) {
    write_body(message, gns, body);
    const std::string n = ns + "::" + ident(message);
    tail << "template <>\nstruct Flatbuffers<" << n << "> {\n  static constexpr bool generated = "
         << "true;\n  using type = " << gen << "::" << message
         << ";\n  static flatbuffers::Offset<type> build(flatbuffers::FlatBufferBuilder& b, const "
         << n << "& v) {\n    return " << gns << "::build(b, v);\n  }\n  static void read(const "
         << "type* p, " << n << "& v) { " << gns << "::read(p, v); }\n  static uint64_t walk(const "
         << "type* p) { return " << gns << "::walk(p); }\n};\n";
  }
};

// The Cap'n Proto glue (src/serbench/userdata/schemas/capnp.py, `capnp compile -oc++`): a
// struct per record (UpperCamel), fields in lowerCamel (a repeated name numbered) reached
// through get/set/init accessors, Text, Data, enums by position, nested structs, lists,
// maps as lists of key/value entry structs, optional<T> a union group `{null, value}`, null
// Void (list<null> a List(Void) keeping the count).
struct UserCapnpGlue final : UserGlue {
  using UserGlue::UserGlue;
  const char* language() const override { return "capnp"; }
  bool optional_lists() const override { return true; }

  // The writer's field names of record r, in order (names.py, capnp_names).
  std::vector<std::string> field_names(const std::string& r) const {
    std::set<std::string> used;
    std::vector<std::string> out;
    for (const auto& f : types.at(r).at("record")) {
      std::string name, word;
      bool first = true;
      auto flush = [&] {
        if (word.empty()) return;
        word[0] = static_cast<char>(first ? std::tolower(static_cast<unsigned char>(word[0]))
                                          : std::toupper(static_cast<unsigned char>(word[0])));
        name += word, word.clear(), first = false;
      };
      for (char c : f.at(0).get<std::string>()) {
        if (std::isalnum(static_cast<unsigned char>(c)))
          word += c;
        else
          flush();
      }
      flush();
      if (name.empty()) name = "field";
      if (!std::isalpha(static_cast<unsigned char>(name[0]))) name = "f" + name;
      const std::string base = name;
      for (int n = 2; !used.insert(name).second; ++n) name = base + std::to_string(n);
      out.push_back(upper_first(name));  // as the accessors spell it
    }
    return out;
  }
  std::string type(const std::string& t) const { return "m::" + upper_first(t); }
  void declare(const std::string& r, const std::string& n, std::ostream& o) const override {
    const std::string c = type(r);
    o << "inline void build(" << c << "::Builder p, const " << n << "& v);\ninline void read(" << c
      << "::Reader p, " << n << "& v);\ninline uint64_t walk(" << c << "::Reader p);\n";
  }
  std::string out(const std::string& t, const std::string& x) const {
    if (is_enum(t)) return "static_cast<" + type(t) + ">(" + x + ")";
    if (t == "timestamp_ms") return x + ".time_since_epoch().count()";
    return x;
  }
  std::string in(const std::string& t, const std::string& x) const {
    if (is_enum(t)) return "static_cast<" + ns + "::" + ident(t) + ">(" + x + ")";
    if (t == "timestamp_ms") return "::sb::Timestamp(std::chrono::milliseconds(" + x + "))";
    return x;
  }
  // One value of type t from `x` into a slot: `set` + value + ")" sets it, `init` is the
  // builder of a struct slot.
  std::string build_one(const std::string& t, const std::string& set, const std::string& init,
                        const std::string& x) const {
    if (t == "null") return "";
    if (is_record(t)) return "build(" + init + ", " + x + ");";
    if (t == "string") return set + "::sb::glue::capnp_text(" + x + "));";
    if (t == "bytes") return set + "::sb::glue::capnp_data(" + x + "));";
    return set + out(t, x) + ");";
  }
  std::string read_one(const std::string& t, const std::string& get, const std::string& x) const {
    if (t == "null") return "";
    if (is_record(t)) return "read(" + get + ", " + x + ");";
    if (t == "string") return "::sb::glue::assign(" + x + ", " + get + ");";
    if (t == "bytes") return x + " = ::sb::glue::capnp_blob(" + get + ");";
    return x + " = " + in(t, get) + ";";
  }
  std::string walk_one(const std::string& t, const std::string& get) const {
    if (t == "null") return "";
    if (is_record(t)) return "s += walk(" + get + ");";
    if (is_enum(t)) return "s += static_cast<uint64_t>(" + get + ");";
    return "s += ::sb::glue::touch(" + get + ");";  // numbers, Text, Data
  }
  // A list<t> from `x` into the list `init` makes (called with the count).
  std::string build_list(const std::string& t, const std::function<std::string(std::string)>& init,
                         const std::string& x) const {
    const std::string l = "auto l = " + init("static_cast<unsigned>(" + x + ".size())") + ";";
    if (t == "null") return "    " + init("static_cast<unsigned>(" + x + ".size())") + ";\n";
    return "    " + l + "\n    for (unsigned i = 0; i < l.size(); ++i) {\n      " +
           build_one(t, "l.set(i, ", "l[i]", x + "[i]") + "\n    }\n";
  }
  std::string read_list(const std::string& t, const std::string& get, const std::string& x) const {
    std::string o = "    auto l = " + get + ";\n    " + x + ".resize(l.size());\n";
    if (t == "null") return o;
    return o + "    for (unsigned i = 0; i < l.size(); ++i) {\n      " +
           read_one(t, "l[i]", x + "[i]") + "\n    }\n";
  }
  std::string walk_list(const std::string& t, const std::string& get) const {
    if (t == "null") return "    s += " + get + ".size();\n";
    return "    for (auto x : " + get + ") {\n      " + walk_one(t, "x") + "\n    }\n";
  }
  // The C++ type capnp gives a scalar field's getter, for the check against the types.
  std::string getter_type(const std::string& t) const {
    static const std::map<std::string, std::string> c = {{"int32", "int32_t"},
                                                         {"uint32", "uint32_t"},
                                                         {"int64", "int64_t"},
                                                         {"uint64", "uint64_t"},
                                                         {"bool", "bool"},
                                                         {"float32", "float"},
                                                         {"float64", "double"},
                                                         {"timestamp_ms", "int64_t"},
                                                         {"string", "::capnp::Text::Reader"},
                                                         {"bytes", "::capnp::Data::Reader"}};
    if (is_enum(t)) return type(t);
    auto it = c.find(t);
    return it == c.end() ? "" : it->second;
  }
  std::ostringstream checks;  // mismatch(): a scalar field whose getter has another type
  void record(const std::string& r, std::ostream& o) override {
    const std::string n = ns + "::" + ident(r), c = type(r);
    const std::vector<std::string> acc = field_names(r);
    std::ostringstream b, rd, wk;
    size_t i = 0;
    for (const auto& f : types.at(r).at("record")) {
      const std::string raw = f.at(0).get<std::string>(), mem = member(r, raw), a = acc[i++],
                        where = r + "." + field_name(raw);
      std::string t = strip(f.at(1).get<std::string>());
      if (t == "null") continue;  // Void: nothing to write or read
      const std::string get = "p.get" + a + "()";
      if (t.rfind("list<", 0) == 0) {
        t = inner(t, 5);
        b << "  {\n"
          << build_list(
                 t, [&](const std::string& k) { return "p.init" + a + "(" + k + ")"; }, mem)
          << "  }\n";
        rd << "  {\n" << read_list(t, get, mem) << "  }\n";
        wk << "  {\n" << walk_list(t, get) << "  }\n";
      } else if (t.rfind("map<string,", 0) == 0) {
        t = inner(t, 11);
        if (t == "null") throw Unsupported("a map of nulls");
        b << "  {\n    auto l = p.init" << a << "(static_cast<unsigned>(" << mem
          << ".size()));\n    unsigned i = 0;\n    for (const auto& [k, x] : " << mem
          << ") {\n      auto e = l[i++];\n      e.setKey(::sb::glue::capnp_text(k));\n      "
          << build_one(t, "e.setValue(", "e.initValue()", "x") << "\n    }\n  }\n";
        rd << "  " << mem << ".clear();\n  for (auto e : " << get << ") {\n    auto& x = " << mem
           << "[::sb::glue::str(e.getKey())];\n    " << read_one(t, "e.getValue()", "x")
           << "\n  }\n";
        wk << "  for (auto e : " << get << ") {\n    s += ::sb::glue::touch(e.getKey());\n    "
           << walk_one(t, "e.getValue()") << "\n  }\n";
      } else if (t.rfind("optional<", 0) == 0) {
        t = inner(t, 9);
        if (t == "null") {  // a union whose value is Void: null is all it holds
          rd << "  " << mem << ".reset();\n";
          continue;
        }
        rd << "  if (auto g = " << get << "; g.isValue()) {\n    auto& x = " << mem
           << ".emplace();\n";
        wk << "  if (auto g = " << get << "; g.isValue()) {\n";
        b << "  if (" << mem << ") {\n    auto g = p.init" << a << "();\n";
        if (t.rfind("list<", 0) == 0) {
          t = inner(t, 5);
          b << build_list(
              t, [](const std::string& k) { return "g.initValue(" + k + ")"; }, "(*" + mem + ")");
          rd << read_list(t, "g.getValue()", "x");
          wk << walk_list(t, "g.getValue()");
        } else {
          b << "    " << build_one(t, "g.setValue(", "g.initValue()", "*" + mem) << "\n";
          rd << "    " << read_one(t, "g.getValue()", "x") << "\n";
          wk << "    " << walk_one(t, "g.getValue()") << "\n";
        }
        b << "  }\n";
        rd << "  } else {\n    " << mem << ".reset();\n  }\n";
        wk << "  }\n";
      } else {
        b << "  " << build_one(t, "p.set" + a + "(", "p.init" + a + "()", mem) << "\n";
        rd << "  " << read_one(t, get, mem) << "\n";
        wk << "  " << walk_one(t, get) << "\n";
        if (const std::string want = getter_type(t); !want.empty())
          checks << "  if (!std::is_same_v<decltype(std::declval<" << c << "::Reader>().get" << a
                 << "()), " << want << ">)\n    return \"capnproto: the compiled .capnp does not "
                 << "match the types: " << where << " is not " << t << "\";\n";
      }
    }
    o << "inline void build(" << c << "::Builder p, const " << n << "& v) {\n"
      << b.str() << "}\ninline void read(" << c << "::Reader p, " << n << "& v) {\n"
      << rd.str() << "}\ninline uint64_t walk(" << c << "::Reader p) {\n  uint64_t s = 0;\n"
      << wk.str() << "  return s;\n}\n";
  }
  void write(const std::string& message, const std::string& gns, std::ostream& body,
             std::ostream& tail) {
    write_body(message, gns, body);
    // the check, folded at compile time, in the same namespace
    body << "namespace " << gns << " {\nnamespace m = " << gen
         << ";\nconstexpr const char* mismatch() {\n"
         << checks.str() << "  return nullptr;\n}\n}  // namespace " << gns << "\n";
    const std::string n = ns + "::" + ident(message), c = gen + "::" + upper_first(message);
    tail << "template <>\nstruct Capnproto<" << n << "> {\n  static constexpr bool generated = "
         << "true;\n  using type = " << c << ";\n  static void build(type::Builder p, const " << n
         << "& v) {\n    if constexpr (" << gns << "::mismatch() != nullptr)\n      throw "
         << "::sb::NotApplicable(" << gns << "::mismatch());\n    " << gns
         << "::build(p, v);\n  }\n  static void read(type::Reader p, " << n << "& v) { " << gns
         << "::read(p, v); }\n  static uint64_t walk(type::Reader p) { return " << gns
         << "::walk(p); }\n};\n";
  }
};

// A `userpb=` / `userthrift=` / `userfbs=` argument (TYPES=INCLUDE=PACKAGE) into `into`; false when
// malformed (an argument with another prefix is left alone).
bool user_schema_arg(const std::string& arg, const std::string& prefix,
                     std::map<std::string, std::pair<std::string, std::string>>& into) {
  if (arg.rfind(prefix, 0) != 0) return true;
  const size_t p = prefix.size();
  size_t b = arg.rfind('='), a = b == p - 1 ? std::string::npos : arg.rfind('=', b - 1);
  if (a == std::string::npos || a <= p) return false;
  into[arg.substr(p, a - p)] = {arg.substr(a + 1, b - a - 1), arg.substr(b + 1)};
  return true;
}

// One library's glue header, of the built-in datasets or of the user datasets: the datasets
// whose schema was compiled, their glue and a note per dataset on why it has none.
struct GlueHeader {
  std::map<std::string, std::pair<std::string, std::string>> compiled;  // types -> include, package
  std::map<std::string, std::string> refused;  // types -> why the compiler refused the schema
  std::string trait;                           // the trait the glue specialises
  bool builtin = false;                        // the built-ins' header (model in namespace sb)
  std::ostringstream body, tail, notes;
  std::set<std::string> inc;
  std::vector<std::string> messages;

  // The glue of one dataset's message (its model in `fam`), when its schema was compiled.
  template <class Writer>
  void add(const std::string& types_path, const std::string& name, const Family& fam,
           const std::string& message, const ordered_json& schema, const User& u,
           const std::string& prefix) {
    if (auto no = refused.find(types_path); no != refused.end()) {
      const std::string why = "its schema did not compile: " + no->second;
      notes << "// " << name << ": no glue (" << why << ")\n";
      tail << "template <>\nstruct " << trait << "<" << u.type
           << "> {\n  static constexpr bool generated = false;\n  static constexpr const char* why "
              "= "
           << quote(why) << ";\n};\n";
      return;
    }
    auto it = compiled.find(types_path);
    if (it == compiled.end()) return;
    std::string gen = "::" + it->second.second;  // package a.b -> namespace ::a::b
    for (size_t k = 0; (k = gen.find('.', k)) != std::string::npos;) gen.replace(k, 1, "::");
    ordered_json types = fam.types;  // and the wrapper record, when the message needs one
    Writer g(types, fam.ns, gen);
    const ordered_json field_types = schema.value("field_types", ordered_json::object());
    g.wire_types = field_types.value(g.language(), ordered_json::object());
    std::ostringstream b, t;
    try {
      std::string root = message;
      if (!g.is_record(message))
        root = g.wrapper = UserGlue::wrap(types, message, schema, !builtin);
      g.write(root, prefix + u.ns, b, t);
      body << b.str();
      tail << t.str();
      inc.insert(it->second.first);
      messages.push_back(u.type);
      notes << "// " << name << ": generated\n";
    } catch (const Unsupported& e) {
      notes << "// " << name << ": no glue (" << e.what() << ")\n";
    }
  }
  // The built-ins' header: the trait's primary template (no glue), `helpers` the glue of
  // every dataset calls, and the tuple of the glued message types.
  std::string builtin_text(const std::string& lib, const std::string& helpers) const {
    std::ostringstream o;
    o << "// Generated by serbench-typegen (runners/cpp/tools/typegen) from the datasets'\n"
         "// types.json and the schemas serbench wrote: do not edit. The "
      << lib << " glue of the\n// built-in datasets' typed models.\n"
      << notes.str()
      << "#pragma once\n\n#include <chrono>\n#include <cmath>\n#include <cstdint>\n#include "
         "<cstring>\n#include <string>\n#include <tuple>\n#include <type_traits>\n\n";
    for (const auto& h : inc) o << "#include \"" << h << "\"\n";
    o << "\nnamespace sb {\nnamespace glue {\ntemplate <class T>\nstruct " << trait
      << " {\n  static constexpr bool generated = false;\n};\n"
      << helpers << body.str() << tail.str()
      << "// the glued message types (one reusable message each)\nusing " << trait
      << "Types = std::tuple<";
    for (size_t i = 0; i < messages.size(); ++i) o << (i ? ", " : "") << messages[i];
    o << ">;\n}  // namespace glue\n}  // namespace sb\n";
    return o.str();
  }
  // In a header of its own (only the library's file includes it): registering a dataset
  // recompiles that file and the dataset's generated code.
  std::string text(const std::string& lib, const std::string& trait,
                   const std::string& builtin_header) const {
    std::ostringstream o;
    o << "// Generated by serbench-typegen (runners/cpp/tools/typegen) from the user datasets'\n"
         "// types files and the schemas the orchestrator wrote: do not edit. The "
      << lib << " glue of\n// the user datasets' typed models.\n"
      << notes.str()
      << "#pragma once\n\n#include <chrono>\n#include <cstdint>\n#include <string>\n#include "
         "<tuple>\n#include <cmath>\n\n#include \""
      << builtin_header << "\"\n#include \"user_model.h\"\n";
    for (const auto& h : inc) o << "#include \"" << h << "\"\n";
    o << "\nnamespace sb {\nnamespace glue {\n"
      << body.str() << tail.str()
      << "// the glued user message types (one reusable message each)\nusing User" << trait
      << "Types = std::tuple<";
    for (size_t i = 0; i < messages.size(); ++i) o << (i ? ", " : "") << messages[i];
    o << ">;\n}  // namespace glue\n}  // namespace sb\n";
    return o.str();
  }
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
  // the built-ins' schemas, compiled by CMake from .serbench/gen/schemas/FAMILY/SNAKE.*
  GlueHeader pb, th, fb, cp;
  pb.builtin = th.builtin = fb.builtin = cp.builtin = true;
  pb.trait = "Protobuf", th.trait = "Thrift", fb.trait = "Flatbuffers", cp.trait = "Capnproto";
  // userpb= / userthrift= / userfbs=TYPES=INCLUDE=PACKAGE: the .proto / .thrift / .fbs of the
  // user dataset whose types file is TYPES (the path of its user= argument), compiled into
  // INCLUDE (its .pb.h / _types.h / _generated.h), declares PACKAGE
  GlueHeader userpb, userth, userfb, usercp;
  usercp.trait = "Capnproto";
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    // usercapnperror=TYPES=MESSAGE: CMake found the dataset's .capnp refused by capnp
    if (arg.rfind("usercapnperror=", 0) == 0) {
      const size_t a = arg.find('=', 15);
      if (a == std::string::npos) {
        std::cerr << "serbench-typegen: bad argument " << arg << "\n";
        return 2;
      }
      usercp.refused[arg.substr(15, a - 15)] = arg.substr(a + 1);
      continue;
    }
    if (!user_schema_arg(arg, "userpb=", userpb.compiled) ||
        !user_schema_arg(arg, "userthrift=", userth.compiled) ||
        !user_schema_arg(arg, "userfbs=", userfb.compiled) ||
        !user_schema_arg(arg, "usercapnp=", usercp.compiled)) {
      std::cerr << "serbench-typegen: bad argument " << arg << "\n";
      return 2;
    }
  }
  try {
    for (int i = 2; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg.rfind("userpb=", 0) == 0 || arg.rfind("userthrift=", 0) == 0 ||
          arg.rfind("userfbs=", 0) == 0 || arg.rfind("usercapnp=", 0) == 0 ||
          arg.rfind("usercapnperror=", 0) == 0)
        continue;
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
        const size_t first = builtins.size();
        if (m.is_string()) {
          builtins.push_back({name, camel(name), fam.message(m.get<std::string>(), schema)});
        } else {
          for (const auto& [ds, t] : m.items())
            builtins.push_back({ds, camel(ds), fam.message(t.get<std::string>(), schema)});
        }
        for (const auto& [t, d] : fam.types.items()) fam.write_named(t);  // unused ones too
        builtin_decl << "// " << name << " (" << path << ")\n" << fam.ahead() << fam.decl.str();
        builtin_symbols << fam.symbols.str();
        // the glue of every message, through the writers of the user datasets' glue
        std::string snake = name;
        std::replace(snake.begin(), snake.end(), '-', '_');
        pb.compiled[path] = {snake + ".pb.h", "serbench." + snake};
        th.compiled[path] = {snake + "_types.h", "serbench_thrift"};
        fb.compiled[path] = {snake + "_generated.h", "serbench.fbs." + snake};
        cp.compiled[path] = {snake + ".capnp.h", "serbench.capnp_gen." + snake};
        for (size_t k = first; k < builtins.size(); ++k) {
          const std::string message =
              m.is_string() ? m.get<std::string>() : m.at(builtins[k].dataset).get<std::string>();
          // one namespace per message (S2's fourth message holds the other three)
          User u{builtins[k].dataset, snake, builtins[k].type, "", 0};
          if (!m.is_string()) u.ns += "_" + ident(message);
          pb.add<UserPbGlue>(path, builtins[k].dataset, fam, message, schema, u, "protobuf_");
          th.add<UserThriftGlue>(path, builtins[k].dataset, fam, message, schema, u, "thrift_");
          fb.add<UserFbGlue>(path, builtins[k].dataset, fam, message, schema, u, "flatbuffers_");
          cp.add<UserCapnpGlue>(path, builtins[k].dataset, fam, message, schema, u, "capnproto_");
        }
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
        if (u.unsupported.empty()) {
          const std::string message = j.at("message").get<std::string>();
          userpb.add<UserPbGlue>(path, name, fam, message, schema, u, "protobuf_user_");
          userth.add<UserThriftGlue>(path, name, fam, message, schema, u, "thrift_user_");
          userfb.add<UserFbGlue>(path, name, fam, message, schema, u, "flatbuffers_user_");
          usercp.add<UserCapnpGlue>(path, name, fam, message, schema, u, "capnproto_user_");
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
  const std::string num =
      "#ifndef SB_GLUE_TOUCH_NUMBERS  // shared by the flatbuffers and capnproto glue\n"
      "#define SB_GLUE_TOUCH_NUMBERS\n"
      "// a number read in place, folded into the lazy rows' sink\n"
      "template <class X>\nstd::enable_if_t<std::is_integral_v<X>, uint64_t> touch(X x) {\n"
      "  return static_cast<uint64_t>(x);\n}\n"
      "inline uint64_t touch(float x) {\n  uint32_t u;\n  std::memcpy(&u, &x, sizeof u);\n"
      "  return u;\n}\n"
      "inline uint64_t touch(double x) {\n  uint64_t u;\n  std::memcpy(&u, &x, sizeof u);\n"
      "  return u;\n}\n#endif\n";
  const std::string fb_pre =
      num +
      "inline std::string str(const flatbuffers::String* s) {\n"
      "  return s ? s->str() : std::string();\n}\n"
      "// into the string's own buffer (a decode reuses the capacity of the last one)\n"
      "inline void assign(std::string& x, const flatbuffers::String* s) {\n"
      "  if (s)\n    x.assign(s->c_str(), s->size());\n  else\n    x.clear();\n}\n"
      "inline uint64_t touch(const flatbuffers::String* s) {\n"
      "  return s ? s->size() + (s->size() ? static_cast<uint8_t>(s->c_str()[0]) : 0) : 0;\n}\n";
  const std::string cp_pre =
      num +
      "inline std::string str(capnp::Text::Reader t) { return std::string(t.cStr(), t.size()); "
      "}\n"
      "inline void assign(std::string& x, capnp::Text::Reader t) { x.assign(t.cStr(), t.size()); "
      "}\n"
      "inline uint64_t touch(capnp::Text::Reader t) {\n"
      "  return t.size() + (t.size() ? static_cast<uint8_t>(t.cStr()[0]) : 0);\n}\n";
  // bytes, and Text (a string with NUL, which Text cannot hold, never gets here: the rows
  // refuse the dataset at prepare, capnproto.cpp `reject`)
  const std::string fb_bytes =
      "inline uint64_t touch(const flatbuffers::Vector<uint8_t>* v) {\n"
      "  return v && v->size() ? v->size() + v->Get(0) : 0;\n}\n";
  const std::string cp_bytes =
      "inline capnp::Text::Reader capnp_text(const std::string& s) {\n"
      "  return capnp::Text::Reader(s.data(), s.size());\n}\n"
      "inline capnp::Data::Reader capnp_data(const ::sb::Blob& b) {\n"
      "  return capnp::Data::Reader(b.data(), b.size());\n}\n"
      "inline ::sb::Blob capnp_blob(capnp::Data::Reader d) { return ::sb::Blob(d.begin(), "
      "d.end()); }\n"
      "inline uint64_t touch(capnp::Data::Reader d) { return d.size() ? d.size() + d[0] : 0; }\n";
  return write_if_changed(dir + "/user_glue_protobuf.h",
                          userpb.text("protobuf", "Protobuf", "glue_protobuf.h")) &&
                 write_if_changed(dir + "/user_glue_thrift.h",
                                  userth.text("thrift", "Thrift", "glue_thrift.h")) &&
                 write_if_changed(
                     dir + "/user_glue_flatbuffers.h",
                     userfb.text("flatbuffers", "Flatbuffers", "glue_flatbuffers.h")) &&
                 write_if_changed(dir + "/user_glue_capnproto.h",
                                  usercp.text("capnproto", "Capnproto", "glue_capnproto.h")) &&
                 write_if_changed(dir + "/model.h", o.str()) &&
                 write_if_changed(dir + "/user_model.h", u.str()) &&
                 write_if_changed(dir + "/glue_protobuf.h", pb.builtin_text("protobuf", "")) &&
                 write_if_changed(dir + "/glue_flatbuffers.h",
                                  fb.builtin_text("flatbuffers", fb_pre + fb_bytes)) &&
                 write_if_changed(dir + "/glue_capnproto.h",
                                  cp.builtin_text("capnproto", cp_pre + cp_bytes)) &&
                 write_if_changed(dir + "/glue_thrift.h", th.builtin_text("thrift", ""))
             ? 0
             : 1;
}
