// One cell: a serializer on a dataset, checked at prepare time, then its operations.
import { readFileSync, writeFileSync } from "node:fs";
import { COMPRESSORS, type Transform } from "./compress.js";
import { Growable, forEachFrame, varintSize } from "./framing.js";
import { firstDifference, loadNative, type Dataset } from "./model.js";
import type { Codec } from "./serializers/base.js";
import { makeLoop, type Loop, type Op } from "./timing.js";

export const OPERATIONS = ["encode", "decode"].concat(
  ...Object.keys(COMPRESSORS).map((c) => [`encode+${c}`, `${c}+decode`]),
);

const identity = (v: unknown) => v;

interface KitDeps {
  Growable: typeof Growable;
  COMPRESSORS: typeof COMPRESSORS;
  forEachFrame: typeof forEachFrame;
  varintSize: typeof varintSize;
}

/**
 * The code a cell runs inside its timed operations: the message loops and the operation
 * closures. The orchestrator keeps many cells in one process and interleaves them; V8
 * keeps type feedback per function instance, so shared loops would see every cell's
 * codec and go megamorphic. `freshKit` compiles this function's source anew for each
 * cell (new SharedFunctionInfos, new feedback); the source must therefore use nothing
 * from outside but its `deps`.
 */
function cellKit(deps: KitDeps) {
  const { Growable, COMPRESSORS, forEachFrame, varintSize } = deps;

  class Prepared {
    readonly bare: boolean;
    constructor(
      readonly codec: Codec,
      readonly framing: "single" | "stream",
      readonly messages: unknown[],
      readonly count: number,
    ) {
      this.bare = codec.decodeConcatenated !== undefined;
    }

    encodeAll(compress?: Transform): Uint8Array {
      const { codec, messages, count } = this;
      if (this.framing === "single") {
        const data = codec.encode(messages[0]);
        return compress ? compress(data) : data;
      }
      const out = new Growable();
      const k = messages.length;
      if (compress) {
        for (let i = 0; i < count; i++) {
          const frame = compress(codec.encode(messages[i % k]));
          out.varint(frame.length);
          out.put(frame);
        }
      } else if (this.bare) {
        for (let i = 0; i < count; i++) out.put(codec.encode(messages[i % k]));
      } else {
        for (let i = 0; i < count; i++) {
          const data = codec.encode(messages[i % k]);
          out.varint(data.length);
          out.put(data);
        }
      }
      return out.finish();
    }

    /** Decodes the whole buffer, passing every message to `each`. */
    decodeAll(buf: Uint8Array, each: (v: unknown) => void, decompress?: Transform): void {
      const codec = this.codec;
      if (this.framing === "single") {
        each(codec.decode(decompress ? decompress(buf) : buf));
      } else if (decompress) {
        forEachFrame(buf, (f) => each(codec.decode(decompress(f))));
      } else if (codec.decodeConcatenated) {
        codec.decodeConcatenated(buf, each);
      } else {
        forEachFrame(buf, (f) => each(codec.decode(f)));
      }
    }

    /** Size of the encode+c output, computed per distinct message (streams repeat items). */
    compressedSize(compress: Transform): number {
      if (this.framing === "single") return compress(this.codec.encode(this.messages[0])).length;
      const k = this.messages.length;
      let total = 0;
      this.messages.forEach((m, j) => {
        const frame = compress(this.codec.encode(m));
        const repeats = Math.floor(this.count / k) + (j < this.count % k ? 1 : 0);
        total += repeats * (varintSize(frame.length) + frame.length);
      });
      return total;
    }
  }

  function drainer(): (v: unknown) => void {
    const box = { v: undefined as unknown };
    return (v) => {
      box.v = v;
    };
  }

  /** A closure running one operation once over the whole dataset. */
  function operation(prepared: Prepared, name: string, encoded: Uint8Array): Op {
    if (name === "encode") return () => prepared.encodeAll();
    const each = drainer();
    if (name === "decode") return () => prepared.decodeAll(encoded, each);
    const [left, right] = name.split("+");
    if (left === "encode") {
      const compress = COMPRESSORS[right][0];
      return () => prepared.encodeAll(compress);
    }
    const [compress, decompress] = COMPRESSORS[left];
    const packed = prepared.encodeAll(compress);
    return () => prepared.decodeAll(packed, each, decompress);
  }

  return { Prepared, operation };
}

type Kit = ReturnType<typeof cellKit>;
const KIT_SOURCE = cellKit.toString();
const FRAMES_SOURCE = forEachFrame.toString();
let kits = 0;

/** A new instance of cellKit's code (and of forEachFrame, which calls back per frame). */
function freshKit(): Kit {
  kits++;
  const frames = new Function(`/* cell ${kits} */ return ${FRAMES_SOURCE};`)();
  const make = new Function("deps", `/* cell ${kits} */ return (${KIT_SOURCE})(deps);`);
  return make({ Growable, COMPRESSORS, forEachFrame: frames, varintSize }) as Kit;
}

/** The module's own instance, for one-shot uses (transport). */
export const Prepared = cellKit({ Growable, COMPRESSORS, forEachFrame, varintSize }).Prepared;
export type Prepared = InstanceType<Kit["Prepared"]>;

function compare(prepared: Prepared, encoded: Uint8Array, expected: unknown[], count: number) {
  const toNative = prepared.codec.toNative ?? identity;
  let n = 0;
  let failure: string | null = null;
  try {
    prepared.decodeAll(encoded, (value) => {
      if (failure !== null) return;
      if (n >= count) {
        failure = `decoded more than the ${count} messages encoded`;
        return;
      }
      const diff = firstDifference(expected[n % expected.length], toNative(value));
      if (diff) failure = count > 1 ? `message ${n}: ${diff}` : diff;
      n++;
    });
  } catch (e) {
    // A library that throws on the bytes (its own or another runner's) fails the check.
    const where = count > 1 ? `message ${n}: $` : "$";
    return { ok: false, detail: `cannot decode: ${where}: ${String(e)}`.slice(0, 300) };
  }
  if (failure !== null) return { ok: false, detail: failure as string };
  if (n !== count) return { ok: false, detail: `decoded ${n} messages, expected ${count}` };
  return { ok: true, detail: `${count} message(s) equal` };
}

export interface CellOp {
  op: Op;
  loop: Loop;
}

type Check = { ok: boolean; detail: string };

export interface PrepareResult {
  reply: {
    status: "ok" | "check_failed";
    /** null when the prepare did not verify. */
    check: Check | null;
    messages: number;
    sizes: Record<string, number>;
    unsupported: string[];
    error: null;
  };
  ops: Map<string, CellOp>;
}

export function prepareCell(
  codec: Codec,
  ds: Dataset,
  dataPath: string,
  checkPath: string,
  operations: string[],
  dumpPath: string | null,
  decodeFrom: string | null,
  verify = true,
): PrepareResult {
  const loaded = loadNative(dataPath, ds);
  const prep = codec.prepare ?? identity;
  const kit = freshKit();
  const prepared = new kit.Prepared(codec, loaded.framing, loaded.items.map(prep), loaded.count);
  let encoded: Uint8Array;
  if (decodeFrom !== null) {
    encoded = new Uint8Array(readFileSync(decodeFrom));
  } else {
    encoded = prepared.encodeAll();
    // Keep our own copy: some libraries return views of a buffer they reuse.
    encoded = Uint8Array.prototype.slice.call(encoded);
  }
  // verify=false: an earlier process of the run holds this cell's check and sizes, which
  // would come out the same here; only the bytes are needed, so the check data, the decode
  // and the compressions are skipped. decode_from ignores it: checking those is its point.
  const checked = verify || decodeFrom !== null;
  let check: Check | null = null;
  if (checked) {
    const expected = checkPath === dataPath ? loaded.items : loadNative(checkPath, ds).items;
    check = compare(prepared, encoded, expected, loaded.count);
  }
  const ok = check === null || check.ok;
  const ops = new Map<string, CellOp>();
  if (decodeFrom !== null) {
    if (ok && operations.includes("decode"))
      ops.set("decode", { op: kit.operation(prepared, "decode", encoded), loop: makeLoop() });
    return {
      reply: {
        status: ok ? "ok" : "check_failed",
        check,
        messages: loaded.count,
        sizes: { encoded: encoded.length },
        unsupported: operations.filter((o) => o !== "decode"),
        error: null,
      },
      ops,
    };
  }
  if (dumpPath) writeFileSync(dumpPath, encoded);
  const sizes: Record<string, number> = { encoded: encoded.length };
  if (checked)
    for (const [c, [compress]] of Object.entries(COMPRESSORS))
      sizes[c] = prepared.compressedSize(compress);
  if (ok)
    for (const name of operations)
      ops.set(name, { op: kit.operation(prepared, name, encoded), loop: makeLoop() });
  return {
    reply: {
      status: ok ? "ok" : "check_failed",
      check,
      messages: loaded.count,
      sizes,
      unsupported: [],
      error: null,
    },
    ops,
  };
}
