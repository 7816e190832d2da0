//! `transport` (protocol section 9): one side of a loopback TCP connection carrying
//! length-prefixed frames (4-byte big-endian length, then the encoded dataset).

use std::io::{BufRead, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cell::{CellOps, Source, Verify};
use crate::model::builtin;
use crate::registry::registry;

fn emit(v: Value) {
    println!("{v}");
    let _ = std::io::stdout().flush();
}

fn fail(code: &str, message: String) -> i32 {
    emit(json!({"event": "error", "code": code, "message": message}));
    1
}

fn ns(d: Duration) -> u64 {
    (d.as_nanos() as u64).max(1)
}

/// Reads the request from stdin and runs the requested side; returns the exit status.
pub fn transport() -> i32 {
    let mut line = String::new();
    if std::io::stdin().lock().read_line(&mut line).is_err() {
        return fail("bad_request", "cannot read the request".into());
    }
    let req: Value = match serde_json::from_str(&line) {
        Ok(v) => v,
        Err(e) => return fail("bad_request", format!("malformed JSON: {e}")),
    };
    let get = |k: &str| req.get(k).cloned().unwrap_or(Value::Null);
    let (Some(role), Some(ser), Some(host)) = (
        get("role").as_str().map(String::from),
        get("serializer").as_str().map(String::from),
        get("host").as_str().map(String::from),
    ) else {
        return fail(
            "bad_request",
            "role, serializer and host are required".into(),
        );
    };
    let ds = get("dataset");
    let (Some(name), Some(data)) = (ds["name"].as_str(), ds["data"].as_str()) else {
        return fail(
            "bad_request",
            "dataset.name and dataset.data are required".into(),
        );
    };
    let port = get("port").as_u64().unwrap_or(0) as u16;
    let reps = get("repetitions").as_u64().unwrap_or(1) as usize;
    let warmup = get("warmup").as_u64().unwrap_or(0) as usize;
    let timeout = Duration::from_secs_f64(get("timeout").as_f64().unwrap_or(120.0));

    let entries = registry();
    let Some(entry) = entries.iter().find(|e| e.name == ser) else {
        return fail("unknown_serializer", format!("no serializer {ser:?}"));
    };
    let Some(d) = builtin(name) else {
        return fail("unknown_dataset", format!("no dataset {name:?}"));
    };
    let mut cell = match (entry.make)(d) {
        Ok(c) => c,
        Err(r) => return fail("not_applicable", r),
    };
    let src = Source {
        data,
        check_data: data,
        decode_from: None,
        types: None,
        schemas: None,
    };
    match cell.prepare(&src, Verify::Check) {
        Ok(p) if p.check_ok => {}
        Ok(p) => return fail("exception", format!("check failed: {}", p.detail)),
        Err(_) => return fail("bad_data", format!("cannot prepare {ser} on {name}")),
    }
    let r = match role.as_str() {
        "receive" => receive(&mut *cell, &host, port, warmup, reps, timeout),
        "send" => send(&mut *cell, &host, port, warmup, reps, timeout),
        _ => return fail("bad_request", format!("unknown role {role:?}")),
    };
    match r {
        Ok(v) => {
            emit(v);
            0
        }
        Err(e) => fail("exception", e),
    }
}

fn receive(
    cell: &mut dyn CellOps,
    host: &str,
    port: u16,
    warmup: usize,
    reps: usize,
    timeout: Duration,
) -> Result<Value, String> {
    let listener = TcpListener::bind((host, port)).map_err(|e| e.to_string())?;
    emit(
        json!({"event": "listening", "port": listener.local_addr().map_err(|e| e.to_string())?.port()}),
    );
    let (mut sock, _) = listener.accept().map_err(|e| e.to_string())?;
    sock.set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    sock.set_nodelay(true).map_err(|e| e.to_string())?;
    let (mut receive_ns, mut decode_ns) = (Vec::new(), Vec::new());
    let mut payload = Vec::new();
    let mut check = Ok(String::new());
    for k in 0..warmup + reps {
        let mut header = [0u8; 4];
        sock.read_exact(&mut header)
            .map_err(|e| format!("frame {k}: {e}"))?;
        let t0 = Instant::now();
        payload.resize(u32::from_be_bytes(header) as usize, 0);
        sock.read_exact(&mut payload)
            .map_err(|e| format!("frame {k}: {e}"))?;
        let t1 = Instant::now();
        cell.decode_once(&payload)?;
        let t2 = Instant::now();
        sock.write_all(&[1]).map_err(|e| e.to_string())?;
        if k >= warmup {
            receive_ns.push(ns(t1 - t0));
            decode_ns.push(ns(t2 - t1));
        }
        if check.is_ok() {
            check = cell.check_bytes(&payload);
        }
    }
    let (ok, detail) = match check {
        Ok(d) => (true, d),
        Err(d) => (false, d),
    };
    Ok(
        json!({"event": "transport_result", "role": "receive", "receive_ns": receive_ns,
              "decode_ns": decode_ns, "check": {"ok": ok, "detail": detail}, "bytes": payload.len()}),
    )
}

fn send(
    cell: &mut dyn CellOps,
    host: &str,
    port: u16,
    warmup: usize,
    reps: usize,
    timeout: Duration,
) -> Result<Value, String> {
    let mut sock = TcpStream::connect((host, port)).map_err(|e| e.to_string())?;
    sock.set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    sock.set_nodelay(true).map_err(|e| e.to_string())?;
    let (mut encode_ns, mut send_ns, mut total_ns) = (Vec::new(), Vec::new(), Vec::new());
    let mut out = Vec::new();
    for k in 0..warmup + reps {
        let t0 = Instant::now();
        cell.encode_once(&mut out)?;
        let t1 = Instant::now();
        sock.write_all(&(out.len() as u32).to_be_bytes())
            .map_err(|e| e.to_string())?;
        sock.write_all(&out).map_err(|e| e.to_string())?;
        let t2 = Instant::now();
        let mut ack = [0u8; 1];
        sock.read_exact(&mut ack)
            .map_err(|e| format!("frame {k}: {e}"))?;
        let t3 = Instant::now();
        if k >= warmup {
            encode_ns.push(ns(t1 - t0));
            send_ns.push(ns(t2 - t1));
            total_ns.push(ns(t3 - t0));
        }
    }
    Ok(
        json!({"event": "transport_result", "role": "send", "encode_ns": encode_ns,
              "send_ns": send_ns, "total_ns": total_ns, "bytes": out.len()}),
    )
}
