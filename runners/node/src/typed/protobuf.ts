// protobufjs codecs from a dataset's generated glue (src/gen/model): the static and the
// reflective rows share it, each over its own message types.
import { BUILTIN, type Dataset } from "../model.js";
import { NotApplicable, type Codec } from "../serializers/base.js";
import type { PbGlue, PbType, TypedModel } from "./glue.js";
import { typedModel, unavailable } from "./models.js";

/** A codec from the generated glue between native values and protobufjs messages. */
function typed(glue: PbGlue): Codec {
  const t = glue.type;
  return {
    prepare: glue.prepare,
    encode: (m) => t.encode(m).finish(),
    decode: (b) => t.decode(b),
    toNative: glue.toNative,
  };
}

/** The protobuf glue of a dataset over the message types `types(package)` holds. */
export function protobufCodec(
  ds: Dataset,
  types: (pkg: string, model: TypedModel) => Record<string, PbType>,
): Codec {
  unavailable(ds, "proto");
  const model = typedModel(ds);
  if (typeof model.protobuf === "string") throw new NotApplicable(model.protobuf);
  const pkg = BUILTIN[ds.name]?.replace(/-/g, "_");
  return typed(model.protobuf(types(pkg, model)));
}
