// `describe` and `serve` (docs/runner-protocol.md, sections 2 and 4).
import { writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { OPERATIONS, prepareCell, type CellOp } from "./cell.js";
import { BadRequest, resolveDataset, type DatasetRef } from "./datasets.js";
import { framingLabels } from "./streamLabel.js";
import { BUILTIN } from "./model.js";
import { NotApplicable, footprint, version } from "./serializers/base.js";
import { REGISTRY } from "./serializers/index.js";
import { peakAlloc, takeSamples } from "./timing.js";
import { Written, untrusted } from "./untrusted/commands.js";

export const CAPABILITIES = [
  "decode_from",
  "user_datasets",
  "transport",
  "untrusted",
  "avro_container",
];

export function emit(obj: unknown): void {
  writeSync(1, (obj instanceof Written ? obj.text : JSON.stringify(obj)) + "\n");
}

export function runtimeDetails(): string {
  return [
    `V8 ${process.versions.v8}`,
    `flags: ${process.execArgv.join(" ") || "(none)"}`,
    "wall: process.hrtime.bigint()",
    "cpu_ns: process.cpuUsage() user+system of the whole process (all threads, microsecond resolution; Node 20 has no thread CPU clock)",
    "gc_count/gc_ns: perf_hooks gc entries",
    "alloc_bytes: null (V8 has no allocation counter; peak_alloc: peak V8 heap + external growth)",
    "compile_ns: TurboFan time from V8's trace (compileTrace.ts)",
  ].join("; ");
}

export function describe(): unknown {
  return {
    protocol: 2,
    protocol_minor: 1,
    runner: "node",
    language: "javascript",
    runtime: { name: "Node.js", version: process.versions.node, details: runtimeDetails() },
    capabilities: CAPABILITIES,
    serializers: Object.values(REGISTRY).map((s) => ({
      name: s.name,
      format: s.format,
      library: s.pkg ?? "node",
      version: version(s.pkg),
      labels: [...s.labels, ...framingLabels(s)],
      footprint_bytes: footprint(s.pkg),
      datasets: Object.fromEntries(
        Object.keys(BUILTIN).map((d) => {
          const reason = s.notApplicable(d);
          return [d, reason === null ? { applicable: true } : { applicable: false, reason }];
        }),
      ),
      user_datasets:
        s.userDatasets === null
          ? { applicable: true }
          : { applicable: false, reason: s.userDatasets },
    })),
  };
}

const cells = new Map<string, Map<string, CellOp>>();

function need(cmd: Record<string, unknown>, ...fields: string[]): void {
  for (const f of fields) if (!(f in cmd)) throw new BadRequest(`missing field ${f}`);
}

function failed(cell: string, status: string, code: string, message: string) {
  return {
    event: "prepared",
    cell,
    status,
    check: null,
    messages: null,
    sizes: null,
    unsupported: [],
    error: { code, message },
  };
}

function prepare(cmd: Record<string, any>): unknown {
  need(cmd, "cell", "serializer", "dataset", "operations");
  const cell = String(cmd.cell);
  const ref = cmd.dataset as DatasetRef;
  if (typeof ref !== "object" || ref === null || typeof ref.data !== "string")
    throw new BadRequest("dataset must be an object with data");
  const ops = cmd.operations as string[];
  if (!Array.isArray(ops) || ops.some((o) => !OPERATIONS.includes(o)))
    throw new BadRequest(`operations must be a list of ${OPERATIONS.join(", ")}`);
  cells.delete(cell);
  const s = REGISTRY[cmd.serializer];
  if (!s)
    return failed(
      cell,
      "error",
      "unknown_serializer",
      `no serializer ${JSON.stringify(cmd.serializer)}; valid: ${Object.keys(REGISTRY).join(", ")}`,
    );
  const ds = resolveDataset(ref);
  if (typeof ds === "string") return failed(cell, "error", "unknown_dataset", ds);
  const reason = ds.kind === "builtin" ? s.notApplicable(ds.name) : s.userDatasets;
  if (reason !== null) return failed(cell, "not_applicable", "not_applicable", reason);
  let codec;
  try {
    codec = s.codec(ds);
  } catch (e) {
    if (e instanceof NotApplicable)
      return failed(cell, "not_applicable", "not_applicable", e.message);
    throw e;
  }
  let result;
  try {
    result = prepareCell(
      codec,
      ds,
      ref.data,
      ref.check_data ?? ref.data,
      ops,
      cmd.dump_path ?? null,
      cmd.decode_from ?? null,
      cmd.verify !== false,
    );
  } catch (e) {
    if (e instanceof NotApplicable)
      return failed(cell, "not_applicable", "not_applicable", e.message);
    if (e instanceof SyntaxError || (e as NodeJS.ErrnoException).code === "ENOENT")
      return failed(cell, "error", "bad_data", String(e));
    throw e;
  }
  if (result.reply.status === "ok") cells.set(cell, result.ops);
  return { event: "prepared", cell, ...result.reply };
}

async function handle(line: string): Promise<unknown> {
  let cmd: Record<string, any>;
  try {
    cmd = JSON.parse(line);
  } catch {
    return { event: "error", code: "bad_request", message: "not JSON" };
  }
  if (typeof cmd !== "object" || cmd === null || Array.isArray(cmd))
    return { event: "error", code: "bad_request", message: "a command is a JSON object" };
  try {
    switch (cmd.cmd) {
      case "prepare":
        try {
          return prepare(cmd);
        } catch (e) {
          if (e instanceof BadRequest) throw e;
          return failed(
            String(cmd.cell),
            "error",
            "exception",
            String((e as Error)?.stack ?? e).slice(0, 500),
          );
        }
      case "sample": {
        need(cmd, "cell", "operation", "iterations", "samples");
        const { iterations, samples } = cmd;
        const untimed = cmd.untimed ?? 0;
        if (
          !Number.isInteger(iterations) ||
          iterations < 1 ||
          !Number.isInteger(samples) ||
          samples < 1 ||
          !Number.isInteger(untimed) ||
          untimed < 0
        )
          throw new BadRequest(
            "iterations and samples must be positive integers, untimed a non-negative one",
          );
        const entry = cells.get(cmd.cell)?.get(cmd.operation);
        if (!entry)
          return {
            event: "error",
            code: "unknown_cell",
            cell: String(cmd.cell),
            message: `cell ${JSON.stringify(cmd.cell)} is not prepared (ok) for ${cmd.operation}`,
          };
        try {
          const fields = await takeSamples(entry.op, entry.loop, iterations, samples, untimed);
          return { event: "samples", cell: cmd.cell, operation: cmd.operation, ...fields };
        } catch (e) {
          return { event: "error", code: "exception", cell: String(cmd.cell), message: String(e) };
        }
      }
      case "peak_alloc": {
        need(cmd, "cell", "operation");
        const entry = cells.get(cmd.cell)?.get(cmd.operation);
        if (!entry)
          return {
            event: "error",
            code: "unknown_cell",
            cell: String(cmd.cell),
            message: `cell ${JSON.stringify(cmd.cell)} is not prepared (ok) for ${cmd.operation}`,
          };
        try {
          return {
            event: "peak_alloc",
            cell: cmd.cell,
            operation: cmd.operation,
            bytes: peakAlloc(entry.op),
          };
        } catch (e) {
          return { event: "error", code: "exception", cell: String(cmd.cell), message: String(e) };
        }
      }
      case "release":
        need(cmd, "cell");
        cells.delete(cmd.cell);
        return { event: "released", cell: String(cmd.cell) };
      case "untrusted_decode":
      case "untrusted_encode":
        return untrusted(cmd, line);
      case "quit":
        return { event: "bye" };
      default:
        return {
          event: "error",
          code: "bad_request",
          message: `unknown cmd ${JSON.stringify(cmd.cmd)}`,
        };
    }
  } catch (e) {
    if (e instanceof BadRequest) return { event: "error", code: "bad_request", message: e.message };
    return { event: "error", code: "exception", message: String(e) };
  }
}

export async function serve(): Promise<void> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim() === "") continue;
    const reply = await handle(line);
    emit(reply);
    if ((reply as { event: string }).event === "bye") break;
  }
  rl.close();
  process.exit(0);
}
