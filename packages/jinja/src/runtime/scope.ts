import { fail } from "./template-error.js";

/** Variables visible at a point of a render: this scope's own, then its parents'. */
export class Scope {
  readonly vars = new Map<string, unknown>();
  readonly parent: Scope | null;
  /** The template-level scope (Jinja's context), where top-level `set`s land and blocks look names up. */
  readonly top: Scope;

  constructor(parent: Scope | null, isTop = false) {
    this.parent = parent;
    this.top = isTop || parent === null ? this : parent.top;
  }

  /** The innermost value of `name`, or `undefined` when no scope has it. */
  get(name: string): unknown {
    let scope: Scope | null = this;
    do {
      const value = scope.vars.get(name);
      if (value !== undefined) return value;
      scope = scope.parent;
    } while (scope !== null);
    return undefined;
  }

  set(name: string, value: unknown): void {
    this.vars.set(name, value);
  }
}

/** What one render keeps beside its scopes (renders are synchronous, so one at a time per thread). */
export const runtime = {
  /** `{% break %}` / `{% continue %}` travel up to their loop through this flag. */
  control: 0,
  /** Python stack frames in use by macro calls and recursive loops, against Python's recursion limit. */
  frames: 0,
};

export const BREAK = 1;
export const CONTINUE = 2;

/**
 * The frames CPython has left for a template's own recursion when transformers renders it: Python's limit of
 * 1000 minus what the caller and Jinja's render machinery hold below the template. Measured against the reference
 * renderer: a macro calling itself (5 frames a call: the sandbox's `call`, `Context.call`, `Macro.__call__`,
 * `Macro._invoke`, the macro's code) makes 198 calls, the 199th raises; a recursive loop's `loop(…)` the same.
 */
export const FRAME_BUDGET = 990;
/** Frames one macro call holds. */
export const MACRO_FRAMES = 5;
/** Frames one `loop(…)` call of a recursive loop holds. */
export const LOOP_FRAMES = 5;

/** Resets a render's state (a previous render may have thrown midway). */
export function resetRuntime(): void {
  runtime.control = 0;
  runtime.frames = 0;
}

/** Enters a call that holds `frames` Python frames; raises Python's RecursionError past the budget. */
export function enterFrames(frames: number): void {
  runtime.frames += frames;
  if (runtime.frames > FRAME_BUDGET) {
    runtime.frames -= frames;
    fail("RecursionError", "maximum recursion depth exceeded");
  }
}

export function leaveFrames(frames: number): void {
  runtime.frames -= frames;
}
