export const vectorsDir: string;
export function pythonJson(value: unknown): string;
export function taggedFromWire(text: string): unknown;
export function buildVectorFiles(options: {
  formFor: (template: { name: string; source: string }) => "mapping" | "string";
}): { file: string; groups: { description: string; tests: { id: string; expected: unknown }[] }[] }[];
