//! The published byte counts (S1, S2) and a round trip of every serializer on
//! hand-built messages of each built-in type.

use serbench_runner::cell::Codec;
use serbench_runner::serializers::prost_rs::Prost;
use serbench_runner::serializers::rmp_serde_rs::RmpPos;
use serbench_runner::types::*;

fn s1() -> Vec<SampleData> {
    (0..30)
        .map(|i| SampleData {
            id: i,
            name: format!("user {i}"),
            age: (i * 7 % 50) as i32,
            gender: if i % 3 == 0 {
                Gender::Male
            } else {
                Gender::Female
            },
            is_megane: i % 2 == 0,
        })
        .collect()
}

fn test1() -> Test1 {
    Test1 { a: 1, b: 2 }
}
fn test2() -> Test2 {
    Test2 { a: -1, b: -2 }
}
fn test3() -> Test3 {
    Test3 {
        s: "a".repeat(8192),
    }
}
fn test4() -> Test4 {
    Test4 {
        t1: test1(),
        t2: test2(),
        t3: test3(),
    }
}

fn size<T, C: Codec<T>>(mut c: C, v: &T) -> usize {
    let mut out = Vec::new();
    c.encode(0, v, &mut out).unwrap();
    out.len()
}

/// A protobuf stream message: varint32 length prefix + message.
fn pb_framed<T>(v: &T) -> usize
where
    Prost: Codec<T>,
{
    let n = size(Prost, v);
    n + if n < 128 { 1 } else { 2 }
}

#[test]
fn s1_sizes() {
    assert_eq!(size(Prost, &s1()), 560);
    assert_eq!(size(RmpPos::<false>, &s1()), 383);
}

#[test]
fn s2_sizes() {
    assert_eq!(
        (pb_framed(&test1()), size(RmpPos::<false>, &test1())),
        (5, 3)
    );
    assert_eq!(
        (pb_framed(&test2()), size(RmpPos::<false>, &test2())),
        (23, 3)
    );
    assert_eq!(
        (pb_framed(&test3()), size(RmpPos::<false>, &test3())),
        (8197, 8195)
    );
    assert_eq!(
        (pb_framed(&test4()), size(RmpPos::<false>, &test4())),
        (8230, 8202)
    );
}

#[test]
fn msgpack_value_len_finds_message_ends() {
    let mut out = Vec::new();
    let mut c = RmpPos::<false>;
    Codec::<Test4>::encode(&mut c, 0, &test4(), &mut out).unwrap();
    Codec::<Test1>::encode(&mut c, 0, &test1(), &mut out).unwrap();
    assert_eq!(
        serbench_runner::serializers::rmp_serde_rs::value_len(&out).unwrap(),
        8202
    );
}

/// A hand-made user dataset (tests/user): every schemaless row round-trips the generic
/// value tree, and BSON refuses a uint64 beyond int64 with the path.
#[test]
fn user_dataset_round_trips() {
    use serbench_runner::cell::{Source, Verify};
    use serbench_runner::registry::registry;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/user");
    let data = format!("{dir}/tiny.json");
    let types = format!("{dir}/tiny.types.json");
    let src = Source {
        data: &data,
        check_data: &data,
        decode_from: None,
        types: Some(&types),
        schemas: None,
    };
    for e in registry() {
        let Ok(make) = e.user else { continue };
        let mut cell = make();
        match cell.prepare(&src, Verify::Check) {
            Ok(p)
                if e.name.starts_with("serde_json")
                    || e.name.starts_with("simd-json")
                    || e.name.starts_with("sonic") =>
            {
                // JSON has no -0.0 distinct from 0 in every writer, nor bytes: the check decides.
                let _ = p;
            }
            Ok(p) => assert!(p.check_ok, "{}: {}", e.name, p.detail),
            // bson: the uint64 beyond int64; the schema rows: no schemas given here.
            Err(serbench_runner::cell::PrepareError::NotApplicable(_))
                if matches!(e.name, "bson" | "prost-reflect" | "apache-avro") => {}
            Err(_) => panic!("{} failed to prepare", e.name),
        }
    }
}

/// The schema rows on a hand-made user dataset (tests/user/typed.*, schemas as serbench
/// writes them; the .proto compiled here with protoc): prost-reflect and apache-avro
/// round-trip every value (NaN, NUL, U+2028, null-only fields, absent optionals), and the
/// check fails against a tampered copy.
#[test]
fn user_schema_rows_round_trip() {
    use serbench_runner::cell::{Source, Verify};
    use serbench_runner::registry::registry;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/user");
    let out = std::env::temp_dir().join(format!("serbench-rust-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let pb = out.join("typed.pb");
    let ok = std::process::Command::new("protoc")
        .arg(format!("-I{dir}"))
        .arg("--include_imports")
        .arg(format!("--descriptor_set_out={}", pb.display()))
        .arg("typed.proto")
        .status()
        .expect("protoc")
        .success();
    assert!(ok, "protoc failed");
    let tampered = out.join("typed.tampered.json");
    let text = std::fs::read_to_string(format!("{dir}/typed.json")).unwrap();
    std::fs::write(&tampered, text.replace("\"x\":-7", "\"x\":-8")).unwrap();
    let schemas = serde_json::json!({
        "proto": {"path": format!("{dir}/typed.proto"), "descriptor_set": pb, "message": "Typed"},
        "avsc": {"path": format!("{dir}/typed.avsc")},
    });
    let (data, types) = (
        format!("{dir}/typed.json"),
        format!("{dir}/typed.types.json"),
    );
    for name in ["prost-reflect", "apache-avro"] {
        let make = registry()
            .into_iter()
            .find(|e| e.name == name)
            .and_then(|e| e.user.ok())
            .unwrap();
        for (check, want) in [(data.as_str(), true), (tampered.to_str().unwrap(), false)] {
            let src = Source {
                data: &data,
                check_data: check,
                decode_from: None,
                types: Some(&types),
                schemas: Some(&schemas),
            };
            let p = make()
                .prepare(&src, Verify::Check)
                .unwrap_or_else(|_| panic!("{name}: prepare"));
            assert_eq!(p.check_ok, want, "{name}: {}", p.detail);
            if !want {
                assert_eq!(p.detail, "$[0].child.x: -7 != -8", "{name}");
            }
        }
    }
    // A kind serbench marked unavailable is not applicable with its reason.
    let unavailable = serde_json::json!({"proto": {"unavailable": "protobuf: $.a is any"}});
    let src = Source {
        data: &data,
        check_data: &data,
        decode_from: None,
        types: Some(&types),
        schemas: Some(&unavailable),
    };
    let make = registry()
        .into_iter()
        .find(|e| e.name == "prost-reflect")
        .and_then(|e| e.user.ok())
        .unwrap();
    match make().prepare(&src, Verify::Check) {
        Err(serbench_runner::cell::PrepareError::NotApplicable(r)) => {
            assert_eq!(r, "protobuf: $.a is any")
        }
        _ => panic!("prost-reflect: expected not_applicable"),
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// `verify: false`: the check data is not even read, the sizes are the encoded one only,
/// and the requested operations run (only a requested `c+decode` has its input).
#[test]
fn an_unverified_prepare_skips_the_check_and_the_codec_sizes() {
    use serbench_runner::cell::{Op, Source, Verify};
    use serbench_runner::compress::Codec as Compression;
    use serbench_runner::registry::registry;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/user");
    let (data, types) = (format!("{dir}/tiny.json"), format!("{dir}/tiny.types.json"));
    let make = registry()
        .into_iter()
        .find(|e| e.name == "rmp-serde-dynamic")
        .and_then(|e| e.user.ok())
        .unwrap();
    let mut src = Source {
        data: &data,
        check_data: &data,
        decode_from: None,
        types: Some(&types),
        schemas: None,
    };
    let full = make()
        .prepare(&src, Verify::Check)
        .unwrap_or_else(|_| panic!("prepare"));
    assert!(full.check_ok, "{}", full.detail);
    assert_eq!(full.sizes.len(), 4);
    src.check_data = "/nonexistent/check.json";
    let ops = [Op::Encode, Op::Decode, Op::CDecode(Compression::Zstd)];
    let mut cell = make();
    let light = cell
        .prepare(&src, Verify::Skip(&ops))
        .unwrap_or_else(|_| panic!("unverified prepare"));
    assert!(light.check_ok);
    assert_eq!(light.sizes, [full.sizes[0]]);
    assert_eq!(light.messages, full.messages);
    for op in ops.into_iter().chain([Op::EncodeC(Compression::Lz4)]) {
        cell.run(op, 2).unwrap();
    }
    assert!(cell.run(Op::CDecode(Compression::Lz4), 1).is_err());
}

/// FlexBuffers writes S1's enum as its symbol and reads every built-in type back.
#[test]
fn flexbuffers_round_trips_builtin_types() {
    use serbench_runner::serializers::flexbuffers_rs::Flex;
    fn round<T: Clone + PartialEq + std::fmt::Debug>(v: &T) -> Vec<u8>
    where
        Flex: Codec<T>,
    {
        let mut c = Flex::default();
        let mut out = Vec::new();
        c.encode(0, v, &mut out).unwrap();
        assert_eq!(&c.decode(0, &out).unwrap(), v);
        out
    }
    let s1 = round(&s1());
    assert!(s1.windows(6).any(|w| w == b"Female"));
    round(&test1());
    round(&test4());
    // Garbage is an error, not a crash.
    let mut c = Flex::default();
    assert!(Codec::<Test4>::decode(&mut c, 0, &[0xff, 0x00, 0x13, 0x07]).is_err());
}

/// Symbols are attributed to the crate they serve, looking through the standard library.
#[test]
fn footprint_attributes_symbols_to_crates() {
    use serbench_runner::footprint::{crate_of, footprint_bytes};
    assert_eq!(
        crate_of("apache_avro::encode::encode_internal"),
        "apache_avro"
    );
    assert_eq!(
        crate_of("core::ptr::drop_in_place<prost_reflect::dynamic::Value>"),
        "prost_reflect"
    );
    assert_eq!(
        crate_of(
            "<&mut flexbuffers::FlexbufferSerializer as serde::ser::Serializer>::serialize_str"
        ),
        "flexbuffers"
    );
    assert_eq!(
        crate_of("<alloc::vec::Vec<u8> as core::ops::drop::Drop>::drop"),
        "alloc"
    );
    assert_eq!(footprint_bytes("serbench"), Some(0));
}
