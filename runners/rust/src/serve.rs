//! `describe` and `serve` (protocol sections 2 and 4).

use std::collections::HashMap;
use std::hint::black_box;
use std::io::{BufRead, Write};
use std::time::Instant;

use serde_json::{Value, json};

use crate::alloc;
use crate::build_info;
use crate::cell::{CellOps, Op, PrepareError, Source, Verify};
use crate::entry::Entry;
use crate::model::{BUILTIN, builtin};
use crate::registry::registry;

pub fn describe() -> Value {
    let serializers: Vec<Value> = registry()
        .iter()
        .map(|e| {
            let datasets: serde_json::Map<String, Value> = BUILTIN
                .iter()
                .map(|(name, ds)| {
                    let a = match (e.make)(*ds) {
                        Ok(_) => json!({"applicable": true}),
                        Err(r) => json!({"applicable": false, "reason": r}),
                    };
                    (name.to_string(), a)
                })
                .collect();
            json!({
                "name": e.name,
                "format": e.format,
                "library": e.library,
                "version": e.version(),
                "labels": e.labels(),
                "footprint_bytes": crate::footprint::footprint_bytes(e.library),
                "datasets": datasets,
                "user_datasets": match e.user {
                    _ if e.typed => json!({"applicable": true}),
                    Ok(_) => json!({"applicable": true}),
                    Err(r) => json!({"applicable": false, "reason": r}),
                },
            })
        })
        .collect();
    json!({
        "protocol": 2,
        "protocol_minor": 1,
        "runner": "rust",
        "language": "rust",
        "runtime": {"name": "rustc", "version": build_info::RUSTC_VERSION,
                    "details": build_info::BUILD_DETAILS},
        "capabilities": ["transport", "decode_from", "user_datasets", "untrusted", "avro_container"],
        "serializers": serializers,
    })
}

/// Thread CPU time in ns.
#[inline]
pub fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

struct Held {
    cell: Box<dyn CellOps>,
    only_decode: bool,
}

fn prepared(cell: &str, status: &str, code: Option<&str>, message: &str) -> Value {
    json!({"event": "prepared", "cell": cell, "status": status, "check": null,
           "messages": null, "sizes": null, "unsupported": [],
           "error": code.map(|c| json!({"code": c, "message": message}))})
}

fn error(code: &str, message: &str, cell: Option<&str>) -> Value {
    let mut v = json!({"event": "error", "code": code, "message": message});
    if let Some(c) = cell {
        v["cell"] = json!(c);
    }
    v
}

fn str_field<'a>(v: &'a Value, k: &str) -> Result<&'a str, String> {
    v.get(k)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string field {k:?}"))
}

fn opt_str<'a>(v: &'a Value, k: &str) -> Result<Option<&'a str>, String> {
    match v.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("{k} must be a string or null")),
    }
}

fn opt_bool(v: &Value, k: &str) -> Result<Option<bool>, String> {
    match v.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(format!("{k} must be a boolean or null")),
    }
}

pub struct Server {
    entries: Vec<Entry>,
    cells: HashMap<String, Held>,
    untrusted: crate::untrusted::State,
}

impl Default for Server {
    fn default() -> Self {
        Server {
            entries: registry(),
            cells: HashMap::new(),
            untrusted: Default::default(),
        }
    }
}

impl Server {
    fn prepare(&mut self, cmd: &Value) -> Value {
        let parsed = (|| -> Result<_, String> {
            let cell = str_field(cmd, "cell")?;
            let ser = str_field(cmd, "serializer")?;
            let ds = cmd
                .get("dataset")
                .filter(|d| d.is_object())
                .ok_or("missing object field \"dataset\"")?;
            let name = str_field(ds, "name")?;
            let kind = str_field(ds, "kind")?;
            let data = str_field(ds, "data")?;
            let check = opt_str(ds, "check_data")?.unwrap_or(data);
            let types = opt_str(ds, "types")?;
            let ops = cmd
                .get("operations")
                .and_then(Value::as_array)
                .ok_or("missing array \"operations\"")?;
            let ops: Vec<(String, Op)> = ops
                .iter()
                .map(|o| {
                    let s = o.as_str().ok_or("operations must be strings")?;
                    Op::parse(s)
                        .map(|op| (s.to_string(), op))
                        .ok_or(format!("unknown operation {s:?}"))
                })
                .collect::<Result<_, String>>()?;
            if ops.is_empty() {
                return Err("operations is empty".into());
            }
            Ok((
                cell,
                ser,
                name,
                kind,
                data,
                check,
                types,
                ops,
                opt_str(cmd, "dump_path")?,
                opt_str(cmd, "decode_from")?,
                opt_bool(cmd, "verify")?.unwrap_or(true),
            ))
        })();
        let (cell, ser, name, kind, data, check, types, ops, dump, from, verify) = match parsed {
            Ok(p) => p,
            Err(m) => return error("bad_request", &m, cmd.get("cell").and_then(Value::as_str)),
        };
        let schemas = cmd["dataset"].get("schemas").filter(|s| s.is_object());
        self.cells.remove(cell);
        let Some(entry) = self.entries.iter().find(|e| e.name == ser) else {
            let names: Vec<&str> = self.entries.iter().map(|e| e.name).collect();
            return prepared(
                cell,
                "error",
                Some("unknown_serializer"),
                &format!("no serializer {ser:?}; valid: {}", names.join(", ")),
            );
        };
        let made = if kind == "user" && entry.typed {
            crate::model::user(name, types)
                .map_err(|r| format!("{ser}: {r}"))
                .and_then(entry.make)
        } else if kind == "user" {
            entry.user.map(|f| f()).map_err(|r| format!("{ser}: {r}"))
        } else {
            let Some(ds) = builtin(name) else {
                let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
                return prepared(
                    cell,
                    "error",
                    Some("unknown_dataset"),
                    &format!("no dataset {name:?}; valid: {}", names.join(", ")),
                );
            };
            (entry.make)(ds)
        };
        let mut boxed = match made {
            Ok(b) => b,
            Err(r) => return prepared(cell, "not_applicable", Some("not_applicable"), &r),
        };
        let src = Source {
            data,
            check_data: check,
            decode_from: from,
            types: if kind == "user" { types } else { None },
            schemas: if kind == "user" { schemas } else { None },
        };
        // verify: false: an earlier process of the run checked this cell and holds its
        // sizes; a decode_from cell's check is its point.
        let op_list: Vec<Op> = ops.iter().map(|(_, op)| *op).collect();
        let verify = if verify || from.is_some() {
            Verify::Check
        } else {
            Verify::Skip(&op_list)
        };
        let p = match boxed.prepare(&src, verify) {
            Ok(p) => p,
            Err(PrepareError::BadData(m)) => return prepared(cell, "error", Some("bad_data"), &m),
            Err(PrepareError::NotApplicable(m)) => {
                return prepared(cell, "not_applicable", Some("not_applicable"), &m);
            }
            Err(PrepareError::Exception(m)) => {
                return prepared(cell, "error", Some("exception"), &m);
            }
        };
        if let Some(path) = dump
            && from.is_none()
            && let Err(e) = std::fs::write(path, boxed.encoded())
        {
            return prepared(
                cell,
                "error",
                Some("exception"),
                &format!("dump_path {path}: {e}"),
            );
        }
        let unsupported: Vec<&str> = ops
            .iter()
            .filter(|(_, op)| from.is_some() && *op != Op::Decode)
            .map(|(s, _)| s.as_str())
            .collect();
        let sizes: serde_json::Map<String, Value> = p
            .sizes
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect();
        let status = if p.check_ok { "ok" } else { "check_failed" };
        if p.check_ok {
            self.cells.insert(
                cell.to_string(),
                Held {
                    cell: boxed,
                    only_decode: from.is_some(),
                },
            );
        }
        let check = match verify {
            Verify::Check => json!({"ok": p.check_ok, "detail": p.detail}),
            Verify::Skip(_) => Value::Null,
        };
        json!({"event": "prepared", "cell": cell, "status": status,
               "check": check, "messages": p.messages,
               "sizes": sizes, "unsupported": unsupported, "error": null})
    }

    fn cell_op(&mut self, cmd: &Value) -> Result<(&mut Held, String, Op), Value> {
        let cell = str_field(cmd, "cell").map_err(|m| error("bad_request", &m, None))?;
        let op_s = str_field(cmd, "operation").map_err(|m| error("bad_request", &m, Some(cell)))?;
        let op = Op::parse(op_s).ok_or_else(|| {
            error(
                "bad_request",
                &format!("unknown operation {op_s:?}"),
                Some(cell),
            )
        })?;
        let held = self.cells.get_mut(cell).ok_or_else(|| {
            error(
                "unknown_cell",
                &format!("no prepared cell {cell:?}"),
                Some(cell),
            )
        })?;
        if held.only_decode && op != Op::Decode {
            return Err(error(
                "unsupported",
                "a decode_from cell times decode only",
                Some(cell),
            ));
        }
        Ok((held, op_s.to_string(), op))
    }

    fn sample(&mut self, cmd: &Value) -> Value {
        let positive = |k: &str| cmd.get(k).and_then(Value::as_u64).filter(|n| *n >= 1);
        let (Some(iterations), Some(samples)) = (positive("iterations"), positive("samples"))
        else {
            return error(
                "bad_request",
                "iterations and samples must be integers >= 1",
                cmd.get("cell").and_then(Value::as_str),
            );
        };
        // operations run before the first sample, not timed (absent: none)
        let Some(untimed) = cmd.get("untimed").map_or(Some(0), Value::as_u64) else {
            return error(
                "bad_request",
                "untimed must be an integer >= 0",
                cmd.get("cell").and_then(Value::as_str),
            );
        };
        let cell = cmd["cell"].as_str().unwrap_or_default().to_string();
        let (held, op_s, op) = match self.cell_op(cmd) {
            Ok(x) => x,
            Err(e) => return e,
        };
        if untimed > 0
            && let Err(e) = held.cell.run(black_box(op), black_box(untimed))
        {
            return error("exception", &e, Some(&cell));
        }
        let n = samples as usize;
        let (mut wall, mut cpu, mut bytes, mut count) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        for _ in 0..n {
            let (b0, c0) = alloc::counters();
            let t0 = Instant::now();
            let u0 = thread_cpu_ns();
            let r = held.cell.run(black_box(op), black_box(iterations));
            let u1 = thread_cpu_ns();
            let t1 = Instant::now();
            let (b1, c1) = alloc::counters();
            if let Err(e) = r {
                return error("exception", &e, Some(&cell));
            }
            wall.push(((t1 - t0).as_nanos() as u64).max(1));
            cpu.push(u1 - u0);
            bytes.push(b1 - b0);
            count.push(c1 - c0);
        }
        json!({"event": "samples", "cell": cell, "operation": op_s, "iterations": iterations,
               "wall_ns": wall, "cpu_ns": cpu, "alloc_bytes": bytes, "alloc_count": count,
               "gc_count": null, "gc_ns": null, "compile_ns": 0})
    }

    fn peak_alloc(&mut self, cmd: &Value) -> Value {
        let cell = cmd
            .get("cell")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let (held, op_s, op) = match self.cell_op(cmd) {
            Ok(x) => x,
            Err(e) => return e,
        };
        let base = alloc::start_peak();
        let r = held.cell.run(op, 1);
        let peak = alloc::stop_peak();
        if let Err(e) = r {
            return error("exception", &e, Some(&cell));
        }
        json!({"event": "peak_alloc", "cell": cell, "operation": op_s, "bytes": (peak - base).max(0)})
    }

    /// One command line in, one reply out; `None` after `quit`.
    pub fn handle(&mut self, line: &str) -> Option<Value> {
        let cmd: Value = match serde_json::from_str(line) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => return Some(error("bad_request", "a command is a JSON object", None)),
            Err(e) => return Some(error("bad_request", &format!("malformed JSON: {e}"), None)),
        };
        Some(match cmd.get("cmd").and_then(Value::as_str) {
            Some("prepare") => self.prepare(&cmd),
            Some("sample") => self.sample(&cmd),
            Some("peak_alloc") => self.peak_alloc(&cmd),
            Some("release") => match cmd.get("cell").and_then(Value::as_str) {
                Some(c) => {
                    self.cells.remove(c);
                    json!({"event": "released", "cell": c})
                }
                None => error("bad_request", "missing string field \"cell\"", None),
            },
            Some("quit") => return None,
            Some("untrusted_decode" | "untrusted_encode") => {
                self.untrusted.handle(&self.entries, &cmd)
            }
            Some(other) => error("bad_request", &format!("unknown cmd {other:?}"), None),
            None => error("bad_request", "missing string field \"cmd\"", None),
        })
    }
}

pub fn serve() -> std::io::Result<()> {
    let mut server = Server::default();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match server.handle(&line) {
            Some(reply) => {
                writeln!(stdout, "{reply}")?;
                stdout.flush()?;
            }
            None => {
                writeln!(stdout, "{}", json!({"event": "bye"}))?;
                stdout.flush()?;
                return Ok(());
            }
        }
    }
    Ok(())
}
