// protobufjs through reflection: the .proto is parsed at run time (protobuf.loadSync,
// field names kept as written) and messages are built and read through the reflected
// Type. Built-in datasets share the static row's mappings; user datasets are walked
// along their types.json, field k of a record being the k-th proto field.
import { join } from "node:path";
import protobuf from "protobufjs";
import { BUILTIN, messageShape, type Dataset, type Shape } from "../model.js";
import { SCHEMAS_DIR } from "../paths.js";
import { NotApplicable, type Codec } from "./base.js";
import { fromLong, type PbType } from "../typed/glue.js";
import { protobufCodec } from "../typed/protobuf.js";

const ident = (name: string) => {
  const s = name.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[0-9]/.test(s) ? `_${s}` : s;
};

function load(path: string): protobuf.Root {
  return new protobuf.Root().loadSync(path, { keepCase: true });
}

const roots = new Map<string, protobuf.Root>();

/** Built-ins: the reflected types of the dataset's .proto, by message name. */
function reflected(pkg: string): Record<string, PbType> {
  const dir = pkg.replace(/_/g, "-");
  let root = roots.get(dir);
  if (!root) {
    root = load(join(SCHEMAS_DIR, dir, `${pkg}.proto`));
    roots.set(dir, root);
  }
  const ns = root.lookup(`serbench.${pkg}`) as protobuf.Namespace;
  return Object.fromEntries(
    ns.nestedArray.filter((t) => t instanceof protobuf.Type).map((t) => [t.name, t]),
  ) as unknown as Record<string, PbType>;
}

/** Native value -> a plain object protobufjs's fromObject takes, along the shape. */
function toProto(v: unknown, s: Shape): unknown {
  switch (s.kind) {
    case "prim":
      if (s.name === "timestamp_ms") return (v as Date).getTime();
      if (s.name === "int64" || s.name === "uint64")
        return typeof v === "bigint" ? v.toString() : v;
      return v;
    case "enum":
      return v;
    case "optional":
      return v === null ? undefined : toProto(v, s.of);
    case "list":
      return (v as unknown[]).map((x) => toProto(x, s.of));
    case "map": {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as object)) out[k] = toProto(x, s.of);
      return out;
    }
    case "record": {
      const out: Record<string, unknown> = {};
      for (const [n, t] of s.fields) {
        const x = toProto((v as Record<string, unknown>)[n], t);
        if (x !== undefined) out[ident(n)] = x;
      }
      return out;
    }
  }
}

function fromProto(v: unknown, s: Shape, present = true): unknown {
  switch (s.kind) {
    case "prim":
      // Type `null` is an `optional bool` never set (protocol section 7).
      if (s.name === "null") return null;
      if (s.name === "timestamp_ms") return new Date(Number(fromLong(v)));
      if (s.name === "int64" || s.name === "uint64") return fromLong(v);
      if (s.name === "bytes") return new Uint8Array(v as Uint8Array);
      return v;
    case "enum":
      return v;
    case "optional":
      return present && v !== null && v !== undefined ? fromProto(v, s.of) : null;
    case "list":
      return ((v as unknown[]) ?? []).map((x) => fromProto(x, s.of));
    case "map": {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries((v as object) ?? {})) out[k] = fromProto(x, s.of);
      return out;
    }
    case "record": {
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [n, t] of s.fields) {
        const key = ident(n);
        out[n] = fromProto(o[key], t, Object.prototype.hasOwnProperty.call(o, key));
      }
      return out;
    }
  }
}

function userCodec(ds: Dataset): Codec {
  const spec = ds.schemas.proto;
  // The orchestrator's reason already names the format.
  if (spec?.unavailable) throw new NotApplicable(spec.unavailable);
  if (!spec?.path) throw new NotApplicable("protobuf: the dataset has no .proto schema");
  const root = load(spec.path);
  const type = root.lookupType(spec.message ?? "Root");
  let shape = messageShape(ds.types);
  if (shape.kind !== "record") shape = { kind: "record", name: "Root", fields: [["value", shape]] };
  const wrapped = messageShape(ds.types).kind !== "record";
  return {
    prepare: (m) => type.fromObject(toProto(wrapped ? { value: m } : m, shape) as object),
    encode: (m) => type.encode(m).finish(),
    decode: (b) => type.decode(b),
    toNative(d) {
      const plain = type.toObject(d as protobuf.Message, {
        defaults: true,
        arrays: true,
        objects: true,
      });
      const native = fromProto(plain, shape) as Record<string, unknown>;
      return wrapped ? native.value : native;
    },
  };
}

export function protobufReflect(ds: Dataset): Codec {
  if (ds.kind === "user") return userCodec(ds);
  if (!(ds.name in BUILTIN)) throw new NotApplicable(`no .proto for ${ds.name}`);
  return protobufCodec(ds, (pkg) => reflected(pkg));
}
