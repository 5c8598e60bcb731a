import { PyObject } from "./py-object.js";

/** A Python callable: positional arguments and keyword arguments. */
export class PyFunction extends PyObject {
  readonly name: string;
  readonly call: (args: unknown[], kwargs: Map<string, unknown> | null) => unknown;
  readonly kind: string;
  /** The type of the object a bound method belongs to (`dict` for `d.items`), for its repr. */
  readonly owner: string | undefined;
  constructor(
    name: string,
    call: (args: unknown[], kwargs: Map<string, unknown> | null) => unknown,
    kind = "function",
    owner?: string,
  ) {
    super();
    this.name = name;
    this.call = call;
    this.kind = kind;
    this.owner = owner;
  }
  get pyType(): string {
    return this.kind;
  }
}
