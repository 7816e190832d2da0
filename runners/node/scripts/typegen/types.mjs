// types.json's type expressions, and their TypeScript spelling.

const PRIM = new Set(
  "int32 uint32 int64 uint64 bigint bool string timestamp_ms float32 float64 bytes null any".split(
    " ",
  ),
);

export function parse(type, types) {
  const t = type.replace(/\s+/g, "");
  const inner = (p) => t.slice(p.length, -1);
  if (t.startsWith("list<")) return { kind: "list", of: parse(inner("list<"), types) };
  if (t.startsWith("map<string,")) return { kind: "map", of: parse(inner("map<string,"), types) };
  if (t.startsWith("optional<")) return { kind: "optional", of: parse(inner("optional<"), types) };
  if (PRIM.has(t)) return { kind: "prim", name: t };
  const def = types[t];
  if (!def) throw new Error(`unknown type ${JSON.stringify(t)}`);
  return "enum" in def ? { kind: "enum", name: t, symbols: def.enum } : { kind: "record", name: t };
}

export const ident = (n) => {
  const s = n.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[0-9]/.test(s) || s === "" ? `_${s}` : s;
};
export const tsName = (n) => `T_${ident(n)}`;
export const prop = (n) =>
  /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(n) ? `.${n}` : `[${JSON.stringify(n)}]`;
export const key = (n) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(n) ? n : JSON.stringify(n));

export function tsType(s) {
  switch (s.kind) {
    case "list":
      return `${tsType(s.of)}[]`;
    case "map":
      return `Record<string, ${tsType(s.of)}>`;
    case "optional":
      return `${tsType(s.of)} | null`;
    case "enum":
      return "number";
    case "record":
      return tsName(s.name);
    default:
      return {
        int32: "number",
        uint32: "number",
        float32: "number",
        float64: "number",
        int64: "number | bigint",
        uint64: "number | bigint",
        bigint: "number | bigint",
        bool: "boolean",
        string: "string",
        timestamp_ms: "Date",
        bytes: "Uint8Array",
        null: "null",
        any: "unknown",
      }[s.name];
  }
}

export function interfaces(ds) {
  return Object.entries(ds.types)
    .map(([name, def]) =>
      "enum" in def
        ? `/** ${name}: ordinal of ${def.enum.map((s) => JSON.stringify(s)).join(", ")}. */\n` +
          `export type ${tsName(name)} = number;`
        : `export interface ${tsName(name)} {\n` +
          def.record.map(([f, t]) => `  ${key(f)}: ${tsType(parse(t, ds.types))};`).join("\n") +
          "\n}",
    )
    .join("\n\n");
}
