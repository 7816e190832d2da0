// Protobuf glue: native values <-> protobufjs message objects.
import { ident, key, parse, prop, tsName } from "./types.mjs";

/**
 * The walk of protocol section 7: a record is the message of its name whose k-th field is
 * the record's k-th field named as an identifier; `root` wraps a message that is not a
 * record (built-ins name the wrapper in types.json "schema.root", user datasets use
 * Root.value); `overrides` are types.json's "schema.field_types.protobuf".
 */
export function protobufGlue(ds, message, rootName, overrides) {
  let n = 0;
  const fresh = () => `v${n++}`;
  const preps = {};
  const nats = {};
  const prep = (s, e, where) => {
    switch (s.kind) {
      case "prim":
        if (s.name === "any" || s.name === "bigint") throw new Error(`protobuf: no ${s.name} type`);
        if (s.name === "bool" && overrides[where] === "int32") return `(${e} ? 1 : 0)`;
        if (s.name === "int64" || s.name === "uint64")
          return `toLong(${e}, ${s.name === "uint64"})`;
        if (s.name === "timestamp_ms") return `${e}.getTime()`;
        if (s.name === "null") return "undefined";
        return e;
      case "enum":
        return e;
      case "optional": {
        const x = fresh();
        return `((${x}) => (${x} === null ? undefined : ${prep(s.of, x, where)}))(${e})`;
      }
      case "list": {
        const x = fresh();
        const inner = prep(s.of, x, where);
        return inner === x ? e : `${e}.map((${x}: any) => ${inner})`;
      }
      case "map": {
        const x = fresh();
        const inner = prep(s.of, x, where);
        return inner === x ? e : `mapValues(${e}, (${x}: any) => ${inner})`;
      }
      case "record":
        record(s.name);
        return `p_${ident(s.name)}(${e})`;
    }
  };
  const nat = (s, e, where) => {
    switch (s.kind) {
      case "prim":
        if (s.name === "bool" && overrides[where] === "int32") return `(${e} === 1)`;
        if (s.name === "int64" || s.name === "uint64") return `fromLong(${e})`;
        if (s.name === "timestamp_ms") return `new Date(Number(fromLong(${e})))`;
        if (s.name === "bytes") return `new Uint8Array(${e})`;
        if (s.name === "null") return "null";
        return e;
      case "enum":
        return e;
      case "optional":
        throw new Error("optional handled by its field");
      case "list": {
        const x = fresh();
        return `(${e} ?? []).map((${x}: any) => ${nat(s.of, x, where)})`;
      }
      case "map": {
        const x = fresh();
        return `mapValues(${e} ?? {}, (${x}: any) => ${nat(s.of, x, where)})`;
      }
      case "record":
        record(s.name);
        return `n_${ident(s.name)}(${e})`;
    }
  };
  const field = (s, m, f, where) => {
    const e = `${m}${prop(f)}`;
    if (s.kind !== "optional") return nat(s, e, where);
    return `(has(${m}, ${JSON.stringify(f)}) && ${e} != null ? ${nat(s.of, e, where)} : null)`;
  };
  const record = (name) => {
    if (name in preps) return;
    preps[name] = "";
    const fields = ds.types[name].record.map(([f, t]) => [f, parse(t, ds.types)]);
    preps[name] = fields
      .map(([f, s]) => `    ${key(ident(f))}: ${prep(s, `v${prop(f)}`, `${name}.${f}`)},`)
      .join("\n");
    nats[name] = fields
      .map(([f, s]) => `    ${key(f)}: ${field(s, "m", ident(f), `${name}.${f}`)},`)
      .join("\n");
  };
  const top = parse(message, ds.types);
  let prepare, toNative;
  try {
    if (top.kind === "record" && !rootName) {
      record(top.name);
      rootName = top.name;
      prepare = `p_${ident(top.name)}(m)`;
      toNative = `n_${ident(top.name)}(d)`;
    } else {
      const [wrapper, f] = rootName;
      rootName = wrapper;
      prepare = `types[${JSON.stringify(wrapper)}].create({ ${key(f)}: ${prep(top, "m", "")} })`;
      toNative = nat(top, `d${prop(f)}`, "");
    }
  } catch (e) {
    return `export const protobuf = ${JSON.stringify(e.message)};\n`;
  }
  const fns = Object.keys(preps).map(
    (r) =>
      `  const p_${ident(r)} = (v: ${tsName(r)}): any =>\n    types[${JSON.stringify(r)}].create({\n${preps[r]}\n  });\n` +
      `  const n_${ident(r)} = (m: any): ${tsName(r)} => ({\n${nats[r]}\n  });`,
  );
  return (
    `export function protobuf(types: Record<string, PbType>): PbGlue {\n${fns.join("\n")}\n` +
    `  return {\n    type: types[${JSON.stringify(rootName)}],\n` +
    `    prepare: (m: Message) => ${prepare},\n    toNative: (d: any): Message => ${toNative},\n  };\n}\n`
  );
}
