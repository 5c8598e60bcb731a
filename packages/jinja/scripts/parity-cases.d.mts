export interface TemplateFile {
  name: string;
  source: string;
}
export interface Conversations {
  about?: string;
  tools: unknown[];
  conversations: { id: string; args_json: string[] }[];
}
export interface RenderCase {
  template: string;
  source: string;
  id: string;
  form: "mapping" | "string";
  tools: unknown[] | null;
  messages: Record<string, unknown>[];
  addGenerationPrompt?: boolean;
  variables?: Record<string, unknown>;
}
export type Outcome = { ok: string } | { error: string };
export const repoRoot: string;
export const sharedDir: string;
export const templatesDir: string;
export const hfRender: string;
export const PARITY_NOW: Date;
export const KWARGS: { bos_token: string; eos_token: string };
export const TEMPLATE_FOLDERS: string[];
export function loadTemplates(): TemplateFile[];
export function loadConversations(): Conversations;
export function callId(conversation: number, call: number): string;
export function buildMessages(options: {
  tools: unknown[];
  argsJson: string[];
  index: number;
  content: string | null;
  label: string;
}): Record<string, unknown>[];
export function buildCases(options: {
  templates: TemplateFile[];
  conversations: Conversations;
  formFor: (template: TemplateFile) => "mapping" | "string";
}): RenderCase[];
export function renderPython(cases: RenderCase[]): Outcome[];
export function renderOurs(jinja: unknown, c: RenderCase): Outcome;
export function sameOutcome(expected: Outcome, actual: Outcome): boolean;
export function renderPythonText(input: string): Outcome[];
export function pythonBatchText(cases: RenderCase[]): string;
