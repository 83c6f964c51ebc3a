// Request schemas are TypeBox objects over string parameters. They validate what the codecs get
// and document the routes (the protocol reference is generated from them).
import { type TObject, type TProperties, Type } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import type { Params } from "./params.ts";

/** A required string parameter; `pattern` and `maxLength` give the error message its substance. */
export const Req = (description: string, o: { pattern?: string; maxLength?: number } = {}) =>
  Type.String({ minLength: 1, description, ...o });
export const Opt = (description: string, o: { pattern?: string; maxLength?: number } = {}) =>
  Type.Optional(Type.String({ description, ...o }));

export const INT = "^\\d{1,10}$";
export const YUAN = "^\\d{1,8}(\\.\\d{1,2})?$";

export interface ParamSchema<T extends TProperties = TProperties> {
  schema: TObject<T>;
  check: TypeCheck<TObject<T>>;
}

export function paramSchema<T extends TProperties>(properties: T, description = ""): ParamSchema<T> {
  const schema = Type.Object(properties, { additionalProperties: true, description });
  return { schema, check: TypeCompiler.Compile(schema) };
}

/** The first problem with the parameters, worded for the merchant's developer, or null. */
export function firstProblem(s: ParamSchema, params: Params): string | null {
  if (s.check.Check(params)) return null;
  for (const [key, prop] of Object.entries(s.schema.properties)) {
    const v: string = params[key] ?? "";
    const required = s.schema.required?.includes(key) ?? false;
    if (v === "") {
      if (required) return `missing parameter: ${key}`;
      continue;
    }
    const p = prop as { maxLength?: number; pattern?: string; description?: string };
    if (p.maxLength !== undefined && v.length > p.maxLength) return `parameter ${key} is longer than ${p.maxLength} characters`;
    if (p.pattern !== undefined && !new RegExp(p.pattern).test(v)) return `invalid parameter ${key}: ${p.description ?? "bad format"}`;
  }
  return "invalid parameters";
}
