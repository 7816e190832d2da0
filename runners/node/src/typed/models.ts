// The generated typed model of a dataset, or why a typed row cannot run on it.
import { BUILTIN, USER } from "../gen/model/index.js";
import type { Dataset } from "../model.js";
import { NotApplicable } from "../serializers/base.js";
import type { TypedModel } from "./glue.js";

/**
 * User datasets are looked up by their types file's sha256: one registered (or re-registered
 * with other types) after the last build has no model yet.
 */
export function typedModel(ds: Dataset): TypedModel {
  const model = ds.kind === "builtin" ? BUILTIN[ds.name] : USER[ds.types.fingerprint];
  if (!model || model.fingerprint !== ds.types.fingerprint)
    throw new NotApplicable(
      "typed model not built for this dataset's types: run `serbench build -r node`",
    );
  return model;
}

/** The orchestrator's reason a user dataset's schema of this kind is unavailable, if any. */
export function unavailable(ds: Dataset, kind: string): void {
  const why = ds.kind === "user" ? ds.schemas[kind]?.unavailable : undefined;
  if (why) throw new NotApplicable(why); // it already names the format
}
