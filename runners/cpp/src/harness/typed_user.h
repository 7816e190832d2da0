// User datasets in the generated typed model (kUserModels): which model a dataset has, and
// its items converted from the generic value tree (types applied) to the typed values.
#pragma once

#include <string>

#include "serbench/user_model.h"
#include "serializer.h"
#include "user.h"

namespace sb {

// The index into kUserModels of the dataset's model, or why it has none (empty `why`: found).
// A model is the dataset's when it was generated from the very types file the prepare
// command names (FNV-1a of its bytes).
size_t find_user_model(const std::string& name, const std::string& types_path, std::string& why);

[[noreturn]] void typed_mismatch(const std::string& path, const char* want, const Value& got);

template <class T>
void from_value(const Value& v, T& out, const std::string& path) {
  using K = Value::K;
  auto integer = [&](auto& dst) {
    using I = std::remove_reference_t<decltype(dst)>;
    if (v.k == K::Int) {
      dst = static_cast<I>(v.i);
    } else if (v.k == K::Uint) {
      dst = static_cast<I>(v.u);
    } else {
      typed_mismatch(path, "an integer", v);
    }
  };
  if constexpr (std::is_same_v<T, bool>) {
    if (v.k != K::Bool) typed_mismatch(path, "a boolean", v);
    out = v.b;
  } else if constexpr (std::is_enum_v<T>) {
    int64_t i = 0;
    integer(i);
    out = static_cast<T>(i);
  } else if constexpr (std::is_integral_v<T>) {
    integer(out);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (v.k == K::Float) {
      out = static_cast<T>(v.f);
    } else if (v.k == K::Int) {
      out = static_cast<T>(v.i);
    } else if (v.k == K::Uint) {
      out = static_cast<T>(v.u);
    } else {
      typed_mismatch(path, "a number", v);
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (v.k != K::String) typed_mismatch(path, "a string", v);
    out = v.s;
  } else if constexpr (std::is_same_v<T, Blob>) {
    if (v.k != K::Bytes) typed_mismatch(path, "bytes", v);
    out.assign(v.s.begin(), v.s.end());
  } else if constexpr (is_timestamp_v<T>) {
    if (v.k != K::Timestamp) typed_mismatch(path, "a date-time", v);
    out = Timestamp(std::chrono::milliseconds(v.i));
  } else if constexpr (is_optional<T>::value) {
    if (v.k == K::Null) {
      out.reset();
    } else {
      from_value(v, out.emplace(), path);
    }
  } else if constexpr (is_vector<T>::value) {
    if (v.k != K::Array) typed_mismatch(path, "an array", v);
    out.clear();
    out.resize(v.a.size());
    for (size_t i = 0; i < v.a.size(); ++i)
      from_value(v.a[i], out[i], path + "[" + std::to_string(i) + "]");
  } else if constexpr (is_map<T>::value) {
    if (v.k != K::Object) typed_mismatch(path, "an object", v);
    out.clear();
    for (const auto& [k, x] : v.o) from_value(x, out[k], path + key_path(k));
  } else if constexpr (std::is_same_v<T, Null>) {
    if (v.k != K::Null) typed_mismatch(path, "null", v);
  } else {
    static_assert(is_record_v<T>);
    // apply_types put the fields in declaration order, absent optionals as null
    if (v.k != K::Object || v.o.size() != field_count<T>()) typed_mismatch(path, "a record", v);
    size_t i = 0;
    for_each_field(out, [&](const char* name, auto& m) {
      from_value(v.o[i++].second, m, path + key_path(name));
    });
  }
}

// The registry entry of a library whose encode/decode are templates over the reflection:
// it runs on user datasets through the generated model.
template <class Impl>
SerializerEntry typed_entry(Meta meta) {
  SerializerEntry e = make_entry<Impl>(std::move(meta));
  e.user_reason.clear();
  e.make_typed_user = [](size_t i) {
    return dispatch_user_model(i, [](auto tag) -> std::unique_ptr<CodecBase> {
      return std::make_unique<Adapter<Impl, typename decltype(tag)::type>>();
    });
  };
  return e;
}

// Where a typed schema row has no glue for a user model (its schema unavailable, not
// compiled into this build, or holding what typegen does not map): not applicable, saying why.
struct SchemaGlue {
  const char* kind;      // the schema kind of dataset.json ("proto", "thrift")
  const char* format;    // the format name reasons start with
  const char* compiler;  // what generates the classes
  const char* lib;       // names build/generated/serbench/user_glue_<lib>.h
  std::string missing() const {
    return std::string(format) + ": no " + compiler +
           " classes or generated glue for this dataset's typed model (its ." + kind +
           " is compiled when registered before `serbench build -r cpp`; "
           "build/generated/serbench/user_glue_" +
           lib + ".h names why a model has no glue)";
  }
};
// `why` (when not null): typegen's reason for a dataset whose schema the compiler refused.
template <class T>
struct NoSchemaGlue final : Codec<T> {
  SchemaGlue g;
  const char* why;
  NoSchemaGlue(SchemaGlue s, const char* w) : g(s), why(w) {}
  std::string missing() const { return why ? std::string(g.format) + ": " + why : g.missing(); }
  std::string configure(const UserTypes& u) override {
    std::string na = u.schema_unavailable(g.kind, g.format);
    return na.empty() ? missing() : na;
  }
  void encode(const T&, Bytes&) override { throw NotApplicable(missing()); }
  size_t decode(const uint8_t*, size_t, T&) override { throw NotApplicable(missing()); }
};
template <class G, class = void>
struct glue_why {
  static constexpr const char* value = nullptr;
};
template <class G>
struct glue_why<G, std::void_t<decltype(G::why)>> {
  static constexpr const char* value = G::why;
};

// Runs a generated-code row on user datasets: Impl for the models whose trait Glue<T> has
// generated glue, NoSchemaGlue for the others.
template <class Impl, template <class> class Glue>
void schema_typed_user(SerializerEntry& e, SchemaGlue g) {
  e.user_reason.clear();
  e.make_typed_user = [g](size_t i) {
    return dispatch_user_model(i, [g](auto tag) -> std::unique_ptr<CodecBase> {
      using T = typename decltype(tag)::type;
      if constexpr (Glue<T>::generated) {
        return std::make_unique<Adapter<Impl, T>>();
      } else {
        return std::make_unique<NoSchemaGlue<T>>(g, glue_why<Glue<T>>::value);
      }
    });
  };
}

template <class T>
Dataset<T> typed_dataset(const Dataset<Value>& d) {
  Dataset<T> out;
  out.name = d.name, out.framing = d.framing, out.count = d.count;
  out.items.resize(d.items.size());
  for (size_t i = 0; i < d.items.size(); ++i)
    from_value(d.items[i], out.items[i], "$[" + std::to_string(i) + "]");
  return out;
}

}  // namespace sb
