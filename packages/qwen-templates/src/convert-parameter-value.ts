/**
 * The typing rule for values written as text lives in `@toolcall/core` (every model syntax that carries text
 * values shares it); re-exported here so this package's API stays as it was.
 *
 * @example
 * convertParameterValue({ text: "5", schema: { type: "integer" } }); // { success: true, value: JsonNumber("5") }
 */
export {
  type ConvertedValue,
  convertParameterValue,
  type ParameterType,
  parameterType,
} from "@toolcall/core/kit";
