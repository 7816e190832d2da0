// Cap'n Proto's dynamic API for user datasets: capnp::SchemaParser parses the dataset's
// .capnp at prepare time, the generic value tree is written through DynamicStruct::Builder
// into a MallocMessageBuilder (standard unpacked framing, the bytes messageToFlatArray
// gives) and read back through FlatArrayMessageReader + DynamicStruct::Reader. The declared
// types and the schema are walked side by side by position (docs/runner-protocol.md
// section 7 and the orchestrator's .capnp mapping): record field k is the struct's k-th
// field in code order, optional<T> a group holding the union {null :Void; value :T},
// map<string,T> a list of {key :Text; value :T} entries, null and list<null> Void and
// List(Void). The walk is checked once at prepare (a schema that does not follow the
// mapping is not applicable, naming struct and field) and kept as a tree of Shapes, so
// encoding looks nothing up by name.
#include <capnp/dynamic.h>
#include <capnp/schema-parser.h>
#include <kj/filesystem.h>

#include <algorithm>
#include <deque>
#include <map>

#include "../harness/serializer.h"
#include "../harness/user.h"
#include "capnp_io.h"

namespace sb {
namespace {
using capnp::DynamicList;
using capnp::DynamicStruct;
using capnp::DynamicValue;
using Field = capnp::StructSchema::Field;

struct Shape;
// One field of a record: where its value goes.
struct Slot {
  Field field;            // the struct's field (a group for optional<T>)
  bool optional = false;  // group with the union {null, value}
  Field null_member, value_member;
  const Shape* shape = nullptr;  // the (non-optional) value's shape; null: always null
};
// A declared type (never optional<T>) matched with its Cap'n Proto type.
struct Shape {
  const Type* type = nullptr;
  capnp::Type ct;
  std::vector<Slot> fields;     // records: in declaration order
  const Shape* elem = nullptr;  // lists: the element; maps: the entry's value
  Field key, value;             // maps: the entry struct's fields
};

std::string describe(capnp::Type ct) {
  switch (ct.which()) {
    case capnp::schema::Type::VOID:
      return "Void";
    case capnp::schema::Type::BOOL:
      return "Bool";
    case capnp::schema::Type::INT32:
      return "Int32";
    case capnp::schema::Type::INT64:
      return "Int64";
    case capnp::schema::Type::UINT32:
      return "UInt32";
    case capnp::schema::Type::UINT64:
      return "UInt64";
    case capnp::schema::Type::FLOAT32:
      return "Float32";
    case capnp::schema::Type::FLOAT64:
      return "Float64";
    case capnp::schema::Type::TEXT:
      return "Text";
    case capnp::schema::Type::DATA:
      return "Data";
    case capnp::schema::Type::LIST:
      return "List(" + describe(ct.asList().getElementType()) + ")";
    case capnp::schema::Type::ENUM:
      return "enum " + std::string(ct.asEnum().getUnqualifiedName().cStr());
    case capnp::schema::Type::STRUCT:
      return "struct " + std::string(ct.asStruct().getUnqualifiedName().cStr());
    default:
      return "type #" + std::to_string(static_cast<int>(ct.which()));
  }
}

// Fields in code order (the declaration order the mapping counts positions in).
std::vector<Field> code_order(capnp::StructSchema s) {
  std::vector<Field> v;
  for (Field f : s.getFields()) v.push_back(f);
  std::sort(v.begin(), v.end(), [](const Field& a, const Field& b) {
    return a.getProto().getCodeOrder() < b.getProto().getCodeOrder();
  });
  return v;
}

// Builds (and checks) the shapes of a user dataset's types against the parsed schema.
struct Matcher {
  std::string file;
  std::deque<Shape>& shapes;
  std::map<std::pair<const Type*, uint64_t>, const Shape*> records;  // recursion, sharing

  [[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw NotApplicable("capnproto: " + file + ": " + path + ": " + what +
                        " (not the mapping of section 7)");
  }

  const Shape* shape(const Type* t, capnp::Type ct, const std::string& path) {
    using W = capnp::schema::Type;
    auto want = [&](bool ok, const char* cap) {
      if (!ok) fail(path, "is " + describe(ct) + ", the types want " + cap);
    };
    if (t->kind == Type::Record) {
      want(ct.isStruct(), "a struct");
      auto key = std::make_pair(t, ct.asStruct().getProto().getId());
      auto it = records.find(key);
      if (it != records.end()) return it->second;
      Shape& s = shapes.emplace_back();
      s.type = t, s.ct = ct;
      records[key] = &s;
      record(s, path);
      return &s;
    }
    Shape& s = shapes.emplace_back();
    s.type = t, s.ct = ct;
    switch (t->kind) {
      case Type::Null:
        want(ct.isVoid(), "Void");
        break;
      case Type::Bool:
        want(ct.isBool(), "Bool");
        break;
      case Type::Int32:
        want(ct.isInt32(), "Int32");
        break;
      case Type::Uint32:
        want(ct.isUInt32(), "UInt32");
        break;
      case Type::Int64:
      case Type::TimestampMs:
        want(ct.isInt64(), "Int64");
        break;
      case Type::Uint64:
        want(ct.isUInt64(), "UInt64");
        break;
      case Type::Float32:
        want(ct.isFloat32(), "Float32");
        break;
      case Type::Float64:
        want(ct.isFloat64(), "Float64");
        break;
      case Type::String:
        want(ct.isText(), "Text");
        break;
      case Type::Bytes:
        want(ct.isData(), "Data");
        break;
      case Type::Enum:
        want(ct.isEnum() && ct.asEnum().getEnumerants().size() == t->symbols.size(),
             ("an enum of " + std::to_string(t->symbols.size()) + " enumerants").c_str());
        break;
      case Type::List:
        want(ct.isList(), "a List");
        if (t->elem->kind == Type::Optional) fail(path, "a list of optional values has no mapping");
        s.elem = shape(t->elem, ct.asList().getElementType(), path + "[*]");
        break;
      case Type::Map: {
        want(ct.isList() && ct.asList().whichElementType() == W::STRUCT,
             "a List of key/value structs");
        std::vector<Field> kv = code_order(ct.asList().getStructElementType());
        if (kv.size() != 2 || !kv[0].getType().isText())
          fail(path, "the entry struct is not {key :Text; value}");
        if (t->elem->kind == Type::Optional) fail(path, "a map of optional values has no mapping");
        s.key = kv[0], s.value = kv[1];
        s.elem = shape(t->elem, kv[1].getType(), path + ".*");
        break;
      }
      default:
        fail(path, std::string("has a type without a Cap'n Proto mapping (") +
                       (t->kind == Type::BigInt ? "bigint" : "any or nested optional") + ")");
    }
    return &s;
  }

  void record(Shape& s, const std::string& path) {
    capnp::StructSchema st = s.ct.asStruct();
    std::vector<Field> fields = code_order(st);
    const auto& want = s.type->fields;
    std::string name = st.getUnqualifiedName().cStr();
    if (fields.size() != want.size())
      fail(path, "struct " + name + " has " + std::to_string(fields.size()) +
                     " fields, the record " + std::to_string(want.size()));
    for (size_t k = 0; k < want.size(); ++k) {
      const Type* ft = want[k].second;
      std::string at = path + key_path(want[k].first);
      Slot slot;
      slot.field = fields[k];
      const bool group = fields[k].getProto().isGroup();
      if (ft->kind == Type::Optional && (group || ft->elem->kind != Type::Null)) {
        std::vector<Field> u;
        if (group) u = code_order(fields[k].getType().asStruct());
        if (u.size() != 2 || !u[0].getType().isVoid() ||
            u[0].getProto().getDiscriminantValue() == capnp::schema::Field::NO_DISCRIMINANT)
          fail(at, "field " + name + "." + fields[k].getProto().getName().cStr() +
                       " is not a group :union { null :Void; value :T; }");
        slot.optional = true;
        slot.null_member = u[0], slot.value_member = u[1];
        ft = ft->elem;
        slot.shape = shape(ft, u[1].getType(), at);
      } else {
        if (ft->kind == Type::Optional) ft = ft->elem;  // optional<null>: only ever null
        if (group)
          fail(at, "field " + name + "." + fields[k].getProto().getName().cStr() +
                       " is a group, the types want a plain field");
        slot.shape = shape(ft, fields[k].getType(), at);
      }
      if (ft->kind == Type::Null) slot.shape = nullptr;
      s.fields.push_back(slot);
    }
  }
};

// ---- encoding --------------------------------------------------------------------------
DynamicValue::Reader scalar(const Value& x, const Shape& s) {
  switch (s.type->kind) {
    case Type::Bool:
      return x.b;
    case Type::Int32:
      return static_cast<int32_t>(x.i);
    case Type::Uint32:
      return static_cast<uint32_t>(x.i);
    case Type::Int64:
    case Type::TimestampMs:
      return x.i;
    case Type::Uint64:
      return x.k == Value::K::Uint ? x.u : static_cast<uint64_t>(x.i);
    case Type::Float32:
      return static_cast<float>(x.f);
    case Type::Float64:
      return x.f;
    case Type::String:
      return capnp::Text::Reader(x.s.data(), x.s.size());
    case Type::Bytes:
      return capnp::Data::Reader(reinterpret_cast<const kj::byte*>(x.s.data()), x.s.size());
    case Type::Enum:
      return capnp::DynamicEnum(s.ct.asEnum(), static_cast<uint16_t>(x.i));
    default:
      return capnp::VOID;
  }
}

void fill(DynamicStruct::Builder b, const Value& v, const Shape& s);

// x (of shape s) into field f of b.
void put(DynamicStruct::Builder b, Field f, const Value& x, const Shape& s) {
  switch (s.type->kind) {
    case Type::Record:
      fill(b.init(f).as<DynamicStruct>(), x, s);
      return;
    case Type::List: {
      auto list = b.init(f, static_cast<unsigned>(x.a.size())).as<DynamicList>();
      const Shape& e = *s.elem;
      if (e.type->kind == Type::Null) return;  // List(Void): the length is all there is
      for (unsigned i = 0; i < x.a.size(); ++i) {
        if (e.type->kind == Type::Record) {
          fill(list[i].as<DynamicStruct>(), x.a[i], e);
        } else if (e.type->kind == Type::List || e.type->kind == Type::Map) {
          throw NotApplicable("capnproto: nested lists are not mapped");
        } else {
          list.set(i, scalar(x.a[i], e));
        }
      }
      return;
    }
    case Type::Map: {
      auto list = b.init(f, static_cast<unsigned>(x.o.size())).as<DynamicList>();
      for (unsigned i = 0; i < x.o.size(); ++i) {
        auto entry = list[i].as<DynamicStruct>();
        entry.set(s.key, capnp::Text::Reader(x.o[i].first.data(), x.o[i].first.size()));
        if (s.elem->type->kind != Type::Null) put(entry, s.value, x.o[i].second, *s.elem);
      }
      return;
    }
    default:
      b.set(f, scalar(x, s));
  }
}

void put_slot(DynamicStruct::Builder b, const Slot& slot, const Value& x) {
  if (slot.optional) {
    auto group = b.get(slot.field).as<DynamicStruct>();
    if (x.k == Value::K::Null) {
      group.set(slot.null_member, capnp::VOID);
    } else if (slot.shape) {
      put(group, slot.value_member, x, *slot.shape);
    }
  } else if (slot.shape) {
    put(b, slot.field, x, *slot.shape);
  }
}

void fill(DynamicStruct::Builder b, const Value& v, const Shape& s) {
  for (size_t k = 0; k < s.fields.size(); ++k) put_slot(b, s.fields[k], v.o[k].second);
}

// ---- decoding --------------------------------------------------------------------------
Value read_struct(DynamicStruct::Reader r, const Shape& s);

Value get(DynamicValue::Reader d, const Shape& s) {
  Value v;
  switch (s.type->kind) {
    case Type::Null:
      break;
    case Type::Bool:
      v.k = Value::K::Bool, v.b = d.as<bool>();
      break;
    case Type::Int32:
    case Type::Int64:
      v = Value::integer(d.as<int64_t>());
      break;
    case Type::Uint32:
    case Type::Uint64:
      v = Value::integer(d.as<uint64_t>());
      break;
    case Type::TimestampMs:
      v.k = Value::K::Timestamp, v.i = d.as<int64_t>();
      break;
    case Type::Float32:
      v.k = Value::K::Float, v.f = d.as<float>(), v.f32 = true;
      break;
    case Type::Float64:
      v.k = Value::K::Float, v.f = d.as<double>();
      break;
    case Type::String: {
      capnp::Text::Reader t = d.as<capnp::Text>();
      v.k = Value::K::String, v.s.assign(t.begin(), t.size());
      break;
    }
    case Type::Bytes: {
      capnp::Data::Reader t = d.as<capnp::Data>();
      v.k = Value::K::Bytes, v.s.assign(reinterpret_cast<const char*>(t.begin()), t.size());
      break;
    }
    case Type::Enum:
      v = Value::integer(int64_t{d.as<capnp::DynamicEnum>().getRaw()});
      break;
    case Type::Record:
      v = read_struct(d.as<DynamicStruct>(), s);
      break;
    case Type::List: {
      auto list = d.as<DynamicList>();
      v.k = Value::K::Array;
      v.a.reserve(list.size());
      for (auto e : list) v.a.push_back(get(e, *s.elem));
      break;
    }
    case Type::Map: {
      auto list = d.as<DynamicList>();
      v.k = Value::K::Object;
      v.o.reserve(list.size());
      for (auto e : list) {
        auto entry = e.as<DynamicStruct>();
        capnp::Text::Reader key = entry.get(s.key).as<capnp::Text>();
        v.o.emplace_back(std::string(key.begin(), key.size()), get(entry.get(s.value), *s.elem));
      }
      break;
    }
    default:
      break;
  }
  return v;
}

Value get_slot(DynamicStruct::Reader r, const Slot& slot) {
  if (!slot.shape) return Value{};  // only ever null
  if (!slot.optional) return get(r.get(slot.field), *slot.shape);
  auto group = r.get(slot.field).as<DynamicStruct>();
  KJ_IF_MAYBE (which, group.which()) {
    if (which->getIndex() == slot.value_member.getIndex())
      return get(group.get(slot.value_member), *slot.shape);
  }
  return Value{};
}

Value read_struct(DynamicStruct::Reader r, const Shape& s) {
  Value v;
  v.k = Value::K::Object;
  v.o.reserve(s.fields.size());
  for (size_t k = 0; k < s.fields.size(); ++k)
    v.o.emplace_back(s.type->fields[k].first, get_slot(r, s.fields[k]));
  return v;
}

struct Impl {
  static constexpr bool user_data = true;
  static std::string reason(DatasetId) {
    return "built-in datasets are timed with capnp-generated code (the capnproto row); "
           "capnproto-dynamic takes user datasets";
  }
  // the parser owns the schemas (kj's destructors may throw: held through unique_ptr so that
  // the codec's destructor stays noexcept)
  struct Parsing {
    kj::Own<kj::Filesystem> fs = kj::newDiskFilesystem();
    capnp::SchemaParser parser;
  };
  std::unique_ptr<Parsing> parsing = std::make_unique<Parsing>();
  std::deque<Shape> shapes;
  const Shape* root = nullptr;
  capnp::StructSchema root_schema;
  const Type* u_message = nullptr;
  Type root_type;  // struct Root { value @0 } around a top-level value that is not a record
  std::vector<capnp::word> first = std::vector<capnp::word>(1024, capnp::word{});
  std::vector<capnp::word> aligned;

  std::string configure(const UserTypes& u) {
    std::string na = u.schema_unavailable("capnp", "capnproto");
    if (!na.empty()) return na;
    const auto& s = u.schemas.at("capnp");
    if (!s.contains("path") || !s.contains("struct"))
      return "capnproto: the dataset's capnp schema names no path and struct";
    std::string path = s.at("path").get<std::string>();
    std::string name = s.at("struct").get<std::string>();
    u_message = u.message;
    const Type* type = u.message;
    if (type->kind != Type::Record) {
      root_type.kind = Type::Record;
      root_type.name = "Root";
      root_type.fields = {{"value", u.message}};
      type = &root_type;
    }
    try {
      const kj::Filesystem& fs = *parsing->fs;
      capnp::ParsedSchema parsed = parsing->parser.parseFromDirectory(
          fs.getRoot(), fs.getCurrentPath().evalNative(path), nullptr);
      KJ_IF_MAYBE (st, parsed.findNested(name)) {
        root_schema = st->asStruct();
      } else {
        return "capnproto: " + path + " has no struct " + name;
      }
      Matcher m{path, shapes, {}};
      root = m.shape(type, root_schema, "$");
    } catch (const NotApplicable& e) {
      return e.what();
    } catch (const kj::Exception& e) {
      return "capnproto: " + path + " does not parse: " + e.getDescription().cStr();
    }
    return "";
  }
  std::string reject(const Value& v) {
    return find_typed(v, u_message, "$", [](const Value& x, const Type*, const std::string& at) {
      if (x.k == Value::K::BigInt) return "capnproto: " + x.s + " exceeds 64 bits at " + at;
      if (x.k == Value::K::String && x.s.find('\0') != std::string::npos)
        return "capnproto: a string with NUL (Text cannot hold it) at " + at;
      if (x.k == Value::K::Object)
        for (const auto& kv : x.o)  // map keys are Text; record keys are not written
          if (kv.first.find('\0') != std::string::npos)
            return "capnproto: a key with NUL (Text cannot hold it) at " + at + key_path(kv.first);
      return std::string();
    });
  }
  void encode(const Value& v, Bytes& out) {
    capnp::MallocMessageBuilder msg(kj::arrayPtr(first.data(), first.size()));
    auto b = msg.initRoot<DynamicStruct>(root_schema);
    if (u_message == root->type) {
      fill(b, v, *root);
    } else {
      put_slot(b, root->fields[0], v);  // the one field of Root
    }
    CapnpOut o(out);
    capnp::writeMessage(o, msg);
  }
  size_t decode(const uint8_t* p, size_t n, Value& out) {
    auto words = capnp_words(p, n, aligned);
    try {
      capnp::FlatArrayMessageReader reader(words, capnp_reader_options());
      auto r = reader.getRoot<DynamicStruct>(root_schema);
      out = u_message == root->type ? read_struct(r, *root) : get_slot(r, root->fields[0]);
    } catch (const kj::Exception& e) {
      throw DecodeError(std::string("capnp: ") + e.getDescription().cStr());
    }
    return n;
  }
};

}  // namespace

SerializerEntry reg_capnproto_dynamic() {
  return make_entry<Impl>({"capnproto-dynamic",
                           "capnproto",
                           "Cap'n Proto (capnp C++ SchemaParser + DynamicStruct)",
                           std::to_string(CAPNP_VERSION_MAJOR) + "." +
                               std::to_string(CAPNP_VERSION_MINOR) + "." +
                               std::to_string(CAPNP_VERSION_MICRO),
                           {"binary", "schema-required", "copying-decode", "dynamic"},
                           lib_footprint({"libcapnp-0", "libcapnpc-0", "libkj-0"})});
}
}  // namespace sb
