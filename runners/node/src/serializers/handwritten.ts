// A hand-written field-by-field binary writer/reader on Buffer (the Parcelable stand-in)
// for S1 and S2: little-endian fixed-width integers, strings as a length + UTF-8.
import type { Codec, Serializer } from "./base.js";

const view = (b: Uint8Array) =>
  Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);

interface User {
  id: number;
  name: string;
  age: number;
  gender: number;
  isMegane: boolean;
}

const users: Codec = {
  encode(list: User[]) {
    let cap = 4;
    for (const r of list) cap += 16 + 3 * r.name.length;
    const b = Buffer.allocUnsafe(cap);
    b.writeInt32LE(list.length, 0);
    let pos = 4;
    for (const r of list) {
      pos = b.writeBigInt64LE(BigInt(r.id), pos);
      const n = b.write(r.name, pos + 2, "utf8");
      b.writeUInt16LE(n, pos);
      pos += 2 + n;
      pos = b.writeInt32LE(r.age, pos);
      b[pos++] = r.gender;
      b[pos++] = r.isMegane ? 1 : 0;
    }
    return b.subarray(0, pos);
  },
  decode(data) {
    const b = view(data);
    const n = b.readInt32LE(0);
    const out: User[] = new Array(n);
    let pos = 4;
    for (let i = 0; i < n; i++) {
      const id = Number(b.readBigInt64LE(pos));
      const len = b.readUInt16LE(pos + 8);
      pos += 10;
      const name = b.toString("utf8", pos, pos + len);
      pos += len;
      const age = b.readInt32LE(pos);
      out[i] = { id, name, age, gender: b[pos + 4], isMegane: b[pos + 5] === 1 };
      pos += 6;
    }
    return out;
  },
};

function pair(signed: boolean): Codec {
  return signed
    ? {
        encode(m: { a: number; b: number }) {
          const b = Buffer.allocUnsafe(8);
          b.writeInt32LE(m.a, 0);
          b.writeInt32LE(m.b, 4);
          return b;
        },
        decode: (d) => ({ a: view(d).readInt32LE(0), b: view(d).readInt32LE(4) }),
      }
    : {
        encode(m: { a: number; b: number }) {
          const b = Buffer.allocUnsafe(8);
          b.writeUInt32LE(m.a, 0);
          b.writeUInt32LE(m.b, 4);
          return b;
        },
        decode: (d) => ({ a: view(d).readUInt32LE(0), b: view(d).readUInt32LE(4) }),
      };
}

function writeString(b: Buffer, pos: number, s: string): number {
  const n = b.write(s, pos + 4, "utf8");
  b.writeUInt32LE(n, pos);
  return pos + 4 + n;
}

const test3: Codec = {
  encode(m: { s: string }) {
    const b = Buffer.allocUnsafe(4 + 3 * m.s.length);
    return b.subarray(0, writeString(b, 0, m.s));
  },
  decode(d) {
    const b = view(d);
    return { s: b.toString("utf8", 4, 4 + b.readUInt32LE(0)) };
  },
};

const test4: Codec = {
  encode(m: any) {
    const b = Buffer.allocUnsafe(20 + 3 * m.t3.s.length);
    b.writeUInt32LE(m.t1.a, 0);
    b.writeUInt32LE(m.t1.b, 4);
    b.writeInt32LE(m.t2.a, 8);
    b.writeInt32LE(m.t2.b, 12);
    return b.subarray(0, writeString(b, 16, m.t3.s));
  },
  decode(d) {
    const b = view(d);
    return {
      t1: { a: b.readUInt32LE(0), b: b.readUInt32LE(4) },
      t2: { a: b.readInt32LE(8), b: b.readInt32LE(12) },
      t3: { s: b.toString("utf8", 20, 20 + b.readUInt32LE(16)) },
    };
  },
};

const CODECS: Record<string, Codec> = {
  "android-users": users,
  "pb-vs-msgpack-test1": pair(false),
  "pb-vs-msgpack-test2": pair(true),
  "pb-vs-msgpack-test3": test3,
  "pb-vs-msgpack-test4": test4,
};

export const handwritten: Serializer = {
  name: "handwritten",
  format: "custom-binary",
  pkg: null,
  labels: ["binary", "handwritten", "copying-decode", "positional"],
  userDatasets: "hand-written layouts exist for the built-in S1 and S2 datasets only",
  notApplicable: (d) =>
    d in CODECS
      ? null
      : "hand-written layouts exist for S1 and S2 only (the seed's Parcelable stand-in)",
  codec: (ds) => CODECS[ds.name],
};
