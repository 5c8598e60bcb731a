export interface FuzzMismatch {
  seed: number;
  index: number;
  template: string;
  variables: string;
  expected: unknown;
  actual: unknown;
}
export function runFuzz(options: {
  jinja: unknown;
  core: unknown;
  seed: number;
  count: number;
  batch?: number;
  onBatch?: (progress: { done: number; mismatches: number }) => void;
}): { cases: number; pythonErrors: number; mismatches: FuzzMismatch[] };
