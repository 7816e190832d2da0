// The byte writer and reader the generated field-by-field codecs (the `handwritten` row)
// call: little-endian fixed-width numbers, strings and byte arrays after a length, list and
// map counts as uint32, an optional value after a presence byte.
export class Writer {
  private b: Buffer;
  private pos = 0;
  constructor(capacity: number) {
    // sized by the caller's hint (the largest message so far): a small buffer comes from
    // Node's shared pool, and an exact one is returned whole, without a view
    this.b = Buffer.allocUnsafe(Math.max(capacity, 8));
  }
  private room(n: number): void {
    if (this.pos + n <= this.b.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.b.length * 2, this.pos + n));
    this.b.copy(next, 0, 0, this.pos);
    this.b = next;
  }
  finish(): Uint8Array {
    return this.pos === this.b.length ? this.b : this.b.subarray(0, this.pos);
  }
  u8(v: number): void {
    this.room(1);
    this.b[this.pos++] = v;
  }
  bool(v: boolean): void {
    this.u8(v ? 1 : 0);
  }
  u16(v: number): void {
    this.room(2);
    this.pos = this.b.writeUInt16LE(v, this.pos);
  }
  i32(v: number): void {
    this.room(4);
    this.pos = this.b.writeInt32LE(v, this.pos);
  }
  u32(v: number): void {
    this.room(4);
    this.pos = this.b.writeUInt32LE(v, this.pos);
  }
  i64(v: number | bigint): void {
    this.room(8);
    this.pos = this.b.writeBigInt64LE(BigInt(v), this.pos);
  }
  u64(v: number | bigint): void {
    this.room(8);
    this.pos = this.b.writeBigUInt64LE(BigInt(v), this.pos);
  }
  f32(v: number): void {
    this.room(4);
    this.pos = this.b.writeFloatLE(v, this.pos);
  }
  f64(v: number): void {
    this.room(8);
    this.pos = this.b.writeDoubleLE(v, this.pos);
  }
  /** A string after its UTF-8 length in `width` bytes (2: the S1 seed's layout, else 4). */
  str(s: string, width: 2 | 4 = 4): void {
    this.room(width + 3 * s.length);
    const n = this.b.write(s, this.pos + width, "utf8");
    if (width === 2) this.b.writeUInt16LE(n, this.pos);
    else this.b.writeUInt32LE(n, this.pos);
    this.pos += width + n;
  }
  bytes(v: Uint8Array): void {
    this.u32(v.length);
    this.room(v.length);
    this.b.set(v, this.pos);
    this.pos += v.length;
  }
}

const view = (b: Uint8Array) =>
  Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** int64 as the native model holds it: a number where exact, else a BigInt. */
export const exact = (v: bigint): number | bigint => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
};

export class Reader {
  private readonly b: Buffer;
  private pos = 0;
  constructor(data: Uint8Array) {
    this.b = view(data);
  }
  u8(): number {
    return this.b[this.pos++];
  }
  bool(): boolean {
    return this.b[this.pos++] === 1;
  }
  i32(): number {
    const v = this.b.readInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  u32(): number {
    const v = this.b.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  u16(): number {
    const v = this.b.readUInt16LE(this.pos);
    this.pos += 2;
    return v;
  }
  i64(): number | bigint {
    const v = this.b.readBigInt64LE(this.pos);
    this.pos += 8;
    return exact(v);
  }
  u64(): number | bigint {
    const v = this.b.readBigUInt64LE(this.pos);
    this.pos += 8;
    return exact(v);
  }
  f32(): number {
    const v = this.b.readFloatLE(this.pos);
    this.pos += 4;
    return v;
  }
  f64(): number {
    const v = this.b.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }
  str(width: 2 | 4 = 4): string {
    const n = width === 2 ? this.u16() : this.u32();
    const s = this.b.toString("utf8", this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
  bytes(): Uint8Array {
    const n = this.u32();
    const v = new Uint8Array(this.b.subarray(this.pos, this.pos + n));
    this.pos += n;
    return v;
  }
  list<T>(item: () => T): T[] {
    const n = this.u32();
    const out: T[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = item();
    return out;
  }
  map<T>(value: () => T): Record<string, T> {
    const n = this.u32();
    const out: Record<string, T> = {};
    for (let i = 0; i < n; i++) {
      const k = this.str();
      out[k] = value();
    }
    return out;
  }
}
