// `transport` (protocol section 9): one side of a loopback TCP connection exchanging
// frames of a 4-byte big-endian length and the encoded dataset; the receiver answers
// one byte per frame.
import { connect, createServer, type Socket } from "node:net";
import { Prepared } from "./cell.js";
import { firstDifference, loadNative } from "./model.js";
import { REGISTRY } from "./serializers/index.js";
import { resolveDataset } from "./datasets.js";
import { emit } from "./serve.js";

/** Reads exact byte counts from a socket (chunks are joined only when needed). */
class Reader {
  private chunks: Buffer[] = [];
  private size = 0;
  private waiter: (() => void) | null = null;
  private ended = false;
  constructor(sock: Socket) {
    sock.on("data", (c: Buffer) => {
      this.chunks.push(c);
      this.size += c.length;
      this.wake();
    });
    sock.on("end", () => {
      this.ended = true;
      this.wake();
    });
  }
  private wake() {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }
  async read(n: number): Promise<Buffer> {
    while (this.size < n) {
      if (this.ended) throw new Error(`connection closed with ${this.size} of ${n} bytes`);
      await new Promise<void>((r) => (this.waiter = r));
    }
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
    return out;
  }
}

const now = () => process.hrtime.bigint();
const fail = (code: string, message: string) => {
  emit({ event: "error", code, message });
  return 1;
};

async function readRequest(): Promise<any> {
  const parts: Buffer[] = [];
  for await (const c of process.stdin) parts.push(c as Buffer);
  return JSON.parse(Buffer.concat(parts).toString("utf8"));
}

export async function transport(): Promise<number> {
  let req;
  try {
    req = await readRequest();
  } catch (e) {
    return fail("bad_request", String(e));
  }
  const s = REGISTRY[req.serializer];
  if (!s) return fail("unknown_serializer", `valid: ${Object.keys(REGISTRY).join(", ")}`);
  const ds = resolveDataset(req.dataset);
  if (typeof ds === "string") return fail("unknown_dataset", ds);
  const reason = ds.kind === "builtin" ? s.notApplicable(ds.name) : s.userDatasets;
  if (reason) return fail("not_applicable", reason);
  const codec = s.codec(ds);
  const loaded = loadNative(req.dataset.data, ds);
  const prepared = new Prepared(
    codec,
    loaded.framing,
    loaded.items.map(codec.prepare ?? ((v) => v)),
    loaded.count,
  );
  const frames = req.warmup + req.repetitions;
  const timer = setTimeout(() => {
    emit({ event: "error", code: "timeout", message: `no result within ${req.timeout} s` });
    process.exit(1);
  }, req.timeout * 1000);
  try {
    if (req.role === "receive") {
      const server = createServer();
      await new Promise<void>((r) => server.listen(req.port, req.host, r));
      const port = (server.address() as { port: number }).port;
      emit({ event: "listening", port });
      const sock = await new Promise<Socket>((r) => server.once("connection", r));
      sock.setNoDelay(true);
      const reader = new Reader(sock);
      const receive: number[] = [];
      const decodeNs: number[] = [];
      const decoded: unknown[][] = [];
      let bytes = 0;
      for (let i = 0; i < frames; i++) {
        const head = await reader.read(4);
        const t0 = now();
        const payload = await reader.read(head.readUInt32BE(0));
        const t1 = now();
        const got: unknown[] = [];
        prepared.decodeAll(payload, (v) => got.push(v));
        const t2 = now();
        sock.write(Buffer.of(1));
        if (i >= req.warmup) {
          receive.push(Number(t1 - t0));
          decodeNs.push(Number(t2 - t1));
        }
        decoded.push(got);
        bytes = payload.length;
      }
      sock.end();
      server.close();
      const toNative = codec.toNative ?? ((v) => v);
      let detail = `${frames} frames equal`;
      let ok = true;
      outer: for (const got of decoded)
        for (let j = 0; j < got.length; j++) {
          const d = firstDifference(loaded.items[j % loaded.items.length], toNative(got[j]));
          if (d) {
            ok = false;
            detail = d;
            break outer;
          }
        }
      emit({
        event: "transport_result",
        role: "receive",
        receive_ns: receive,
        decode_ns: decodeNs,
        check: { ok, detail },
        bytes,
      });
    } else {
      const sock = connect(req.port, req.host);
      await new Promise<void>((r, j) => sock.once("connect", r).once("error", j));
      sock.setNoDelay(true);
      const reader = new Reader(sock);
      const enc: number[] = [];
      const send: number[] = [];
      const total: number[] = [];
      let bytes = 0;
      for (let i = 0; i < frames; i++) {
        const t0 = now();
        const data = prepared.encodeAll();
        const t1 = now();
        const head = Buffer.allocUnsafe(4);
        head.writeUInt32BE(data.length, 0);
        sock.cork();
        sock.write(head);
        await new Promise<void>((r) => {
          sock.write(data, () => r());
          sock.uncork();
        });
        const t2 = now();
        await reader.read(1);
        const t3 = now();
        if (i >= req.warmup) {
          enc.push(Number(t1 - t0));
          send.push(Number(t2 - t1));
          total.push(Number(t3 - t0));
        }
        bytes = data.length;
      }
      sock.end();
      emit({
        event: "transport_result",
        role: "send",
        encode_ns: enc,
        send_ns: send,
        total_ns: total,
        bytes,
      });
    }
  } catch (e) {
    clearTimeout(timer);
    return fail("exception", String(e));
  }
  clearTimeout(timer);
  return 0;
}
