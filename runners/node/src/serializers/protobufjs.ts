// protobufjs with static code generated at build time (pbjs static-module from every
// dataset .proto, src/gen/protos.js). `prepare` builds the generated message objects
// from the native values (outside timing), as an application holding protobuf messages
// would; `decode` returns the generated classes, int64 as Long (protobufjs's default).
// The conversions both ways are generated per dataset (scripts/typegen.mjs); a user
// dataset's .proto gets its own static module there.
import { serbench } from "../gen/protos.js";
import type { PbType, TypedModel } from "../typed/glue.js";
import { protobufCodec } from "../typed/protobuf.js";
import type { Serializer } from "./base.js";
import { protobufReflect } from "./protobufjs-reflect.js";

/** Built-ins: the static module of every built-in .proto; user datasets: their own. */
const staticTypes = (pkg: string | undefined, model: TypedModel) =>
  (pkg === undefined ? model.protobufTypes : (serbench as any)[pkg]) as Record<string, PbType>;

export const protobufjs: Serializer = {
  name: "protobufjs",
  format: "protobuf",
  pkg: "protobufjs",
  labels: ["binary", "schema-required", "copying-decode", "generated"],
  userDatasets: null,
  notApplicable: () => null,
  codec: (ds) => protobufCodec(ds, staticTypes),
};

export const protobufjsReflect: Serializer = {
  name: "protobufjs-reflect",
  format: "protobuf",
  pkg: "protobufjs",
  labels: ["binary", "schema-required", "copying-decode", "dynamic"],
  userDatasets: null,
  notApplicable: () => null,
  codec: (ds) => protobufReflect(ds),
};
