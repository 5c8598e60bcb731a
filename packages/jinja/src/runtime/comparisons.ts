import { compareCodePoints } from "@toolcall/core/kit";
import { dictGet, dictHas, hashKey } from "./access.js";
import { DictView } from "./dict-view.js";
import { isStr, Markup, strText } from "./markup.js";
import { PyBytes } from "./py-bytes.js";
import { DONE, PyIterator } from "./py-iterator.js";
import { MISSING } from "./py-object.js";
import { PyRange } from "./py-range.js";
import { asInt, big, type Int, isInt, isNumeric, toNumber } from "./python-numbers.js";
import { isTuple, PyFloat, typeName, Undefined } from "./python-values.js";
import { fail } from "./template-error.js";

/** Python's `==`, ordering and `in` over engine values, with Python's results and error messages. */

function checkUndefined(a: unknown, b: unknown): void {
  if (a instanceof Undefined) a.fail();
  if (b instanceof Undefined) b.fail();
}

function numbersEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "bigint" || typeof b === "bigint") {
    if (a instanceof PyFloat || b instanceof PyFloat) {
      const f = (a instanceof PyFloat ? a : b) as PyFloat;
      const i = a instanceof PyFloat ? b : a;
      if (!Number.isInteger(f.value)) return false;
      return BigInt(f.value) === big(asInt(i as Int));
    }
    return big(asInt(a as Int)) === big(asInt(b as Int));
  }
  return toNumber(a) === toNumber(b);
}

/** Python `==` inside a container: identical objects are equal (a NaN in a list equals itself). */
function itemEq(a: unknown, b: unknown): boolean {
  return a === b || eq(a, b);
}

function rangesEqual(a: PyRange, b: PyRange): boolean {
  if (a.length !== b.length) return false;
  if (a.length === 0) return true;
  return a.start === b.start && (a.length === 1 || a.step === b.step);
}

/** Python `==`. */
export function eq(a: unknown, b: unknown): boolean {
  if (a === b) return !(a instanceof PyFloat && Number.isNaN(a.value));
  if (typeof a === "string" || typeof b === "string") {
    return isStr(a) && isStr(b) && strText(a) === strText(b);
  }
  if (isNumeric(a) && isNumeric(b)) return numbersEqual(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (isTuple(a) !== isTuple(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!itemEq(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) {
      const other = dictGet(b, k);
      if (other === MISSING || !itemEq(v, other)) return false;
    }
    return true;
  }
  if (a instanceof Markup && b instanceof Markup) return a.text === b.text;
  if (a instanceof PyBytes && b instanceof PyBytes)
    return a.data.length === b.data.length && a.data.every((x, i) => x === b.data[i]);
  if (a instanceof Undefined && b instanceof Undefined) return true;
  if (a instanceof PyRange && b instanceof PyRange) return rangesEqual(a, b);
  if (a instanceof DictView && b instanceof DictView && a.kind === b.kind && a.kind !== "dict_values") {
    if (a.length !== b.length) return false;
    return a.items().every((item) => contains(b, item));
  }
  return false;
}

/** Compares strings by code point, as Python does: core's comparison, the one `sortKeys` uses. */
export const compareStrings = compareCodePoints;

/** Three-way ordering for `<`, `sort`, `min`, `max`; raises Python's TypeError for unordered types. */
export function order(a: unknown, b: unknown, op = "<"): number {
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  checkUndefined(a, b);
  if (isNumeric(a) && isNumeric(b)) {
    if ((typeof a === "bigint" || typeof b === "bigint") && isInt(a) && isInt(b)) {
      const x = big(asInt(a));
      const y = big(asInt(b));
      return x < y ? -1 : x > y ? 1 : 0;
    }
    const x = toNumber(a);
    const y = toNumber(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (isStr(a) && isStr(b)) return compareStrings(strText(a), strText(b));
  if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
    const length = Math.min(a.length, b.length);
    for (let i = 0; i < length; i++) {
      if (!itemEq(a[i], b[i])) return order(a[i], b[i], op);
    }
    return a.length - b.length;
  }
  return fail(
    "TypeError",
    `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`,
  );
}

/** Python `item in container`. */
export function contains(container: unknown, item: unknown): boolean {
  if (isStr(container)) {
    if (!isStr(item))
      fail("TypeError", `'in <string>' requires string as left operand, not ${typeName(item)}`);
    return strText(container).includes(strText(item));
  }
  if (Array.isArray(container)) {
    for (const x of container) if (itemEq(x, item)) return true;
    return false;
  }
  if (container instanceof Map) return dictHas(container, item);
  if (container instanceof Undefined) return false;
  if (container instanceof PyRange) {
    const key = hashKey(item);
    if (typeof key === "number") return container.has(key);
    return container.items().some((x) => eq(x, item));
  }
  if (container instanceof DictView) {
    if (container.kind === "dict_keys") return dictHas(container.map, item);
    if (container.kind === "dict_items") {
      if (!isTuple(item) || item.length !== 2) return false;
      const value = dictGet(container.map, item[0]);
      return value !== MISSING && itemEq(value, item[1]);
    }
    return container.items().some((x) => itemEq(x, item));
  }
  if (container instanceof PyIterator) {
    for (let x = container.next(); x !== DONE; x = container.next()) if (itemEq(x, item)) return true;
    return false;
  }
  return fail("TypeError", `argument of type '${typeName(container)}' is not iterable`);
}
