// libprotobuf's dynamic API for user datasets: the dataset's FileDescriptorSet loaded into
// a DescriptorPool, messages made by DynamicMessageFactory and filled / read through
// Reflection, walking the declared types and the descriptors side by side (record field
// k is proto field number k; a top-level value that is not a record is field 1 of Root).
// Built-in datasets are timed with generated classes by the `protobuf` row.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/stubs/common.h>

#include <fstream>
#include <sstream>

#include "../harness/serializer.h"
#include "../harness/user.h"

namespace sb {
namespace {
namespace gp = google::protobuf;
using FD = gp::FieldDescriptor;

[[noreturn]] void mismatch(const FD* f, const std::string& why) {
  throw NotApplicable("protobuf: field " + f->full_name() + ": " + why);
}

void set_one(gp::Message& m, const FD* f, const Value& x, const Type& t, bool add);

// One field of a record: x of declared type t.
void fill_field(gp::Message& m, const FD* f, const Value& x, const Type* t) {
  const gp::Reflection* r = m.GetReflection();
  if (t->kind == Type::Null) return;  // an always-null field is never set
  if (t->kind == Type::Optional) {
    if (x.k == Value::K::Null) return;  // absent
    t = t->elem;
  }
  if (f->is_map()) {
    if (t->kind != Type::Map) mismatch(f, "a map field for a non-map");
    const FD* kf = f->message_type()->map_key();
    const FD* vf = f->message_type()->map_value();
    for (const auto& [k, e] : x.o) {
      gp::Message* entry = r->AddMessage(&m, f);
      entry->GetReflection()->SetString(entry, kf, k);
      set_one(*entry, vf, e, *t->elem, false);
    }
  } else if (f->is_repeated()) {
    if (t->kind != Type::List) mismatch(f, "a repeated field for a non-list");
    for (const auto& e : x.a) set_one(m, f, e, *t->elem, true);
  } else {
    set_one(m, f, x, *t, false);
  }
}

const FD* field_no(const gp::Descriptor* d, size_t k) {
  const FD* f = d->FindFieldByNumber(static_cast<int>(k));
  if (!f) throw NotApplicable("protobuf: " + d->full_name() + " has no field " + std::to_string(k));
  return f;
}

void fill(gp::Message& m, const Value& v, const Type& t) {
  if (t.kind != Type::Record || v.k != Value::K::Object)
    throw NotApplicable("protobuf: message " + m.GetDescriptor()->full_name() +
                        " for a non-record");
  for (size_t i = 0; i < t.fields.size(); ++i)
    fill_field(m, field_no(m.GetDescriptor(), i + 1), v.o[i].second, t.fields[i].second);
}

void set_one(gp::Message& m, const FD* f, const Value& x, const Type& t, bool add) {
  const gp::Reflection* r = m.GetReflection();
  switch (f->cpp_type()) {
    case FD::CPPTYPE_INT32:
      add ? r->AddInt32(&m, f, static_cast<int32_t>(x.i))
          : r->SetInt32(&m, f, static_cast<int32_t>(x.i));
      break;
    case FD::CPPTYPE_INT64:
      add ? r->AddInt64(&m, f, x.i) : r->SetInt64(&m, f, x.i);
      break;
    case FD::CPPTYPE_UINT32:
      add ? r->AddUInt32(&m, f, static_cast<uint32_t>(x.i))
          : r->SetUInt32(&m, f, static_cast<uint32_t>(x.i));
      break;
    case FD::CPPTYPE_UINT64: {
      uint64_t u = x.k == Value::K::Uint ? x.u : static_cast<uint64_t>(x.i);
      add ? r->AddUInt64(&m, f, u) : r->SetUInt64(&m, f, u);
      break;
    }
    case FD::CPPTYPE_DOUBLE:
      add ? r->AddDouble(&m, f, x.f) : r->SetDouble(&m, f, x.f);
      break;
    case FD::CPPTYPE_FLOAT:
      add ? r->AddFloat(&m, f, static_cast<float>(x.f))
          : r->SetFloat(&m, f, static_cast<float>(x.f));
      break;
    case FD::CPPTYPE_BOOL:
      add ? r->AddBool(&m, f, x.b) : r->SetBool(&m, f, x.b);
      break;
    case FD::CPPTYPE_ENUM:
      add ? r->AddEnumValue(&m, f, static_cast<int>(x.i))
          : r->SetEnumValue(&m, f, static_cast<int>(x.i));
      break;
    case FD::CPPTYPE_STRING:
      if (x.k != Value::K::String && x.k != Value::K::Bytes)
        mismatch(f, "a string field for " + show(x));
      add ? r->AddString(&m, f, x.s) : r->SetString(&m, f, x.s);
      break;
    case FD::CPPTYPE_MESSAGE:
      fill(add ? *r->AddMessage(&m, f) : *r->MutableMessage(&m, f), x, t);
      break;
  }
}

Value get_one(const gp::Message& m, const FD* f, int idx, const Type& t);

Value read(const gp::Message& m, const Type& t) {
  const gp::Descriptor* d = m.GetDescriptor();
  const gp::Reflection* r = m.GetReflection();
  Value v;
  v.k = Value::K::Object;
  v.o.reserve(t.fields.size());
  for (size_t i = 0; i < t.fields.size(); ++i) {
    const FD* f = d->FindFieldByNumber(static_cast<int>(i + 1));
    const Type* ft = t.fields[i].second;
    v.o.emplace_back(t.fields[i].first, Value{});
    Value& x = v.o.back().second;
    if (ft->kind == Type::Null) continue;  // never set: null
    if (ft->kind == Type::Optional) {
      if (f->has_presence() && !r->HasField(m, f)) continue;  // null
      ft = ft->elem;
    }
    if (f->is_map()) {
      const FD* kf = f->message_type()->map_key();
      const FD* vf = f->message_type()->map_value();
      x.k = Value::K::Object;
      int n = r->FieldSize(m, f);
      x.o.reserve(static_cast<size_t>(n));
      for (int j = 0; j < n; ++j) {
        const gp::Message& e = r->GetRepeatedMessage(m, f, j);
        x.o.emplace_back(e.GetReflection()->GetString(e, kf), get_one(e, vf, -1, *ft->elem));
      }
    } else if (f->is_repeated()) {
      x.k = Value::K::Array;
      int n = r->FieldSize(m, f);
      x.a.reserve(static_cast<size_t>(n));
      for (int j = 0; j < n; ++j) x.a.push_back(get_one(m, f, j, *ft->elem));
    } else {
      x = get_one(m, f, -1, *ft);
    }
  }
  return v;
}

Value get_one(const gp::Message& m, const FD* f, int idx, const Type& t) {
  const gp::Reflection* r = m.GetReflection();
  const bool rep = idx >= 0;
  Value v;
  switch (f->cpp_type()) {
    case FD::CPPTYPE_INT32:
      v = Value::integer(int64_t{rep ? r->GetRepeatedInt32(m, f, idx) : r->GetInt32(m, f)});
      break;
    case FD::CPPTYPE_INT64:
      v = Value::integer(int64_t{rep ? r->GetRepeatedInt64(m, f, idx) : r->GetInt64(m, f)});
      if (t.kind == Type::TimestampMs) v.k = Value::K::Timestamp;
      break;
    case FD::CPPTYPE_UINT32:
      v = Value::integer(int64_t{rep ? r->GetRepeatedUInt32(m, f, idx) : r->GetUInt32(m, f)});
      break;
    case FD::CPPTYPE_UINT64:
      v = Value::integer(uint64_t{rep ? r->GetRepeatedUInt64(m, f, idx) : r->GetUInt64(m, f)});
      break;
    case FD::CPPTYPE_DOUBLE:
      v.k = Value::K::Float, v.f = rep ? r->GetRepeatedDouble(m, f, idx) : r->GetDouble(m, f);
      break;
    case FD::CPPTYPE_FLOAT:
      v.k = Value::K::Float, v.f32 = true;
      v.f = rep ? r->GetRepeatedFloat(m, f, idx) : r->GetFloat(m, f);
      break;
    case FD::CPPTYPE_BOOL:
      v.k = Value::K::Bool, v.b = rep ? r->GetRepeatedBool(m, f, idx) : r->GetBool(m, f);
      break;
    case FD::CPPTYPE_ENUM:
      v = Value::integer(int64_t{rep ? r->GetRepeatedEnumValue(m, f, idx) : r->GetEnumValue(m, f)});
      break;
    case FD::CPPTYPE_STRING:
      v.k = t.kind == Type::Bytes ? Value::K::Bytes : Value::K::String;
      v.s = rep ? r->GetRepeatedString(m, f, idx) : r->GetString(m, f);
      break;
    case FD::CPPTYPE_MESSAGE:
      v = read(rep ? r->GetRepeatedMessage(m, f, idx) : r->GetMessage(m, f), t);
      break;
  }
  return v;
}

struct Impl {
  static constexpr bool user_data = true;
  static std::string reason(DatasetId) {
    return "built-in datasets are timed with protoc-generated classes (the protobuf row); "
           "protobuf-dynamic takes user datasets";
  }
  gp::DescriptorPool pool;
  gp::DynamicMessageFactory factory{&pool};
  std::unique_ptr<gp::Message> enc, dec;
  const Type* type = nullptr;
  const Type* u_message = nullptr;
  Type root_type;  // Root { value = 1 } around a top-level value that is not a record

  std::string configure(const UserTypes& u) {
    std::string na = u.schema_unavailable("proto", "protobuf");
    if (!na.empty()) return na;
    const auto& s = u.schemas.at("proto");
    if (!s.contains("descriptor_set"))
      return "protobuf: the dataset's proto schema has no descriptor_set";
    std::ifstream in(s.at("descriptor_set").get<std::string>(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    gp::FileDescriptorSet set;
    if (!in || !set.ParseFromString(ss.str())) return "protobuf: cannot read the descriptor_set";
    for (const auto& file : set.file())
      if (!pool.FindFileByName(file.name()) && !pool.BuildFile(file))
        return "protobuf: descriptor_set file " + file.name() + " does not build";
    std::string name = s.value("message", std::string("Root"));
    const gp::Descriptor* d = pool.FindMessageTypeByName(name);
    for (int i = 0; !d && i < set.file_size(); ++i)
      if (!set.file(i).package().empty())
        d = pool.FindMessageTypeByName(set.file(i).package() + "." + name);
    if (!d) return "protobuf: no message " + name + " in the descriptor_set";
    enc.reset(factory.GetPrototype(d)->New());
    dec.reset(factory.GetPrototype(d)->New());
    type = u_message = u.message;
    if (type->kind != Type::Record) {
      root_type.kind = Type::Record;
      root_type.name = "Root";
      root_type.fields = {{"value", u.message}};
      type = &root_type;
    }
    return "";
  }
  std::string reject(const Value& v) {
    return find_typed(v, u_message, "$", [](const Value& x, const Type* t, const std::string& at) {
      if (x.k == Value::K::BigInt) return "protobuf: " + x.s + " exceeds 64 bits at " + at;
      // list<null> is a repeated bool that stays empty: a null in it has no encoding
      if (t && t->kind == Type::List && t->elem->kind == Type::Null && !x.a.empty())
        return "protobuf: nulls in a list (a repeated bool field) at " + at;
      return std::string();
    });
  }
  void encode(const Value& v, Bytes& out) {
    enc->Clear();
    if (type == &root_type) {  // a non-record top-level value is field 1 of Root
      fill_field(*enc, field_no(enc->GetDescriptor(), 1), v, u_message);
    } else {
      fill(*enc, v, *type);
    }
    size_t n = enc->ByteSizeLong(), old = out.size();
    out.resize(old + n);
    enc->SerializeWithCachedSizesToArray(out.data() + old);
  }
  size_t decode(const uint8_t* p, size_t n, Value& out) {
    if (!dec->ParseFromArray(p, static_cast<int>(n))) throw DecodeError("protobuf: parse failed");
    out = read(*dec, *type);
    if (type == &root_type) {
      Value inner = std::move(out.o[0].second);
      out = std::move(inner);
    }
    return n;
  }
};

}  // namespace

SerializerEntry reg_protobuf_dynamic() {
  return make_entry<Impl>({"protobuf-dynamic",
                           "protobuf",
                           "libprotobuf (DynamicMessageFactory)",
                           std::to_string(GOOGLE_PROTOBUF_VERSION / 1000000) + "." +
                               std::to_string(GOOGLE_PROTOBUF_VERSION / 1000 % 1000) + "." +
                               std::to_string(GOOGLE_PROTOBUF_VERSION % 1000),
                           {"binary", "schema-required", "copying-decode", "dynamic"},
                           lib_footprint({"libprotobuf.so"})});
}
}  // namespace sb
