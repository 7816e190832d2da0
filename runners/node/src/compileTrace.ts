// V8's evidence of its optimising tier: the time TurboFan spent on the jobs that finished
// since the last call, from V8's own trace (--trace-opt), redirected to a file so that
// stdout stays the protocol's (--trace-deopt is not used: it prints to stdout whatever the
// redirection). The orchestrator's warm-up waits until a cell's
// code stops being compiled (docs/method.md); V8 has no API that reports it otherwise.
import { closeSync, openSync, readSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";

const TRACE = join(tmpdir(), `serbench-node-${process.pid}-v8.trace`);

// "[completed compiling 0x... <JSFunction f ...> (target TURBOFAN) OSR - took 0.040, 1.996, 0.015 ms]":
// the three phases of one job (prepare, execute, finalize)
const COMPLETED = /^\[completed compiling .* took ([\d.]+), ([\d.]+), ([\d.]+) ms\]/;
const STARTED = /^\[compiling method /;
const ENDED = /^\[(completed compiling|aborted optimizing|optimizing .* failed)/;

let fd: number | null = null;
let pending = 0; // jobs queued and not finished: their code is about to replace the current
let partial = "";

setFlagsFromString(`--redirect-code-traces-to=${TRACE}`);
setFlagsFromString("--redirect-code-traces");
setFlagsFromString("--trace-opt");
process.on("exit", () => {
  if (fd !== null) closeSync(fd);
  try {
    unlinkSync(TRACE);
  } catch {
    // never written: V8 opens the file at its first trace line
  }
});

function readNew(): string {
  if (fd === null) {
    try {
      fd = openSync(TRACE, "r");
    } catch {
      return ""; // nothing compiled yet
    }
  }
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(1 << 16);
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, null);
    if (n <= 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Nanoseconds of optimising compilation finished since the previous call. A job still
 * compiling when the call comes counts as activity without a time: at least 1 ns, so that
 * the orchestrator does not take the code for final.
 */
export function compileNsSinceLastCall(): number {
  const lines = (partial + readNew()).split("\n");
  partial = lines.pop() ?? "";
  let ms = 0;
  for (const line of lines) {
    if (STARTED.test(line)) pending++;
    const done = COMPLETED.exec(line);
    if (done) ms += Number(done[1]) + Number(done[2]) + Number(done[3]);
    if (ENDED.test(line)) pending = Math.max(0, pending - 1);
  }
  const ns = Math.round(ms * 1e6);
  return ns > 0 ? ns : pending > 0 ? 1 : 0;
}
