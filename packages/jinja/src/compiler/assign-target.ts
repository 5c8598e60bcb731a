import { isIterable, iterable } from "../runtime/access.js";
import { PyIterator } from "../runtime/py-iterator.js";
import { Namespace, typeName } from "../runtime/python-values.js";
import type { Scope } from "../runtime/scope.js";
import { fail } from "../runtime/template-error.js";
import type { Target } from "./ast.js";

/** Assignment to Jinja's targets (`x`, `a, b`, `ns.attr`), with Python's unpacking errors. */

export function unpack(value: unknown, count: number): unknown[] {
  if (Array.isArray(value) && value.length === count) return value;
  if (!isIterable(value)) fail("TypeError", `cannot unpack non-iterable ${typeName(value)} object`);
  const source = iterable(value);
  const items = source instanceof PyIterator ? source.drain() : source;
  if (items.length < count)
    fail("ValueError", `not enough values to unpack (expected ${count}, got ${items.length})`);
  if (items.length > count) fail("ValueError", `too many values to unpack (expected ${count})`);
  return items;
}

export function assign(target: Target, value: unknown, scope: Scope): void {
  switch (target.kind) {
    case "name":
      scope.set(target.name, value);
      return;
    case "tuple": {
      const items = unpack(value, target.items.length);
      target.items.forEach((item, i) => {
        assign(item, items[i], scope);
      });
      return;
    }
    case "nsref": {
      const ns = scope.get(target.name);
      if (!(ns instanceof Namespace))
        fail("TemplateRuntimeError", "cannot assign attribute on non-namespace object");
      ns.attributes.set(target.attr, value);
      return;
    }
    default: {
      const never: never = target;
      fail("TemplateSyntaxError", `unknown assignment target ${String(never)}`);
    }
  }
}

export function targetNames(target: Target): string[] {
  if (target.kind === "name") return [target.name];
  if (target.kind === "tuple") return target.items.flatMap(targetNames);
  return [];
}

/** `self` in a template: its blocks, callable (`self.name()`). */
