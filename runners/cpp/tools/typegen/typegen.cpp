// serbench-typegen: writes the C++ typed model of every dataset from its types.json
// (datasets/README.md, "Types"). CMake builds it first and runs it at build time:
//
//   serbench-typegen OUTDIR builtin=FAMILY=PATH... user=NAME=PATH... handwritten=FAMILY...
//                   userpb=|userthrift=|userfbs=|usercapnp=TYPES=INCLUDE=PACKAGE...
//
// writes OUTDIR/model.h (the built-in datasets), OUTDIR/user_model.h (the user datasets),
// OUTDIR/glue_{protobuf,flatbuffers,capnproto,thrift}.h: the schema glue of every built-in
// family not named `handwritten=` (whose glue is in src/serializers/), and
// OUTDIR/user_glue_{protobuf,thrift,flatbuffers,capnproto}.h: the glue of the user datasets whose
// schema CMake compiled (the user*= arguments).
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

// ---- schema glue: the conversions between the typed model and the classes protoc, flatc,
// `capnp compile` and `thrift --gen cpp` generate from the schemas serbench writes
// (datasets/README.md, "Schemas"), for a built-in family without hand-written glue. A type
// the glue does not map (maps, optionals, bytes, a wrapped non-record message, names the
// schema writers rename) leaves the family without glue: its rows stay not applicable.

// The four libraries' glue of one family, written into four headers.
struct Glue {
  std::ostringstream pb, fb, cp, th;                      // declarations + definitions per library
  std::ostringstream pb_tail, fb_tail, cp_tail, th_tail;  // the trait specialisations
  std::vector<std::string> messages;                      // the glued message types
  std::set<std::string> pb_inc, fb_inc, cp_inc, th_inc;
};

const std::set<std::string> kGlueScalars = {"int32",   "uint32",  "int64",  "bool",
                                            "float32", "float64", "string", "timestamp_ms"};

// A family's types.json "types" object, as both glue writers read it.
// One record's `to` (typed model `n` -> library class `m::r`) and `from`, given their bodies:
// the shape every protobuf and Thrift glue writer emits.
void write_to_from(std::ostream& o, const std::string& n, const std::string& r,
                   const std::string& to, const std::string& from) {
  o << "inline void to(const " << n << "& v, m::" << r << "& p) {\n"
    << to << "}\ninline void from(const m::" << r << "& p, " << n << "& v) {\n"
    << from << "}\n";
}

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

struct GlueFamily : TypesTable {
  std::string snake;  // family with '-' -> '_', the schemas' file and namespace name

  static bool plain(const std::string& s) {  // a name every schema writer keeps as it is
    if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
      if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    return !kKeywords.count(s);
  }
  // Throws Unsupported unless every type reachable from `name` is mapped here.
  void check(const std::string& name, std::set<std::string>& seen) const {
    if (!seen.insert(name).second) return;
    if (!plain(name)) throw Unsupported("type name `" + name + "`");
    if (is_enum(name)) return;
    std::set<std::string> lowered, capnp;
    for (const auto& f : types.at(name).at("record")) {
      std::string key = f.at(0).get<std::string>(), t = strip(f.at(1).get<std::string>());
      if (!plain(key)) throw Unsupported("field name `" + key + "`");
      std::string low, cap = key;
      for (char c : key) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      cap[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(cap[0])));
      if (!lowered.insert(low).second || !capnp.insert(cap).second || kKeywords.count(low))
        throw Unsupported("field names that differ in case only");
      const bool list = t.rfind("list<", 0) == 0;
      if (list) t = t.substr(5, t.size() - 6);
      if (t.rfind("list<", 0) == 0) throw Unsupported("a list of lists");
      if (list && is_enum(t)) throw Unsupported("a list of enums");
      if (kGlueScalars.count(t)) continue;
      if (!types.contains(t)) throw Unsupported("type `" + t + "`");
      check(t, seen);
    }
  }

  static std::string upper_first(std::string s) {
    s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
  }
  static std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  // The glue of the family's messages: every record they reach once, a trait per message.
  void write(const std::vector<std::string>& messages, Glue& g) {
    std::set<std::string> seen;
    for (const auto& message : messages) check(message, seen);
    std::vector<std::string> recs;
    for (const auto& [name, d] : types.items())
      if (seen.count(name) && d.contains("record")) recs.push_back(name);
    const std::string pbns = "::serbench::" + snake, fbns = "::serbench::fbs::" + snake,
                      cpns = "::serbench::capnp_gen::" + snake, thns = "::serbench_thrift";
    g.pb_inc.insert(snake + ".pb.h");
    g.fb_inc.insert(snake + "_generated.h");
    g.cp_inc.insert(snake + ".capnp.h");
    g.th_inc.insert(snake + "_types.h");
    std::ostringstream pb, fb, cp, th;
    pb << "namespace "
       << "protobuf_" + snake << " {\nnamespace m = " << pbns << ";\n";
    fb << "namespace "
       << "flatbuffers_" + snake << " {\nnamespace m = " << fbns
       << ";\nusing FBB = flatbuffers::FlatBufferBuilder;\n";
    cp << "namespace "
       << "capnproto_" + snake << " {\nnamespace m = " << cpns << ";\n";
    th << "namespace "
       << "thrift_" + snake << " {\nnamespace m = " << thns << ";\n";
    for (const auto& r : recs) {
      const std::string n = "::sb::" + ident(r);
      pb << "inline void to(const " << n << "& v, m::" << r
         << "& p);\ninline void from(const m::" << r << "& p, " << n << "& v);\n";
      fb << "inline flatbuffers::Offset<m::" << r << "> build(FBB& b, const " << n
         << "& v);\ninline void read(const m::" << r << "* p, " << n
         << "& v);\ninline uint64_t walk(const m::" << r << "* p);\n";
      cp << "inline void build(m::" << r << "::Builder p, const " << n
         << "& v);\ninline void read(m::" << r << "::Reader p, " << n
         << "& v);\ninline uint64_t walk(m::" << r << "::Reader p);\n";
      th << "inline void to(const " << n << "& v, m::" << r
         << "& p);\ninline void from(const m::" << r << "& p, " << n << "& v);\n";
    }
    for (const auto& r : recs) record(r, pb, fb, cp, th);
    for (auto [o, lib] : {std::pair{&pb, "protobuf_"},
                          {&fb, "flatbuffers_"},
                          {&cp, "capnproto_"},
                          {&th, "thrift_"}})
      *o << "}  // namespace " << lib << snake << "\n";
    g.pb << pb.str();
    g.fb << fb.str();
    g.cp << cp.str();
    g.th << th.str();
    for (const auto& message : messages) traits(message, snake, pbns, fbns, cpns, thns, g);
  }

  static void traits(const std::string& message, const std::string& snake, const std::string& pbns,
                     const std::string& fbns, const std::string& cpns, const std::string& thns,
                     Glue& g) {
    const std::string n = "::sb::" + ident(message), M = message;
    g.messages.push_back(n);
    g.pb_tail << "template <>\nstruct Protobuf<" << n << "> {\n  static constexpr bool generated = "
              << "true;\n  using type = " << pbns << "::" << M << ";\n  static void to(const " << n
              << "& v, type& p) {\n    p.Clear();\n    " << ("protobuf_" + snake)
              << "::to(v, p);\n  }\n  static void from(const type& p, " << n << "& v) { "
              << ("protobuf_" + snake) << "::from(p, v); }\n};\n";
    g.fb_tail << "template <>\nstruct Flatbuffers<" << n
              << "> {\n  static constexpr bool generated = true;\n  using type = " << fbns
              << "::" << M << ";\n  static flatbuffers::Offset<type> build(flatbuffers::"
              << "FlatBufferBuilder& b, const " << n << "& v) {\n    return "
              << ("flatbuffers_" + snake)
              << "::build(b, v);\n  }\n  static void read(const type* p, " << n << "& v) { "
              << ("flatbuffers_" + snake)
              << "::read(p, v); }\n  static uint64_t walk(const type* p) { return "
              << ("flatbuffers_" + snake) << "::walk(p); }\n};\n";
    g.cp_tail << "template <>\nstruct Capnproto<" << n
              << "> {\n  static constexpr bool generated = true;\n  using type = " << cpns
              << "::" << M << ";\n  static void build(type::Builder p, const " << n << "& v) { "
              << ("capnproto_" + snake) << "::build(p, v); }\n  static void read(type::Reader p, "
              << n << "& v) { " << ("capnproto_" + snake)
              << "::read(p, v); }\n  static uint64_t walk(type::Reader p) { "
              << "return " << ("capnproto_" + snake) << "::walk(p); }\n};\n";
    g.th_tail << "template <>\nstruct Thrift<" << n
              << "> {\n  static constexpr bool generated = true;\n  using type = " << thns
              << "::" << M << ";\n  static void to(const " << n << "& v, type& p) { "
              << ("thrift_" + snake) << "::to(v, p); }\n  static void from(const type& p, " << n
              << "& v) { " << ("thrift_" + snake) << "::from(p, v); }\n};\n";
  }

  // One record's functions for the four libraries.
  void record(const std::string& r, std::ostream& pb, std::ostream& fb, std::ostream& cp,
              std::ostream& th) {
    const std::string n = "::sb::" + ident(r);
    std::ostringstream pbt, pbf, fbpre, fbargs, fbr, fbw, cpb, cpr, cpw, tht, thf;
    size_t i = 0;
    for (const auto& f : types.at(r).at("record")) {
      const std::string key = f.at(0).get<std::string>(), mem = "v." + ident(key);
      const std::string pl = lower(key), cap = upper_first(key);
      std::string t = strip(f.at(1).get<std::string>());
      const bool list = t.rfind("list<", 0) == 0;
      if (list) t = t.substr(5, t.size() - 6);
      const bool rec = is_record(t), en = is_enum(t), ts = t == "timestamp_ms", str = t == "string";
      // an element's native value -> the wire value, and back
      auto out = [&](const std::string& x, const std::string& lib_enum) {
        if (en) return "static_cast<" + lib_enum + ">(" + x + ")";
        if (ts) return x + ".time_since_epoch().count()";
        return x;
      };
      auto in = [&](const std::string& x) {
        if (en) return "static_cast<::sb::" + ident(t) + ">(" + x + ")";
        if (ts) return "::sb::Timestamp(std::chrono::milliseconds(" + x + "))";
        return x;
      };
      auto num = [&](const std::string& x) {
        if (en) return "static_cast<uint64_t>(" + x + ")";
        return "::sb::glue::touch(" + x + ")";
      };
      const std::string arg = "a" + std::to_string(i++);
      fbargs << ", " << arg;
      if (!list) {
        if (rec) {
          pbt << "  to(" << mem << ", *p.mutable_" << pl << "());\n";
          pbf << "  from(p." << pl << "(), " << mem << ");\n";
          fbpre << "  auto " << arg << " = build(b, " << mem << ");\n";
          fbr << "  if (!p->" << key << "()) throw ::sb::DecodeError(\"flatbuffers: missing " << r
              << "." << key << "\");\n  read(p->" << key << "(), " << mem << ");\n";
          fbw << "  if (p->" << key << "()) s += walk(p->" << key << "());\n";
          cpb << "  build(p.init" << cap << "(), " << mem << ");\n";
          cpr << "  read(p.get" << cap << "(), " << mem << ");\n";
          cpw << "  s += walk(p.get" << cap << "());\n";
          tht << "  to(" << mem << ", p." << key << ");\n";
          thf << "  from(p." << key << ", " << mem << ");\n";
        } else if (str) {
          pbt << "  p.set_" << pl << "(" << mem << ");\n";
          pbf << "  " << mem << " = p." << pl << "();\n";
          fbpre << "  auto " << arg << " = b.CreateString(" << mem << ");\n";
          fbr << "  " << mem << " = ::sb::glue::str(p->" << key << "());\n";
          fbw << "  s += ::sb::glue::touch(p->" << key << "());\n";
          cpb << "  p.set" << cap << "(::sb::glue::text(" << mem << "));\n";
          cpr << "  " << mem << " = ::sb::glue::str(p.get" << cap << "());\n";
          cpw << "  s += ::sb::glue::touch(p.get" << cap << "());\n";
          tht << "  p." << key << " = " << mem << ";\n";
          thf << "  " << mem << " = p." << key << ";\n";
        } else {
          pbt << "  p.set_" << pl << "(" << out(mem, "m::" + t) << ");\n";
          pbf << "  " << mem << " = " << in("p." + pl + "()") << ";\n";
          fbpre << "  auto " << arg << " = " << out(mem, "m::" + t) << ";\n";
          fbr << "  " << mem << " = " << in("p->" + key + "()") << ";\n";
          fbw << "  s += " << num("p->" + key + "()") << ";\n";
          cpb << "  p.set" << cap << "(" << out(mem, "m::" + t) << ");\n";
          cpr << "  " << mem << " = " << in("p.get" + cap + "()") << ";\n";
          cpw << "  s += " << num("p.get" + cap + "()") << ";\n";
          tht << "  p." << key << " = " << out(mem, "m::" + t + "::type") << ";\n";
          thf << "  " << mem << " = " << in("p." + key) << ";\n";
        }
        continue;
      }
      // list<T>
      pbt << "  p.mutable_" << pl << "()->Reserve(static_cast<int>(" << mem << ".size()));\n";
      pbf << "  " << mem << ".resize(static_cast<size_t>(p." << pl << "_size()));\n";
      fbr << "  " << mem << ".clear();\n  if (const auto* l = p->" << key << "()) {\n    " << mem
          << ".resize(l->size());\n    for (flatbuffers::uoffset_t i = 0; i < l->size(); ++i) ";
      fbw << "  if (const auto* l = p->" << key << "())\n    for (auto x : *l) ";
      cpb << "  {\n    auto l = p.init" << cap << "(static_cast<unsigned>(" << mem
          << ".size()));\n    for (unsigned i = 0; i < l.size(); ++i) ";
      cpr << "  {\n    auto l = p.get" << cap << "();\n    " << mem
          << ".resize(l.size());\n    for (unsigned i = 0; i < l.size(); ++i) ";
      cpw << "  for (auto x : p.get" << cap << "()) ";
      tht << "  p." << key << ".resize(" << mem << ".size());\n  for (size_t i = 0; i < " << mem
          << ".size(); ++i) ";
      thf << "  " << mem << ".resize(p." << key << ".size());\n  for (size_t i = 0; i < " << mem
          << ".size(); ++i) ";
      pbf << "  for (size_t i = 0; i < " << mem << ".size(); ++i) ";
      if (rec) {
        pbt << "  for (const auto& x : " << mem << ") to(x, *p.add_" << pl << "());\n";
        pbf << "from(p." << pl << "(static_cast<int>(i)), " << mem << "[i]);\n";
        fbpre << "  auto " << arg << " = b.CreateVector<flatbuffers::Offset<m::" << t << ">>("
              << mem << ".size(), [&](size_t i) { return build(b, " << mem << "[i]); });\n";
        fbr << "read(l->Get(i), " << mem << "[i]);\n  }\n";
        fbw << "s += walk(x);\n";
        cpb << "build(l[i], " << mem << "[i]);\n  }\n";
        cpr << "read(l[i], " << mem << "[i]);\n  }\n";
        cpw << "s += walk(x);\n";
        tht << "to(" << mem << "[i], p." << key << "[i]);\n";
        thf << "from(p." << key << "[i], " << mem << "[i]);\n";
      } else if (str) {
        pbt << "  for (const auto& x : " << mem << ") p.add_" << pl << "(x);\n";
        pbf << mem << "[i] = p." << pl << "(static_cast<int>(i));\n";
        fbpre << "  auto " << arg << " = b.CreateVectorOfStrings(" << mem << ");\n";
        fbr << mem << "[i] = ::sb::glue::str(l->Get(i));\n  }\n";
        fbw << "s += ::sb::glue::touch(x);\n";
        cpb << "l.set(i, ::sb::glue::text(" << mem << "[i]));\n  }\n";
        cpr << mem << "[i] = ::sb::glue::str(l[i]);\n  }\n";
        cpw << "s += ::sb::glue::touch(x);\n";
        tht << "p." << key << "[i] = " << mem << "[i];\n";
        thf << mem << "[i] = p." << key << "[i];\n";
      } else {
        pbt << "  for (const auto& x : " << mem << ") p.add_" << pl << "(" << out("x", "m::" + t)
            << ");\n";
        pbf << mem << "[i] = " << in("p." + pl + "(static_cast<int>(i))") << ";\n";
        if (en || ts || t == "bool") {  // through a vector of the wire type
          const std::string wire = en ? "m::" + t : ts ? "int64_t" : "uint8_t";
          fbpre << "  auto " << arg << " = b.CreateVector<" << wire << ">(" << mem
                << ".size(), [&](size_t i) { return static_cast<" << wire << ">("
                << out(mem + "[i]", "m::" + t) << "); });\n";
        } else {
          fbpre << "  auto " << arg << " = b.CreateVector(" << mem << ");\n";
        }
        fbr << mem << "[i] = " << in("l->Get(i)") << ";\n  }\n";
        fbw << "s += " << num("x") << ";\n";
        cpb << "l.set(i, " << out(mem + "[i]", "m::" + t) << ");\n  }\n";
        cpr << mem << "[i] = " << in("l[i]") << ";\n  }\n";
        cpw << "s += " << num("x") << ";\n";
        tht << "p." << key << "[i] = " << out(mem + "[i]", "m::" + t + "::type") << ";\n";
        thf << mem << "[i] = " << in("p." + key + "[i]") << ";\n";
      }
    }
    write_to_from(pb, n, r, pbt.str(), pbf.str());
    fb << "inline flatbuffers::Offset<m::" << r << "> build(FBB& b, const " << n << "& v) {\n"
       << fbpre.str() << "  return m::Create" << r << "(b" << fbargs.str()
       << ");\n}\ninline void read(const m::" << r << "* p, " << n << "& v) {\n"
       << fbr.str() << "}\ninline uint64_t walk(const m::" << r << "* p) {\n  uint64_t s = 0;\n"
       << fbw.str() << "  return s;\n}\n";
    cp << "inline void build(m::" << r << "::Builder p, const " << n << "& v) {\n"
       << cpb.str() << "}\ninline void read(m::" << r << "::Reader p, " << n << "& v) {\n"
       << cpr.str() << "}\ninline uint64_t walk(m::" << r << "::Reader p) {\n  uint64_t s = 0;\n"
       << cpw.str() << "  return s;\n}\n";
    write_to_from(th, n, r, tht.str(), thf.str());
  }
};

// ---- schema glue of a user dataset: the conversions between its typed model
// (sb::user_model::NAME) and the classes a pinned compiler generates from the schema the
// orchestrator wrote (src/serbench/userdata/schemas/). What the writers share: the walk from
// the message through every record it reaches (names every schema writer keeps as they are,
// no nested list, map or optional), and the namespace of `to`/`from` functions per record.
// Anything else leaves the dataset without glue: its typed row says why.
struct UserGlue : TypesTable {
  std::string ns, gen;  // "::sb::user_model::NAME", the generated classes' namespace
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
    if (!GlueFamily::plain(name)) throw Unsupported("type name `" + name + "`");
    if (is_enum(name)) return;
    std::set<std::string> lowered;
    for (const auto& f : types.at(name).at("record")) {
      const std::string key = field_name(f.at(0).get<std::string>());
      std::string low = GlueFamily::lower(key);
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
  // of the types this writer reads); the message's own type must name a record or enum of the
  // dataset, or its trait would be shared with another dataset's (std::vector<int64_t>).
  static std::string wrap(ordered_json& all, const std::string& message,
                          const ordered_json& schema) {
    std::string t = strip(message);
    for (bool more = true; more;) {
      more = false;
      for (const char* w : {"list<", "optional<", "map<string,"})
        if (t.rfind(w, 0) == 0) {
          t = t.substr(std::strlen(w), t.size() - std::strlen(w) - 1);
          more = true;
        }
    }
    if (!all.contains(t)) throw Unsupported("message `" + message + "` names no type of its own");
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
                        mem = member(r, raw), pl = escaped(GlueFamily::lower(key));
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
// field is a `bool = null` never set; `list<null>` a `[bool]` of as many falses.
struct UserFbGlue final : UserGlue {
  using UserGlue::UserGlue;

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
    if (t == "string") return x + " = ::sb::glue::str(" + q + ");";
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
  void record(const std::string& r, std::ostream& o) override {
    const std::string n = ns + "::" + ident(r);
    std::ostringstream pre, add, rd, wk;
    size_t i = 0;
    for (const auto& f : types.at(r).at("record")) {
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
        pre << "  using " << e << " = std::remove_const_t<std::remove_pointer_t<typename "
            << "std::remove_pointer_t<decltype(std::declval<const m::" << r << "&>()." << key
            << "())>::return_type>>;\n  std::vector<flatbuffers::Offset<" << e << ">> " << a
            << "s;\n  " << a << "s.reserve(" << mem
            << ".size());\n  for (const auto& [k, x] : " << mem
            << ") {\n    auto k_ = b.CreateString(k);\n";
        if (!is_number(t)) pre << "    auto x_ = " << offset(t, "x") << ";\n";
        pre << "    typename " << e << "::Builder eb(b);\n    eb.add_key(k_);\n    "
            << (is_number(t) ? add_number(t, "eb", "value", out(t, "x")) : "eb.add_value(x_);")
            << "\n    " << a << "s.push_back(eb.Finish());\n  }\n  auto " << a
            << " = b.CreateVector(" << a << "s);\n";
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
    o << "inline flatbuffers::Offset<m::" << r << "> build(FBB& b, const " << n << "& v) {\n"
      << pre.str() << "  m::" << r << "::Builder t(b);\n"
      << add.str() << "  return t.Finish();\n}\ninline void read(const m::" << r << "* p, " << n
      << "& v) {\n"
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
      out.push_back(GlueFamily::upper_first(name));  // as the accessors spell it
    }
    return out;
  }
  std::string type(const std::string& t) const { return "m::" + GlueFamily::upper_first(t); }
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
                        const std::string& x, const std::string& where) const {
    if (t == "null") return "";
    if (is_record(t)) return "build(" + init + ", " + x + ");";
    if (t == "string") return set + "::sb::glue::capnp_text(" + x + ", \"" + where + "\"));";
    if (t == "bytes") return set + "::sb::glue::capnp_data(" + x + "));";
    return set + out(t, x) + ");";
  }
  std::string read_one(const std::string& t, const std::string& get, const std::string& x) const {
    if (t == "null") return "";
    if (is_record(t)) return "read(" + get + ", " + x + ");";
    if (t == "string") return x + " = ::sb::glue::str(" + get + ");";
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
                         const std::string& x, const std::string& where) const {
    const std::string l = "auto l = " + init("static_cast<unsigned>(" + x + ".size())") + ";";
    if (t == "null") return "    " + init("static_cast<unsigned>(" + x + ".size())") + ";\n";
    return "    " + l + "\n    for (unsigned i = 0; i < l.size(); ++i) {\n      " +
           build_one(t, "l.set(i, ", "l[i]", x + "[i]", where) + "\n    }\n";
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
                 t, [&](const std::string& k) { return "p.init" + a + "(" + k + ")"; }, mem, where)
          << "  }\n";
        rd << "  {\n" << read_list(t, get, mem) << "  }\n";
        wk << "  {\n" << walk_list(t, get) << "  }\n";
      } else if (t.rfind("map<string,", 0) == 0) {
        t = inner(t, 11);
        if (t == "null") throw Unsupported("a map of nulls");
        b << "  {\n    auto l = p.init" << a << "(static_cast<unsigned>(" << mem
          << ".size()));\n    unsigned i = 0;\n    for (const auto& [k, x] : " << mem
          << ") {\n      auto e = l[i++];\n      e.setKey(::sb::glue::capnp_text(k, \"" << where
          << "\"));\n      " << build_one(t, "e.setValue(", "e.initValue()", "x", where)
          << "\n    }\n  }\n";
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
              t, [](const std::string& k) { return "g.initValue(" + k + ")"; }, "(*" + mem + ")",
              where);
          rd << read_list(t, "g.getValue()", "x");
          wk << walk_list(t, "g.getValue()");
        } else {
          b << "    " << build_one(t, "g.setValue(", "g.initValue()", "*" + mem, where) << "\n";
          rd << "    " << read_one(t, "g.getValue()", "x") << "\n";
          wk << "    " << walk_one(t, "g.getValue()") << "\n";
        }
        b << "  }\n";
        rd << "  } else {\n    " << mem << ".reset();\n  }\n";
        wk << "  }\n";
      } else {
        b << "  " << build_one(t, "p.set" + a + "(", "p.init" + a + "()", mem, where) << "\n";
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
    const std::string n = ns + "::" + ident(message),
                      c = gen + "::" + GlueFamily::upper_first(message);
    tail << "template <>\nstruct Capnproto<" << n << "> {\n  static constexpr bool generated = "
         << "true;\n  using type = " << c << ";\n  static void build(type::Builder p, const " << n
         << "& v) {\n    if constexpr (" << gns << "::mismatch() != nullptr)\n      throw "
         << "::sb::NotApplicable(" << gns << "::mismatch());\n    " << gns
         << "::build(p, v);\n  }\n  static void read(type::Reader p, " << n << "& v) { " << gns
         << "::read(p, v); }\n  static uint64_t walk(type::Reader p) { return " << gns
         << "::walk(p); }\n};\n";
  }
};

std::string glue_header(const std::string& lib, const std::set<std::string>& inc,
                        const std::string& prelude, const std::string& body,
                        const std::string& tail) {
  std::ostringstream o;
  o << "// Generated by serbench-typegen (runners/cpp/tools/typegen) from the datasets'\n"
       "// types.json at build time: do not edit. The "
    << lib
    << " glue of the built-in families without hand-written glue.\n#pragma once\n\n"
       "#include <chrono>\n#include <cstdint>\n#include <cstring>\n#include <string>\n#include "
       "<tuple>\n#include <type_traits>\n\n";
  for (const auto& h : inc) o << "#include \"" << h << "\"\n";
  o << "\nnamespace sb {\nnamespace glue {\n"
    << prelude << "template <class T>\nstruct " << lib
    << " {\n  static constexpr bool generated = false;\n};\n"
    << body << tail << "}  // namespace glue\n}  // namespace sb\n";
  return o.str();
}

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

// One library's glue header for the user datasets: the datasets whose schema was compiled,
// their glue and a note per dataset on why it has none.
struct UserGlueHeader {
  std::map<std::string, std::pair<std::string, std::string>> compiled;  // types -> include, package
  std::map<std::string, std::string> refused;  // types -> why the compiler refused the schema
  std::string trait;                           // the trait the glue specialises
  std::ostringstream body, tail, notes;
  std::set<std::string> inc;
  std::vector<std::string> messages;

  // The glue of one user dataset (its model in `fam`), when its schema was compiled.
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
    std::ostringstream b, t;
    try {
      std::string root = message;
      if (!g.is_record(message)) root = g.wrapper = UserGlue::wrap(types, message, schema);
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
  // In a header of its own (only the library's file includes it): registering a dataset
  // recompiles that file and the dataset's generated code.
  std::string text(const std::string& lib, const std::string& trait,
                   const std::string& builtin_header, const std::string& helpers = "") const {
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
      << helpers << body.str() << tail.str()
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
  std::set<std::string> user_ns, handwritten;
  Glue glue;
  std::ostringstream glue_notes;
  // userpb= / userthrift= / userfbs=TYPES=INCLUDE=PACKAGE: the .proto / .thrift / .fbs of the
  // user dataset whose types file is TYPES (the path of its user= argument), compiled into
  // INCLUDE (its .pb.h / _types.h / _generated.h), declares PACKAGE
  UserGlueHeader userpb, userth, userfb, usercp;
  usercp.trait = "Capnproto";
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("handwritten=", 0) == 0) handwritten.insert(arg.substr(12));
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
      if (arg.rfind("handwritten=", 0) == 0 || arg.rfind("userpb=", 0) == 0 ||
          arg.rfind("userthrift=", 0) == 0 || arg.rfind("userfbs=", 0) == 0 ||
          arg.rfind("usercapnp=", 0) == 0 || arg.rfind("usercapnperror=", 0) == 0)
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
        if (m.is_string()) {
          builtins.push_back({name, camel(name), fam.message(m.get<std::string>(), schema)});
        } else {
          for (const auto& [ds, t] : m.items())
            builtins.push_back({ds, camel(ds), fam.message(t.get<std::string>(), schema)});
        }
        for (const auto& [t, d] : fam.types.items()) fam.write_named(t);  // unused ones too
        builtin_decl << "// " << name << " (" << path << ")\n" << fam.ahead() << fam.decl.str();
        builtin_symbols << fam.symbols.str();
        if (!handwritten.count(name)) {
          std::string snake = name;
          std::replace(snake.begin(), snake.end(), '-', '_');
          GlueFamily gf{{fam.types}, snake};
          std::vector<std::string> ms;
          if (m.is_string()) {
            ms.push_back(m.get<std::string>());
          } else {
            for (const auto& [ds, t] : m.items()) ms.push_back(t.get<std::string>());
          }
          try {
            const ordered_json field_types = schema.value("field_types", ordered_json::object());
            for (const auto& [lang, v] : field_types.items())  // a seed's wire types
              if (lang != "avro") throw Unsupported("schema.field_types for " + lang);
            for (const auto& t : ms)
              if (!gf.is_record(t)) throw Unsupported("message `" + t + "` is not a record");
            Glue one;
            gf.write(ms, one);
            for (auto [to, from] : {std::pair{&glue.pb, &one.pb},
                                    {&glue.fb, &one.fb},
                                    {&glue.cp, &one.cp},
                                    {&glue.th, &one.th},
                                    {&glue.pb_tail, &one.pb_tail},
                                    {&glue.fb_tail, &one.fb_tail},
                                    {&glue.cp_tail, &one.cp_tail},
                                    {&glue.th_tail, &one.th_tail}})
              *to << from->str();
            glue.messages.insert(glue.messages.end(), one.messages.begin(), one.messages.end());
            glue.pb_inc.insert(one.pb_inc.begin(), one.pb_inc.end());
            glue.fb_inc.insert(one.fb_inc.begin(), one.fb_inc.end());
            glue.cp_inc.insert(one.cp_inc.begin(), one.cp_inc.end());
            glue.th_inc.insert(one.th_inc.begin(), one.th_inc.end());
            glue_notes << "// " << name << ": generated\n";
          } catch (const Unsupported& e) {
            glue_notes << "// " << name << ": no glue (" << e.what() << ")\n";
          }
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

  const std::string dir = argv[1], notes = glue_notes.str();
  std::string pb_types =
      "// the glued message types (one reusable message each)\n"
      "using ProtobufTypes = std::tuple<";
  for (size_t i = 0; i < glue.messages.size(); ++i) pb_types += (i ? ", " : "") + glue.messages[i];
  pb_types += ">;\n";
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
      "inline uint64_t touch(const flatbuffers::String* s) {\n"
      "  return s ? s->size() + (s->size() ? static_cast<uint8_t>(s->c_str()[0]) : 0) : 0;\n}\n";
  const std::string cp_pre =
      num +
      "inline capnp::Text::Reader text(const std::string& s) {\n"
      "  return capnp::Text::Reader(s.data(), s.size());\n}\n"
      "inline std::string str(capnp::Text::Reader t) { return std::string(t.cStr(), t.size()); "
      "}\n"
      "inline uint64_t touch(capnp::Text::Reader t) {\n"
      "  return t.size() + (t.size() ? static_cast<uint8_t>(t.cStr()[0]) : 0);\n}\n";
  // what only the user datasets' glue reads: bytes, and Text that refuses a NUL (as the
  // capnproto-dynamic row does: Cap'n Proto Text cannot hold one)
  const std::string fb_user =
      "inline uint64_t touch(const flatbuffers::Vector<uint8_t>* v) {\n"
      "  return v && v->size() ? v->size() + v->Get(0) : 0;\n}\n";
  const std::string cp_user =
      "inline capnp::Text::Reader capnp_text(const std::string& s, const char* where) {\n"
      "  if (std::memchr(s.data(), 0, s.size()))\n"
      "    throw ::sb::NotApplicable(std::string(\"capnproto: a string with NUL (Text cannot "
      "hold it) at \") + where);\n"
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
                     userfb.text("flatbuffers", "Flatbuffers", "glue_flatbuffers.h", fb_user)) &&
                 write_if_changed(
                     dir + "/user_glue_capnproto.h",
                     usercp.text("capnproto", "Capnproto", "glue_capnproto.h", cp_user)) &&
                 write_if_changed(dir + "/model.h", o.str()) &&
                 write_if_changed(dir + "/user_model.h", u.str()) &&
                 write_if_changed(dir + "/glue_protobuf.h",
                                  glue_header("Protobuf", glue.pb_inc, notes, glue.pb.str(),
                                              glue.pb_tail.str() + pb_types)) &&
                 write_if_changed(dir + "/glue_flatbuffers.h",
                                  glue_header("Flatbuffers", glue.fb_inc, notes + fb_pre,
                                              glue.fb.str(), glue.fb_tail.str())) &&
                 write_if_changed(dir + "/glue_capnproto.h",
                                  glue_header("Capnproto", glue.cp_inc, notes + cp_pre,
                                              glue.cp.str(), glue.cp_tail.str())) &&
                 write_if_changed(
                     dir + "/glue_thrift.h",
                     glue_header("Thrift", glue.th_inc, notes, glue.th.str(), glue.th_tail.str()))
             ? 0
             : 1;
}
