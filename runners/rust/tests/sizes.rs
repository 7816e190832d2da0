//! The published byte counts (S1, S2) and a round trip of every serializer on
//! hand-built messages of each built-in type.

use serbench_runner::cell::Codec;
use serbench_runner::serializers::prost_rs::Prost;
use serbench_runner::serializers::rmp_serde_rs::RmpSeed;
use serbench_runner::types::*;

fn s1() -> Users {
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
    assert_eq!(size(RmpSeed::<false>, &s1()), 383);
}

#[test]
fn s2_sizes() {
    assert_eq!(
        (pb_framed(&test1()), size(RmpSeed::<false>, &test1())),
        (5, 3)
    );
    assert_eq!(
        (pb_framed(&test2()), size(RmpSeed::<false>, &test2())),
        (23, 3)
    );
    assert_eq!(
        (pb_framed(&test3()), size(RmpSeed::<false>, &test3())),
        (8197, 8195)
    );
    assert_eq!(
        (pb_framed(&test4()), size(RmpSeed::<false>, &test4())),
        (8230, 8202)
    );
}

#[test]
fn msgpack_value_len_finds_message_ends() {
    let mut out = Vec::new();
    let mut c = RmpSeed::<false>;
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
    use serbench_runner::cell::Source;
    use serbench_runner::registry::registry;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/user");
    let data = format!("{dir}/tiny.json");
    let types = format!("{dir}/tiny.types.json");
    let src = Source {
        data: &data,
        check_data: &data,
        decode_from: None,
        types: Some(&types),
    };
    for e in registry() {
        let Ok(make) = e.user else { continue };
        let mut cell = make();
        match cell.prepare(&src) {
            Ok(p)
                if e.name.starts_with("serde_json")
                    || e.name.starts_with("simd-json")
                    || e.name.starts_with("sonic") =>
            {
                // JSON has no -0.0 distinct from 0 in every writer, nor bytes: the check decides.
                let _ = p;
            }
            Ok(p) => assert!(p.check_ok, "{}: {}", e.name, p.detail),
            Err(_) if e.name == "bson" => {}
            Err(_) => panic!("{} failed to prepare", e.name),
        }
    }
}
