// Converters compiled once per dataset from its shape, walking values by their
// declared types: the seed's positional layout (records as arrays in field order, a
// single-field record as its bare value) and leaf rewrites (e.g. ISO strings to Dates).
import { child, type Shape } from "./model.js";

export type Convert = (v: any) => any;

/** Converters for one shape, or null where nothing below it changes. */
export function leafConverter(
  shape: Shape,
  leaf: (prim: string) => Convert | null,
  onEnum: (symbols: string[]) => Convert | null = () => null,
): Convert | null {
  const go = (s: Shape, depth: number): Convert | null => {
    if (depth > 100) throw new Error("type nesting too deep");
    switch (s.kind) {
      case "prim":
        return leaf(s.name);
      case "enum":
        return onEnum(s.symbols);
      case "optional": {
        const f = go(s.of, depth + 1);
        return f && ((v) => (v === null || v === undefined ? v : f(v)));
      }
      case "list": {
        const f = go(s.of, depth + 1);
        return f && ((v: unknown[]) => v.map(f));
      }
      case "map": {
        const f = go(s.of, depth + 1);
        if (!f) return null;
        return (v: Record<string, unknown>) => {
          const out: Record<string, unknown> = {};
          for (const k in v) out[k] = f(v[k]);
          return out;
        };
      }
      case "record": {
        const fs = s.fields.map(([n, t]) => [n, go(t, depth + 1)] as const);
        if (fs.every(([, f]) => f === null)) return null;
        return (v: Record<string, unknown>) => {
          const out: Record<string, unknown> = {};
          for (const [n, f] of fs) out[n] = f ? f(v[n]) : v[n];
          return out;
        };
      }
    }
  };
  return go(shape, 0);
}

/** (native -> positional arrays, positional arrays -> native) for one message. */
export function positional(shape: Shape): [Convert, Convert] {
  const id: Convert = (v) => v;
  const go = (s: Shape, depth: number): [Convert, Convert] | null => {
    if (depth > 100) throw new Error("type nesting too deep");
    switch (s.kind) {
      case "prim":
      case "enum":
        return null;
      case "optional": {
        const c = go(s.of, depth + 1);
        if (!c) return null;
        const [p, u] = c;
        return [(v) => (v === null ? v : p(v)), (v) => (v === null ? v : u(v))];
      }
      case "list": {
        const c = go(s.of, depth + 1);
        if (!c) return null;
        const [p, u] = c;
        return [(v: unknown[]) => v.map(p), (v: unknown[]) => v.map(u)];
      }
      case "map": {
        const c = go(s.of, depth + 1);
        if (!c) return null;
        const [p, u] = c;
        const each = (f: Convert) => (v: Record<string, unknown>) => {
          const out: Record<string, unknown> = {};
          for (const k in v) out[k] = f(v[k]);
          return out;
        };
        return [each(p), each(u)];
      }
      case "record": {
        const names = s.fields.map(([n]) => n);
        const convs = s.fields.map(([, t]) => go(t, depth + 1) ?? [id, id]);
        if (names.length === 1) {
          const [n] = names;
          const [[p, u]] = convs;
          return [(v) => p(v[n]), (v) => ({ [n]: u(v) })];
        }
        const k = names.length;
        return [
          (v) => {
            const out = new Array(k);
            for (let i = 0; i < k; i++) out[i] = convs[i][0](v[names[i]]);
            return out;
          },
          (v: unknown[]) => {
            const out: Record<string, unknown> = {};
            for (let i = 0; i < k; i++) out[names[i]] = convs[i][1](v[i]);
            return out;
          },
        ];
      }
    }
  };
  return go(shape, 0) ?? [id, id];
}

/** Walks a value along its shape; the first path where `bad` returns a reason, or null. */
export function scan(
  value: unknown,
  shape: Shape,
  bad: (prim: string, v: unknown) => string | null,
  path = "$",
): string | null {
  const anyBad = (v: unknown, p: string): string | null => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const r = anyBad(v[i], `${p}[${i}]`);
        if (r) return r;
      }
      return null;
    }
    if (v !== null && typeof v === "object" && !(v instanceof Uint8Array) && !(v instanceof Date)) {
      for (const [k, x] of Object.entries(v)) {
        const r = anyBad(x, `${p}.${k}`);
        if (r) return r;
      }
      return null;
    }
    const r = bad("any", v);
    return r && `${r} at ${p}`;
  };
  switch (shape.kind) {
    case "prim": {
      if (shape.name === "any") return anyBad(value, path);
      const r = bad(shape.name, value);
      return r && `${r} at ${path}`;
    }
    case "enum":
      return null;
    case "optional":
      return value === null ? null : scan(value, shape.of, bad, path);
    case "list": {
      const a = value as unknown[];
      for (let i = 0; i < a.length; i++) {
        const r = scan(a[i], shape.of, bad, `${path}[${i}]`);
        if (r) return r;
      }
      return null;
    }
    case "map":
      for (const [k, x] of Object.entries(value as object)) {
        const r = scan(x, shape.of, bad, `${path}.${k}`);
        if (r) return r;
      }
      return null;
    case "record":
      for (const [n, t] of shape.fields) {
        const r = scan((value as Record<string, unknown>)[n], t, bad, `${path}.${n}`);
        if (r) return r;
      }
      return null;
  }
}

/** Deep map over a generic value tree (`any`): leaves through `f`. */
export function mapAny(v: unknown, f: (leaf: unknown) => unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => mapAny(x, f));
  if (v !== null && typeof v === "object" && !(v instanceof Uint8Array) && !(v instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = mapAny(x, f);
    return out;
  }
  return f(v);
}

/** A string-keyed map of the generic value tree (not a list, date, byte array or null). */
export function isDocument(v: unknown): v is Record<string, unknown> {
  return (
    v !== null &&
    typeof v === "object" &&
    !Array.isArray(v) &&
    !(v instanceof Uint8Array) &&
    !(v instanceof Date)
  );
}

/** The path of the first map key (record fields included) for which `bad` holds, or null. */
export function firstKey(v: unknown, bad: (key: string) => boolean, path = "$"): string | null {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = firstKey(v[i], bad, child(path, i));
      if (r) return r;
    }
  } else if (isDocument(v)) {
    for (const [k, x] of Object.entries(v)) {
      const p = child(path, k);
      if (bad(k)) return p;
      const r = firstKey(x, bad, p);
      if (r) return r;
    }
  }
  return null;
}
