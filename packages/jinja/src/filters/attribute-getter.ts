import { getItem } from "../runtime/attribute-access.js";
import { Markup } from "../runtime/markup.js";
import { pyStr } from "../runtime/python-repr.js";
import { Undefined } from "../runtime/python-values.js";

/** Jinja's `_prepare_attribute_parts`: `"a.b.0"` → `["a", "b", 0]` (all-digit parts index). */
function attributeParts(attribute: unknown): unknown[] {
  if (attribute === null || attribute === undefined) return [];
  if (typeof attribute === "string" || attribute instanceof Markup) {
    const text = typeof attribute === "string" ? attribute : attribute.text;
    return text.split(".").map((p) => (/^\p{Nd}+$/u.test(p) ? Number(p) : p));
  }
  return [attribute];
}

/** Jinja's `ignore_case`: strings lowered for comparing. */
export function ignoreCase(value: unknown): unknown {
  if (typeof value === "string") return value.toLowerCase();
  if (value instanceof Markup) return new Markup(value.text.toLowerCase());
  return value;
}

/**
 * Jinja's `make_attrgetter`: looks each dotted part up with the sandbox's `getitem`; an undefined step becomes
 * `fallback` when one is given.
 *
 * @example
 * attrGetter("user.name")(toPython({ user: { name: "a" } })); // "a"
 */
export function attrGetter(
  attribute: unknown,
  postprocess?: (v: unknown) => unknown,
  fallback: unknown = null,
): (item: unknown) => unknown {
  const parts = attributeParts(attribute);
  return (item) => {
    let value = item;
    for (const part of parts) {
      value = getItem(value, part);
      if (fallback !== null && value instanceof Undefined) value = fallback;
    }
    return postprocess ? postprocess(value) : value;
  };
}

/**
 * Jinja's `make_multi_attrgetter` (`sort`'s key): comma-separated attributes, each looked up, as a list; with
 * no attribute, `[item]`.
 *
 * @example
 * multiAttrGetter("age,name")(toPython({ age: 3, name: "a" })); // [3, "a"]
 */
export function multiAttrGetter(
  attribute: unknown,
  postprocess?: (v: unknown) => unknown,
): (item: unknown) => unknown[] {
  const split =
    typeof attribute === "string" || attribute instanceof Markup ? pyStr(attribute).split(",") : [attribute];
  const getters = split.map((part) => attrGetter(part, postprocess));
  return (item) => getters.map((get) => get(item));
}
