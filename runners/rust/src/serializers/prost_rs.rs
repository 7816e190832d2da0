//! prost: messages generated from datasets/*/*.proto by build.rs. Encode copies the
//! native value into the generated message, then encodes it; decode parses the message
//! and moves it into the native value.

use crate::cell::Codec;
use crate::generated::pb;
use crate::registry::Entry;
use crate::types::*;

/// A native type and its generated message.
pub trait Proto: Sized {
    type Msg: prost::Message + Default;
    fn to_msg(&self) -> Self::Msg;
    fn from_msg(m: Self::Msg) -> Res<Self>;
}

fn user(x: &SampleData) -> pb::android_users::SampleData {
    pb::android_users::SampleData {
        id: x.id,
        name: x.name.clone(),
        age: x.age,
        gender: x.gender as i32,
        is_megane: x.is_megane as i32,
    }
}

impl Proto for Users {
    type Msg = pb::android_users::SampleList;
    fn to_msg(&self) -> Self::Msg {
        pb::android_users::SampleList {
            sample_data: self.iter().map(user).collect(),
        }
    }
    fn from_msg(m: Self::Msg) -> Res<Self> {
        m.sample_data
            .into_iter()
            .map(|x| {
                Ok(SampleData {
                    id: x.id,
                    name: x.name,
                    age: x.age,
                    gender: Gender::from_ordinal(x.gender as i64)?,
                    is_megane: x.is_megane != 0,
                })
            })
            .collect()
    }
}

impl Proto for Test1 {
    type Msg = pb::pb_vs_msgpack::Test1;
    fn to_msg(&self) -> Self::Msg {
        pb::pb_vs_msgpack::Test1 {
            a: self.a,
            b: self.b,
        }
    }
    fn from_msg(m: Self::Msg) -> Res<Self> {
        Ok(Test1 { a: m.a, b: m.b })
    }
}

impl Proto for Test2 {
    type Msg = pb::pb_vs_msgpack::Test2;
    fn to_msg(&self) -> Self::Msg {
        pb::pb_vs_msgpack::Test2 {
            a: self.a,
            b: self.b,
        }
    }
    fn from_msg(m: Self::Msg) -> Res<Self> {
        Ok(Test2 { a: m.a, b: m.b })
    }
}

impl Proto for Test3 {
    type Msg = pb::pb_vs_msgpack::Test3;
    fn to_msg(&self) -> Self::Msg {
        pb::pb_vs_msgpack::Test3 { s: self.s.clone() }
    }
    fn from_msg(m: Self::Msg) -> Res<Self> {
        Ok(Test3 { s: m.s })
    }
}

impl Proto for Test4 {
    type Msg = pb::pb_vs_msgpack::Test4;
    fn to_msg(&self) -> Self::Msg {
        pb::pb_vs_msgpack::Test4 {
            t1: self.t1.to_msg(),
            t2: self.t2.to_msg(),
            t3: self.t3.to_msg(),
        }
    }
    fn from_msg(m: Self::Msg) -> Res<Self> {
        Ok(Test4 {
            t1: Test1::from_msg(m.t1)?,
            t2: Test2::from_msg(m.t2)?,
            t3: Test3::from_msg(m.t3)?,
        })
    }
}

impl Proto for Dict {
    type Msg = pb::one_mb_dict::Dict;
    fn to_msg(&self) -> Self::Msg {
        pb::one_mb_dict::Dict {
            entries: self.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        }
    }
    fn from_msg(m: Self::Msg) -> Res<Self> {
        Ok(m.entries.into_iter().collect())
    }
}

impl Proto for ClickMap {
    type Msg = pb::click_maps::ClickMap;
    fn to_msg(&self) -> Self::Msg {
        use pb::click_maps as p;
        p::ClickMap {
            url: self.url.clone(),
            day: self.day.clone(),
            viewport: Some(p::Viewport {
                width: self.viewport.width,
                height: self.viewport.height,
            }),
            clicks: self
                .clicks
                .iter()
                .map(|(k, c)| {
                    let c = p::Click {
                        x: c.x,
                        y: c.y,
                        count: c.count,
                        last_click: c.last_click,
                        selector: c.selector.clone(),
                    };
                    (k.clone(), c)
                })
                .collect(),
        }
    }
    fn from_msg(m: Self::Msg) -> Res<Self> {
        let v = m.viewport.unwrap_or_default();
        Ok(ClickMap {
            url: m.url,
            day: m.day,
            viewport: Viewport {
                width: v.width,
                height: v.height,
            },
            clicks: m
                .clicks
                .into_iter()
                .map(|(k, c)| {
                    let c = Click {
                        x: c.x,
                        y: c.y,
                        count: c.count,
                        last_click: c.last_click,
                        selector: c.selector,
                    };
                    (k, c)
                })
                .collect(),
        })
    }
}

impl Proto for Logs {
    type Msg = pb::log_records::TestClassList;
    fn to_msg(&self) -> Self::Msg {
        use pb::log_records as p;
        p::TestClassList {
            items: self
                .iter()
                .map(|x| p::TestClass {
                    my_property1: x.my_property1.clone(),
                    my_property2: x.my_property2,
                    my_property3: x.my_property3,
                    my_property4: x.my_property4,
                    my_property5: x
                        .my_property5
                        .iter()
                        .map(|q| p::Pair {
                            key: q.key.clone(),
                            value: q.value.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
    fn from_msg(m: Self::Msg) -> Res<Self> {
        Ok(m.items
            .into_iter()
            .map(|x| TestClass {
                my_property1: x.my_property1,
                my_property2: x.my_property2,
                my_property3: x.my_property3,
                my_property4: x.my_property4,
                my_property5: x
                    .my_property5
                    .into_iter()
                    .map(|q| Pair {
                        key: q.key,
                        value: q.value,
                    })
                    .collect(),
            })
            .collect())
    }
}

pub struct Prost;

impl<T: Proto + 'static> Codec<T> for Prost {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        prost::Message::encode(&v.to_msg(), out).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        T::from_msg(<T::Msg as prost::Message>::decode(b).map_err(|e| e.to_string())?)
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "prost",
        format: "protobuf",
        library: "prost",
        labels: &["binary", "schema-required", "generated", "copying-decode"],
        typed: false,
        user: Err(
            "prost decodes only into generated types; user datasets are timed by the \
             prost-reflect row (DynamicMessage from the dataset's descriptor set)",
        ),
        make: every_dataset!(builtin, "prost", Prost),
    }]
}
