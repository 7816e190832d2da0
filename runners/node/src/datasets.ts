// A `dataset` object of a command (docs/runner-protocol.md, section 3) resolved to the
// runner's typed model: shared by serve, transport and the untrusted-input commands.
import { BUILTIN, builtinTypes, userTypes, type Dataset } from "./model.js";

/** A command the runner cannot read: answered with error code bad_request. */
export class BadRequest extends Error {}

export interface DatasetRef {
  name: string;
  kind: "builtin" | "user";
  data: string;
  check_data?: string;
  types?: string;
  schemas?: Dataset["schemas"];
}

export function resolveDataset(ref: DatasetRef): Dataset | string {
  if (ref.kind === "user") {
    if (typeof ref.types !== "string") throw new BadRequest("a user dataset needs types");
    return {
      name: ref.name,
      kind: "user",
      types: userTypes(ref.types),
      schemas: ref.schemas ?? {},
    };
  }
  if (!(ref.name in BUILTIN))
    return `no built-in dataset ${JSON.stringify(ref.name)}; valid: ${Object.keys(BUILTIN).join(", ")}`;
  return { name: ref.name, kind: "builtin", types: builtinTypes(ref.name), schemas: {} };
}
