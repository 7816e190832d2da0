// Stream framing: unsigned LEB128 length prefixes, and a growing output buffer.

/** A growing byte buffer: appends copy into it, `finish` returns the written bytes. */
export class Growable {
  buf: Uint8Array;
  pos = 0;
  constructor(capacity = 1 << 16) {
    this.buf = Buffer.allocUnsafe(capacity);
  }
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.pos + n) cap *= 2;
    const next = Buffer.allocUnsafe(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }
  varint(n: number): void {
    this.reserve(5);
    const b = this.buf;
    while (n >= 0x80) {
      b[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    b[this.pos++] = n;
  }
  put(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }
  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

export function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n >>>= 7;
    size++;
  }
  return size;
}

/** Calls `each` with every varint-prefixed frame of `buf` (views, no copies). */
export function forEachFrame(buf: Uint8Array, each: (frame: Uint8Array) => void): void {
  let pos = 0;
  const end = buf.length;
  while (pos < end) {
    let len = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = buf[pos++];
      len += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte >= 0x80);
    each(buf.subarray(pos, pos + len));
    pos += len;
  }
}
