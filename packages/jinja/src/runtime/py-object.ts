/** What an attribute lookup answers when the object has no such attribute. */
export const MISSING: unique symbol = Symbol("missing");

/**
 * The base of the engine's Python objects that are not plain JavaScript values (namespace, loop, macro, cycler,
 * range, iterators, dict views): each knows its Python type name and its attributes.
 */
export abstract class PyObject {
  /** The Python type name, as `type(x).__name__` gives it. */
  abstract get pyType(): string;
  /** The module of the type, for Jinja's `object_type_repr` (`builtins` prints no module). */
  get pyModule(): string {
    return "builtins";
  }
  /** `getattr(obj, name)`, or {@link MISSING}. */
  getAttr(_name: string): unknown {
    return MISSING;
  }
}
