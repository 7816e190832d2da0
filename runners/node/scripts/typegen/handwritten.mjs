// The field-by-field binary codec of the `handwritten` row (src/typed/wire.ts at run time).
import { ident, key, parse, prop, tsName } from "./types.mjs";

// What types.json cannot say: the S1 seed's hand-written layout writes a string's length
// in two bytes (the Parcelable stand-in); everything else uses four.
const SEED_STRING_WIDTH = { "android-users": 2 };

export function handwritten(ds, message) {
  const width = SEED_STRING_WIDTH[ds.name] ?? 4;
  const strArg = width === 2 ? "2" : "";
  let n = 0;
  const fresh = () => `v${n++}`;
  const writes = {}; // record name -> body
  const reads = {};
  const enc = (s, e, path) => {
    switch (s.kind) {
      case "prim":
        if (s.name === "any")
          throw new Error(`handwritten: ${path} is any: a field-by-field layout needs its type`);
        return {
          int32: `w.i32(${e});`,
          uint32: `w.u32(${e});`,
          int64: `w.i64(${e});`,
          timestamp_ms: `w.i64(${e}.getTime());`,
          uint64: `w.u64(${e});`,
          bigint: `w.str(String(${e}));`,
          bool: `w.bool(${e});`,
          string: `w.str(${e}${strArg ? ", " + strArg : ""});`,
          float32: `w.f32(${e});`,
          float64: `w.f64(${e});`,
          bytes: `w.bytes(${e});`,
          null: "",
        }[s.name];
      case "enum":
        return s.symbols.length > 256 ? `w.u16(${e});` : `w.u8(${e});`;
      case "optional": {
        const x = fresh();
        return `{ const ${x} = ${e}; if (${x} === null) w.u8(0); else { w.u8(1); ${enc(s.of, x, path)} } }`;
      }
      case "list": {
        const [a, x] = [fresh(), fresh()];
        const each = enc(s.of, x, `${path}[*]`);
        if (!each) return `w.u32(${e}.length);`; // list<null>: the count says it all
        return `{ const ${a} = ${e}; w.u32(${a}.length); for (const ${x} of ${a}) { ${each} } }`;
      }
      case "map": {
        const [m, k, c] = [fresh(), fresh(), fresh()];
        return (
          `{ const ${m} = ${e}; const ${k} = Object.keys(${m}); w.u32(${k}.length); ` +
          `for (const ${c} of ${k}) { w.str(${c}); ${enc(s.of, `${m}[${c}]`, `${path}.*`)} } }`
        );
      }
      case "record":
        record(s.name, path);
        return `w_${ident(s.name)}(w, ${e});`;
    }
  };
  const dec = (s) => {
    switch (s.kind) {
      case "prim":
        return {
          int32: "r.i32()",
          uint32: "r.u32()",
          int64: "r.i64()",
          timestamp_ms: "new Date(Number(r.i64()))",
          uint64: "r.u64()",
          bigint: "exact(BigInt(r.str()))",
          bool: "r.bool()",
          string: `r.str(${strArg})`,
          float32: "r.f32()",
          float64: "r.f64()",
          bytes: "r.bytes()",
          null: "null",
        }[s.name];
      case "enum":
        return s.symbols.length > 256 ? "r.u16()" : "r.u8()";
      case "optional":
        return `(r.u8() === 0 ? null : ${dec(s.of)})`;
      case "list":
        return `r.list(() => ${dec(s.of)})`;
      case "map":
        return `r.map(() => ${dec(s.of)})`;
      case "record":
        return `r_${ident(s.name)}(r)`;
    }
  };
  const record = (name, path) => {
    if (name in writes) return;
    writes[name] = "";
    const fields = ds.types[name].record.map(([f, t]) => [f, parse(t, ds.types)]);
    writes[name] = fields.map(([f, s]) => "  " + enc(s, `v${prop(f)}`, `${path}.${f}`)).join("\n");
    reads[name] = fields.map(([f, s]) => `    ${key(f)}: ${dec(s)},`).join("\n");
  };
  const top = parse(message, ds.types);
  let body;
  try {
    body = enc(top, "m", "$");
  } catch (e) {
    return `export const handwritten = ${JSON.stringify(e.message)};\n`;
  }
  const fns = Object.keys(writes).map(
    (r) =>
      `function w_${ident(r)}(w: Writer, v: ${tsName(r)}): void {\n${writes[r]}\n}\n` +
      `function r_${ident(r)}(r: Reader): ${tsName(r)} {\n  return {\n${reads[r]}\n  };\n}`,
  );
  return (
    fns.join("\n") +
    `\nlet hint = 16;\nexport const handwritten: Codec = {\n` +
    `  encode(m: Message): Uint8Array {\n    const w = new Writer(hint);\n    ${body}\n` +
    `    const out = w.finish();\n    if (out.length > hint) hint = out.length;\n    return out;\n  },\n` +
    `  decode(b: Uint8Array): Message {\n    const r = new Reader(b);\n    return ${dec(top)};\n  },\n};\n`
  );
}
