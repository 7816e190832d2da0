// protobufjs with static code generated at build time (pbjs static-module from every
// dataset .proto, src/gen/protos.js). `prepare` builds the generated message objects
// from the native values (outside timing), as an application holding protobuf messages
// would; `decode` returns the generated classes, int64 as Long (protobufjs's default).
import { serbench } from "../gen/protos.js";
import type { Codec, Serializer } from "./base.js";
import { protobufReflect } from "./protobufjs-reflect.js";

type Msg = any;
export interface Type {
  create(o: object): Msg;
  encode(m: Msg): { finish(): Uint8Array };
  decode(b: Uint8Array): Msg;
}

/** Long (or number) -> number when exact, else BigInt. */
export function fromLong(v: unknown): number | bigint {
  if (typeof v === "number") return v;
  const l = v as { toString(): string; high: number; low: number };
  const big = BigInt(l.toString());
  return Number.isSafeInteger(Number(big)) ? Number(big) : big;
}

export function typed(t: Type, prepare: (m: any) => Msg, toNative: (d: Msg) => unknown): Codec {
  return {
    prepare,
    encode: (m) => t.encode(m).finish(),
    decode: (b) => t.decode(b),
    toNative,
  };
}

/** Per built-in dataset: generated (or reflected) types -> a codec. */
export function builtinCodecs(
  lookup: (pkg: string) => Record<string, Type>,
): Record<string, () => Codec> {
  const au = lookup("android_users");
  const pv = lookup("pb_vs_msgpack");
  const cm = lookup("click_maps");
  const lr = lookup("log_records");
  const od = lookup("one_mb_dict");

  const t1 = (m: any) => pv.Test1.create({ a: m.a, b: m.b });
  const t2 = (m: any) => pv.Test2.create({ a: m.a, b: m.b });
  const t3 = (m: any) => pv.Test3.create({ s: m.s });
  const pair = (m: Msg) => ({ a: m.a, b: m.b });

  return {
    "android-users": () =>
      typed(
        au.SampleList,
        (list: any[]) =>
          au.SampleList.create({
            sampleData: list.map((r) =>
              au.SampleData.create({ ...r, isMegane: r.isMegane ? 1 : 0 }),
            ),
          }),
        (d) =>
          d.sampleData.map((r: Msg) => ({
            id: fromLong(r.id),
            name: r.name,
            age: r.age,
            gender: r.gender,
            isMegane: r.isMegane === 1,
          })),
      ),
    "pb-vs-msgpack-test1": () => typed(pv.Test1, t1, pair),
    "pb-vs-msgpack-test2": () => typed(pv.Test2, t2, pair),
    "pb-vs-msgpack-test3": () => typed(pv.Test3, t3, (d) => ({ s: d.s })),
    "pb-vs-msgpack-test4": () =>
      typed(
        pv.Test4,
        (m) => pv.Test4.create({ t1: t1(m.t1), t2: t2(m.t2), t3: t3(m.t3) }),
        (d) => ({ t1: pair(d.t1), t2: pair(d.t2), t3: { s: d.t3.s } }),
      ),
    "one-mb-dict": () =>
      typed(
        od.Dict,
        (m) => od.Dict.create({ entries: m }),
        (d) => ({ ...d.entries }),
      ),
    "click-maps": () =>
      typed(
        cm.ClickMap,
        (m) => {
          const clicks: Record<string, Msg> = {};
          for (const k in m.clicks) clicks[k] = cm.Click.create(m.clicks[k]);
          return cm.ClickMap.create({
            url: m.url,
            day: m.day,
            viewport: cm.Viewport.create(m.viewport),
            clicks,
          });
        },
        (d) => {
          const clicks: Record<string, unknown> = {};
          for (const k in d.clicks) {
            const c = d.clicks[k];
            clicks[k] = {
              x: c.x,
              y: c.y,
              count: c.count,
              lastClick: fromLong(c.lastClick),
              selector: c.selector,
            };
          }
          return {
            url: d.url,
            day: d.day,
            viewport: { width: d.viewport.width, height: d.viewport.height },
            clicks,
          };
        },
      ),
    "log-records": () =>
      typed(
        lr.TestClassList,
        (list: any[]) =>
          lr.TestClassList.create({
            items: list.map((r) =>
              lr.TestClass.create({
                MyProperty1: r.MyProperty1,
                MyProperty2: r.MyProperty2,
                MyProperty3: r.MyProperty3.getTime(),
                MyProperty4: r.MyProperty4,
                MyProperty5: r.MyProperty5.map((p: Msg) => lr.Pair.create(p)),
              }),
            ),
          }),
        (d) =>
          d.items.map((r: Msg) => ({
            MyProperty1: r.MyProperty1,
            MyProperty2: r.MyProperty2,
            MyProperty3: new Date(Number(fromLong(r.MyProperty3))),
            MyProperty4: r.MyProperty4,
            MyProperty5: r.MyProperty5.map((p: Msg) => ({ key: p.key, value: p.value })),
          })),
      ),
  };
}

const CODECS = builtinCodecs((pkg) => (serbench as any)[pkg]);

export const protobufjs: Serializer = {
  name: "protobufjs",
  format: "protobuf",
  pkg: "protobufjs",
  labels: ["binary", "schema-required", "copying-decode", "generated"],
  userDatasets:
    "generated code exists for the built-in datasets only: protobufjs-reflect takes user datasets",
  notApplicable: (d) => (d in CODECS ? null : `no generated code for ${d}`),
  codec: (ds) => CODECS[ds.name](),
};

export const protobufjsReflect: Serializer = {
  name: "protobufjs-reflect",
  format: "protobuf",
  pkg: "protobufjs",
  labels: ["binary", "schema-required", "copying-decode", "dynamic"],
  userDatasets: null,
  notApplicable: (d) => (d in CODECS ? null : `no .proto for ${d}`),
  codec: (ds) => protobufReflect(ds),
};
