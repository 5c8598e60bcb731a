/**
 * Python's `repr(float)` for a JavaScript number: the same shortest round-trip digits JavaScript finds, laid out
 * the way Python lays them out (`1.0`, `1e+20`, `1e-07`, `inf` is left to the caller).
 *
 * @example
 * pythonFloatRepr(1); // "1.0"
 * pythonFloatRepr(1e20); // "1e+20"
 * pythonFloatRepr(1e-7); // "1e-07"
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "Infinity";
  if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  // toExponential() without an argument gives the shortest digits that round-trip.
  const [mantissa = "", exponentText = "0"] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? "-" : "+";
    const expDigits = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${head}e${expSign}${expDigits}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1);
  return `${sign}${integerPart}.${fraction === "" ? "0" : fraction}`;
}
