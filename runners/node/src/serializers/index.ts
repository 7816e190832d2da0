// The Node runner's serializers: one module per library, one registry line each.
import { avsc } from "./avsc.js";
import type { Serializer } from "./base.js";
import { bson } from "./bson.js";
import { cborX } from "./cbor.js";
import { copy } from "./copy.js";
import { flatbuffers, flatbuffersAccess } from "./flatbuffers.js";
import { flexbuffers } from "./flexbuffers.js";
import { handwritten } from "./handwritten.js";
import { json } from "./json.js";
import { msgpackJs } from "./msgpack.js";
import { msgpackr, msgpackrPositional, msgpackrRecords } from "./msgpackr.js";
import { noop } from "./noop.js";
import { protobufjs, protobufjsReflect } from "./protobufjs.js";
import { v8 } from "./v8.js";

export const REGISTRY: Record<string, Serializer> = Object.fromEntries(
  [
    noop,
    copy,
    handwritten,
    json,
    v8,
    msgpackr,
    msgpackrRecords,
    msgpackrPositional,
    msgpackJs,
    cborX,
    bson,
    protobufjs,
    protobufjsReflect,
    avsc,
    flatbuffers,
    flatbuffersAccess,
    flexbuffers,
  ].map((s) => [s.name, s]),
);
