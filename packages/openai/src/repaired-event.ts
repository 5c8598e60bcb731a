/**
 * An event handed on: the input event itself, or a changed one with `redo`, which makes the same change on another
 * reading of the same event (a lossless one, so a byte stream keeps every number as written).
 */
export type RepairedEvent<T> =
  | { kind: "same"; value: T }
  | { kind: "edited"; value: T; redo: (exact: unknown) => unknown }
  | { kind: "new"; value: T };
