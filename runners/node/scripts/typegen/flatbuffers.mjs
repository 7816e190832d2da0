// FlatBuffers glue: native values <-> flatc's generated TypeScript.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ident, key, parse, prop, tsName } from "./types.mjs";

/**
 * The tables of a .fbs (name -> [[field, type]] in order), its namespace, and the text of
 * every class flatc wrote for it under `tsDir` (to find the names flatc gave: it escapes
 * TypeScript keywords, e.g. protected_()).
 */
export function parseFbs(text, tsDir) {
  const ns = /namespace\s+([\w.]+)\s*;/.exec(text)?.[1] ?? "";
  const tables = {};
  for (const m of text.matchAll(/table\s+(\w+)\s*\{([^}]*)\}/g))
    tables[m[1]] = [...m[2].matchAll(/(\w+)\s*:\s*(\[?\w+\]?)/g)].map((f) => [f[1], f[2]]);
  const classes = {};
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts")) {
        const t = readFileSync(p, "utf8");
        const c = /export class (\w+)/.exec(t);
        if (c) classes[c[1]] = t;
      }
    }
  };
  walk(tsDir);
  return { ns, tables, classes };
}

// The accessor argument that reads a string as its UTF-8 bytes in the buffer (no copy).
const UTF8 = "Encoding.UTF8_BYTES";

// flatc's TypeScript names: fooBar() reads field foo_bar, addFooBar() writes it.
const lowerCamel = (f) => {
  const c = f.replace(/_+([a-zA-Z0-9])/g, (_, x) => x.toUpperCase());
  return c[0].toLowerCase() + c.slice(1);
};
const upperCamel = (f) => {
  const c = lowerCamel(f);
  return c[0].toUpperCase() + c.slice(1);
};

/**
 * Walks the types and the .fbs side by side (protocol section 7): a record is the table of
 * its name with the record's fields in order; map<string,T> is a vector of the entry table
 * the .fbs names (key, value); `root` wraps a message that is not a record.
 */
export function flatbuffersGlue(ds, fbs, rootWrap) {
  const { tables, classes } = fbs;
  // flatc's name for a table's method, escaped where it is a TypeScript keyword.
  const method = (table, name) =>
    new RegExp(`\\b${name}\\(`).test(classes[table] ?? "") ? name : `${name}_`;
  const get_ = (table, field) => method(table, lowerCamel(field));
  /** Whether a vector field is present (vectors have no null): its vtable slot. */
  const present = (table, field) =>
    `t.bb!.__offset(t.bb_pos, ${4 + 2 * tables[table].findIndex(([f]) => f === field)}) !== 0`;
  let n = 0;
  const fresh = () => `v${n++}`;
  const writers = {};
  const readers = {};
  const touchers = {};
  const scalar = (s, e) => {
    if (s.kind === "enum") return e;
    switch (s.name) {
      case "int64":
      case "uint64":
        return `BigInt(${e})`;
      case "timestamp_ms":
        return `BigInt(${e}.getTime())`;
      case "null":
        return null;
      default:
        return e;
    }
  };
  const isScalar = (s) =>
    s.kind === "enum" || (s.kind === "prim" && !["string", "bytes"].includes(s.name));
  // An offset (children are written before their table), or null for a scalar.
  const child = (s, e, table, field) => {
    if (s.kind === "optional") {
      const inner = child(s.of, e, table, field);
      return inner && `(${e} === null ? 0 : ${inner})`;
    }
    if (isScalar(s)) return null;
    if (s.kind === "prim" && s.name === "string") return `b.createString(${e})`;
    if (s.kind === "prim" && s.name === "bytes")
      return `F.${table}.create${upperCamel(field)}Vector(b, ${e})`;
    if (s.kind === "record") {
      table_(s.name);
      return `fw_${ident(s.name)}(b, ${e})`;
    }
    const x = fresh();
    if (s.kind === "list") {
      // list<null> is a vector of bools never read (only its length says something).
      const el = isScalar(s.of) ? (scalar(s.of, x) ?? "false") : child(s.of, x, table, field);
      return `F.${table}.create${upperCamel(field)}Vector(b, ${e}.map((${x}: any) => ${el}))`;
    }
    // map<string,T>: the entry table the .fbs declares for the field.
    const entry = tables[table].find(([f]) => f === field)?.[1].slice(1, -1);
    if (!entry || !tables[entry])
      throw new Error(`flatbuffers: no entry table for ${table}.${field}`);
    const k = fresh();
    const value = isScalar(s.of) ? null : child(s.of, `${e}[${k}]`, entry, "value");
    const body = [
      `const ko = b.createString(${k});`,
      value ? `const vo = ${value};` : "",
      `F.${entry}.start${entry}(b);`,
      `F.${entry}.addKey(b, ko);`,
      value
        ? `if (vo) F.${entry}.addValue(b, vo);`
        : `F.${entry}.addValue(b, ${scalar(s.of, `${e}[${k}]`)});`,
      `return F.${entry}.end${entry}(b);`,
    ].join(" ");
    return `F.${table}.create${upperCamel(field)}Vector(b, Object.keys(${e}).map((${k}) => { ${body} }))`;
  };
  const read = (s, get, table, field) => {
    // `get(i)` reads element i of a vector field, `get()` the field itself.
    switch (s.kind) {
      case "optional": {
        if (s.of.kind === "list" || s.of.kind === "map")
          return `(${present(table, field)} ? ${read(s.of, get, table, field)} : null)`;
        const x = fresh();
        return `nullable(${get()}, (${x}: any) => ${read(s.of, () => x, table, field)})`;
      }
      case "enum":
        return get();
      case "prim":
        switch (s.name) {
          case "int64":
          case "uint64":
            return `exact(${get()})`;
          case "timestamp_ms":
            return `new Date(Number(${get()}))`;
          case "string":
            return `(${get()} as string)`;
          case "bytes":
            return `new Uint8Array(${get()})`;
          case "null":
            return "null";
          default:
            return get();
        }
      case "record":
        table_(s.name);
        return `fr_${ident(s.name)}(${get().endsWith("!") ? get() : `${get()}!`})`;
      case "list": {
        const i = fresh();
        const m = get_(table, field);
        return `vector(t.${m}Length(), (${i}) => ${read(s.of, () => `t.${m}(${i})!`, table, field)})`;
      }
      case "map": {
        const i = fresh();
        const m = get_(table, field);
        const entry = tables[table].find(([f]) => f === field)[1].slice(1, -1);
        return (
          `entries(t.${m}Length(), (${i}) => t.${m}(${i})!, ` +
          `(e: F.${entry}) => ${read(s.of, () => "e.value()", entry, "value")})`
        );
      }
    }
  };
  // Reads every field in place, building nothing: a number summing what it read (strings
  // as their UTF-8 bytes in the buffer, 64-bit integers by their truth), so that the access
  // row reads what the rust, go and cpp access rows read. `get(enc)` is the accessor call,
  // `enc` an extra argument (the string encoding) or "".
  const touch = (s, get, table, field) => {
    switch (s.kind) {
      case "optional": {
        if (s.of.kind === "list" || s.of.kind === "map")
          return `(${present(table, field)} ? ${touch(s.of, get, table, field)} : 0)`;
        const x = fresh();
        const enc = s.of.kind === "prim" && s.of.name === "string" ? UTF8 : "";
        return `touchNullable(${get(enc)}, (${x}: any) => ${touch(s.of, () => x, table, field)})`;
      }
      case "enum":
        return get("");
      case "prim":
        switch (s.name) {
          case "int64":
          case "uint64":
          case "timestamp_ms":
          case "bool":
            return `(${get("")} ? 1 : 0)`;
          case "string":
            return `utf8Bytes(${get(UTF8)})`;
          case "bytes":
            return `byteCount(${get("")})`;
          case "null":
            return "0";
          default:
            return get("");
        }
      case "record":
        table_(s.name);
        return `ft_${ident(s.name)}(${get("").endsWith("!") ? get("") : `${get("")}!`})`;
      case "list": {
        const i = fresh();
        const m = get_(table, field);
        const at = (enc) => `t.${m}(${[i, enc].filter(Boolean).join(", ")})!`;
        return `sum(t.${m}Length(), (${i}) => ${touch(s.of, at, table, field)})`;
      }
      case "map": {
        const i = fresh();
        const e = fresh();
        const m = get_(table, field);
        const entry = tables[table].find(([f]) => f === field)[1].slice(1, -1);
        const value = touch(s.of, (enc) => `${e}.value(${enc})`, entry, "value");
        return (
          `sum(t.${m}Length(), (${i}) => { const ${e} = t.${m}(${i})!; ` +
          `return utf8Bytes(${e}.key(${UTF8})) + ${value}; })`
        );
      }
    }
  };
  const table_ = (name) => {
    if (name in writers) return;
    if (!tables[name]) throw new Error(`flatbuffers: no table ${name}`);
    writers[name] = "";
    const fields = ds.types[name].record.map(([f, t]) => [f, ident(f), parse(t, ds.types)]);
    const offs = fields.map(([f, id, s]) => [id, s, child(s, `v${prop(f)}`, name, id)]);
    // Children are written vectors first, then strings and tables holding offsets, then
    // tables of scalars only: fewer alignment pad bytes (4 B per S2 Test4 message), and
    // the same bytes as the layouts written by hand before.
    const base = (s) => (s.kind === "optional" ? s.of : s);
    const rank = (s) => {
      const b = base(s);
      if (b.kind === "list" || b.kind === "map") return 0;
      if (b.kind !== "record") return 1;
      return ds.types[b.name].record.some(([, t]) => !isScalar(base(parse(t, ds.types)))) ? 1 : 2;
    };
    const lines = offs
      .filter(([, , o]) => o)
      .sort((a, b) => rank(a[1]) - rank(b[1]))
      .map(([id, , o]) => `  const o_${id} = ${o};`);
    lines.push(`  F.${name}.start${name}(b);`);
    for (const [[f], [id, s, o]] of fields.map((x, i) => [x, offs[i]])) {
      const add = `F.${name}.add${upperCamel(id)}`;
      if (o) lines.push(`  ${s.kind === "optional" ? `if (o_${id}) ` : ""}${add}(b, o_${id});`);
      else {
        const base = s.kind === "optional" ? s.of : s;
        const v = scalar(base, `v${prop(f)}`);
        if (v === null) continue;
        lines.push(
          s.kind === "optional"
            ? `  if (v${prop(f)} !== null) ${add}(b, ${v});`
            : `  ${add}(b, ${v});`,
        );
      }
    }
    lines.push(`  return F.${name}.end${name}(b);`);
    writers[name] = lines.join("\n");
    readers[name] = fields
      .map(([f, id, s]) => {
        const m = get_(name, id);
        const get = s.kind === "prim" && s.name === "bytes" ? `t.${m}Array() ?? []` : `t.${m}()`;
        return `    ${key(f)}: ${read(s, () => get, name, id)},`;
      })
      .join("\n");
    touchers[name] = fields
      .map(([, id, s]) => {
        const m = get_(name, id);
        const get =
          s.kind === "prim" && s.name === "bytes"
            ? () => `t.${m}Array()`
            : (enc) => `t.${m}(${enc})`;
        return `    ${touch(s, get, name, id)}`;
      })
      .join(" +\n");
  };
  const top = parse(ds.message, ds.types);
  let write, readRoot, touchRoot, root;
  try {
    if (top.kind === "record" && !rootWrap) {
      table_(top.name);
      root = top.name;
      write = `fw_${ident(top.name)}(b, m)`;
      readRoot = `fr_${ident(top.name)}(t)`;
      touchRoot = `ft_${ident(top.name)}(t)`;
    } else {
      const [wrapper, f] = rootWrap ?? ["Root", "value"];
      root = wrapper;
      if (!tables[wrapper]) throw new Error(`flatbuffers: no table ${wrapper}`);
      const o = child(top, "m", wrapper, f);
      write =
        `{ const o = ${o}; F.${wrapper}.start${wrapper}(b); F.${wrapper}.add${upperCamel(f)}(b, o);` +
        ` return F.${wrapper}.end${wrapper}(b); }`;
      readRoot = read(top, () => `t.${get_(wrapper, f)}()`, wrapper, f);
      touchRoot = touch(top, (enc) => `t.${get_(wrapper, f)}(${enc})`, wrapper, f);
    }
  } catch (e) {
    return `export const flatbuffers = ${JSON.stringify(e.message)};\n`;
  }
  const fns = Object.keys(writers).map(
    (r) =>
      `function fw_${ident(r)}(b: Builder, v: ${tsName(r)}): number {\n${writers[r]}\n}\n` +
      `function fr_${ident(r)}(t: F.${r}): ${tsName(r)} {\n  return {\n${readers[r]}\n  };\n}\n` +
      `function ft_${ident(r)}(t: F.${r}): number {\n  return (\n${touchers[r] || "    0"}\n  );\n}`,
  );
  const writeBody = write.startsWith("{") ? write.slice(1, -1) : `return ${write};`;
  return (
    fns.join("\n") +
    `\nexport const flatbuffers: FbLayout = {\n` +
    `  write(b: Builder, m: Message): number {\n    ${writeBody}\n  },\n` +
    `  root: (bb: ByteBuffer) => F.${root}.getRootAs${root}(bb),\n` +
    `  read(t: F.${root}): Message {\n    return ${readRoot};\n  },\n` +
    `  touch(t: F.${root}): number {\n    return ${touchRoot};\n  },\n};\n`
  );
}
