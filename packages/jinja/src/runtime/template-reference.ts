import { MISSING, PyObject } from "./py-object.js";
import { PyFunction } from "./python-values.js";
import type { Scope } from "./scope.js";

export class TemplateReference extends PyObject {
  readonly blocks: Map<string, (scope: Scope) => string>;
  readonly scope: Scope;
  constructor(blocks: Map<string, (scope: Scope) => string>, scope: Scope) {
    super();
    this.blocks = blocks;
    this.scope = scope;
  }
  get pyType(): string {
    return "TemplateReference";
  }
  override get pyModule(): string {
    return "jinja2.runtime";
  }
  override getAttr(name: string): unknown {
    const block = this.blocks.get(name);
    if (block === undefined) return MISSING;
    return new PyFunction(name, () => block(this.scope), "BlockReference");
  }
}
