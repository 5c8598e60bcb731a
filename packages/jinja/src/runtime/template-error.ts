const marker = Symbol.for("@toolcall/jinja/TemplateError");

/**
 * A template that failed to compile or to render, named as Python names it: `type` is the Python exception class
 * (`TemplateError` for `raise_exception`, `TypeError`, `UndefinedError`, `TemplateSyntaxError`, …) and `message`
 * is `str(exception)`, so `${type}: ${message}` is what a Python caller of transformers sees.
 *
 * @example
 * try {
 *   compileTemplate("{{ raise_exception('bad turn') }}").render({});
 * } catch (error) {
 *   if (TemplateError.isInstance(error)) error.pythonText; // "TemplateError: bad turn"
 * }
 */
export class TemplateError extends Error {
  /** The Python exception class name. */
  readonly type: string;
  /**
   * The template line a syntax error is on (Jinja's `TemplateSyntaxError.lineno`; also set for
   * `TemplateAssertionError`). Python's `str(error)` does not include it, so neither does `message`.
   */
  readonly lineno: number | undefined;

  constructor(type: string, message: string, lineno?: number) {
    super(message);
    this.name = "TemplateError";
    this.type = type;
    this.lineno = lineno;
    Object.defineProperty(this, marker, { value: true });
  }

  /** `Type: message`, the text Python prints for the exception. */
  get pythonText(): string {
    return `${this.type}: ${this.message}`;
  }

  /** True for errors made by any copy of this class (safe across duplicated installs). */
  static isInstance(error: unknown): error is TemplateError {
    return typeof error === "object" && error !== null && marker in error;
  }
}

/**
 * Raises a Python-named error from inside the engine.
 *
 * @example
 * fail("TypeError", "unsupported operand type(s) for +: 'int' and 'str'");
 */
export function fail(type: string, message: string, lineno?: number): never {
  throw new TemplateError(type, message, lineno);
}
