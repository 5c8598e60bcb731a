// The page: the state from the address, the three tools wired to their inputs, the address kept up to date. Every
// change re-runs the open tool (after a short pause in typing) and records the time it took in the Performance
// timeline (`toolcall:update`), the first one also as `toolcall:first-render`.
import "./styles.css";
import { SYNTAX_IDS, syntaxById } from "@toolcall/model-formats";
import { providerChoices, runChatTool } from "./chat-tool.js";
import { showChatReport } from "./chat-view.js";
import { byId, h } from "./dom.js";
import { DEFAULT_TEMPLATE_NAME, defaultState, FALLBACK_TEMPLATE } from "./examples.js";
import { runOutputTool } from "./output-tool.js";
import { showOutputReport } from "./output-view.js";
import { SAVED_CHAT_FORMATS } from "./saved-chat.js";
import { sharedTemplateIndex, templateSource } from "./shared-templates.js";
import { decodeState, encodeState, type PlaygroundState, type Tab } from "./state.js";
import { runTemplateTool, type TemplateInputs } from "./template-tool.js";
import { showTemplateReport } from "./template-view.js";

const OWN = "";
performance.mark("toolcall:script");
const index = sharedTemplateIndex();
const defaults = defaultState(index.names.includes(DEFAULT_TEMPLATE_NAME));
const fromAddress = location.hash === "" ? undefined : await decodeState(location.hash, defaults);
let state: PlaygroundState = fromAddress ?? defaults;
const notices: string[] = [];
if (location.hash !== "" && fromAddress === undefined)
  notices.push("The address holds no case this page can read: starting from the example.");
if (index.names.length === 0)
  notices.push(`This build carries no shared templates (${index.note ?? "none found"}): paste your own.`);

const field = <T extends HTMLElement>(id: string) => byId<T>(id);
const templatePick = field<HTMLSelectElement>("template-pick");
const templateText = field<HTMLTextAreaElement>("template-source");
const messages = field<HTMLTextAreaElement>("messages");
const tools = field<HTMLTextAreaElement>("tools");
const variables = field<HTMLTextAreaElement>("variables");
const generationPrompt = field<HTMLInputElement>("add-generation-prompt");
const now = field<HTMLInputElement>("now");
const whitespace = field<HTMLInputElement>("show-whitespace");
const syntax = field<HTMLSelectElement>("syntax");
const output = field<HTMLTextAreaElement>("output");
const format = field<HTMLSelectElement>("format");
const provider = field<HTMLSelectElement>("provider");
const chat = field<HTMLTextAreaElement>("chat");

const options = (select: HTMLSelectElement, choices: Array<{ value: string; label: string }>) =>
  select.replaceChildren(...choices.map((choice) => h("option", { value: choice.value }, choice.label)));
options(templatePick, [
  { value: OWN, label: "(your own: paste it below)" },
  ...index.names.map((name) => ({ value: name, label: name })),
]);
options(syntax, [
  { value: "auto", label: "detected from the template" },
  ...SYNTAX_IDS.map((id) => ({ value: id, label: `${id}: ${syntaxById(id)?.name ?? id}` })),
]);
options(format, [
  { value: "auto", label: "detect" },
  ...SAVED_CHAT_FORMATS.map((f) => ({ value: f.id, label: `${f.name} (${f.id})` })),
]);
options(
  provider,
  providerChoices().map((p) => ({ value: p.id, label: `${p.name}${p.id === "any" ? "" : ` (${p.id})`}` })),
);

/** The template's source: the shared one by name, or the user's own. */
async function currentSource(): Promise<string> {
  if (state.templateName === null) return state.template;
  const source = await templateSource(state.templateName);
  if (source !== undefined) return source;
  notices.push(
    `The server did not give the template ${state.templateName} (pnpm playground reads it from ../shared/templates): paste it${state.template === "" ? "; a small ChatML template stands in meanwhile" : ""}.`,
  );
  state = {
    ...state,
    templateName: null,
    template: state.template === "" ? FALLBACK_TEMPLATE : state.template,
  };
  return state.template;
}

/** Where the picked template comes from, and its model's licence as SOURCES.md records it. */
function templateNote(): string {
  if (state.templateName === null) return "";
  const licence = index.licences?.[state.templateName];
  return `One of the shared templates, as published (read from ../shared/templates by the server${licence ? `; model licence: ${licence}` : ""}); editing it makes it your own.`;
}

async function fillInputs(): Promise<void> {
  templatePick.value = state.templateName ?? OWN;
  templateText.value = await currentSource();
  templatePick.value = state.templateName ?? OWN;
  byId("template-note").textContent = templateNote();
  messages.value = state.messages;
  tools.value = state.tools;
  variables.value = state.variables;
  generationPrompt.checked = state.addGenerationPrompt;
  now.value = state.now;
  syntax.value = state.syntax;
  output.value = state.output;
  format.value = state.format;
  provider.value = state.provider;
  chat.value = state.chat;
}

function templateInputs(): TemplateInputs {
  return {
    source: templateText.value,
    messages: messages.value,
    tools: tools.value,
    variables: variables.value,
    addGenerationPrompt: generationPrompt.checked,
    now: now.value,
  };
}

function readState(): PlaygroundState {
  return {
    ...state,
    template: state.templateName === null ? templateText.value : "",
    messages: messages.value,
    tools: tools.value,
    variables: variables.value,
    addGenerationPrompt: generationPrompt.checked,
    now: now.value,
    output: output.value,
    syntax: syntax.value,
    chat: chat.value,
    format: format.value,
    provider: provider.value,
  };
}

function showTab(tab: Tab): void {
  for (const name of ["template", "output", "chat"] as const) {
    byId(`panel-${name}`).hidden = name !== tab;
    byId(`tab-${name}`).setAttribute("aria-selected", String(name === tab));
  }
}

let updates = 0;
function update(): void {
  const started = performance.now();
  const view = { whitespace: whitespace.checked };
  showTab(state.tab);
  if (state.tab === "template") showTemplateReport(runTemplateTool(templateInputs()), view);
  else if (state.tab === "output")
    showOutputReport(
      runOutputTool({ ...templateInputs(), output: output.value, syntax: syntax.value }),
      view,
    );
  else
    showChatReport(
      runChatTool({ chat: chat.value, format: format.value, provider: provider.value }),
      provider.value,
    );
  byId("notice").textContent = notices.join(" ");
  updates++;
  performance.measure("toolcall:update", { start: started, end: performance.now() });
  if (updates === 1) performance.mark("toolcall:first-render");
  document.body.dataset.updates = String(updates);
}

let addressTimer: ReturnType<typeof setTimeout> | undefined;
function saveAddress(): void {
  clearTimeout(addressTimer);
  addressTimer = setTimeout(async () => {
    history.replaceState(null, "", `#${await encodeState(state)}`);
    document.body.dataset.saved = String(updates);
  }, 100);
}

let typingTimer: ReturnType<typeof setTimeout> | undefined;
function changed(immediately = false): void {
  state = readState();
  clearTimeout(typingTimer);
  const run = () => {
    update();
    saveAddress();
  };
  if (immediately) run();
  else typingTimer = setTimeout(run, 150);
}

templatePick.addEventListener("change", async () => {
  state = { ...readState(), templateName: templatePick.value === OWN ? null : templatePick.value };
  if (state.templateName === null) state = { ...state, template: templateText.value };
  templateText.value = await currentSource();
  byId("template-note").textContent = templateNote();
  changed(true);
});
templateText.addEventListener("input", () => {
  if (state.templateName !== null) {
    state = { ...state, templateName: null };
    templatePick.value = OWN;
    byId("template-note").textContent = "";
  }
  changed();
});
for (const input of [messages, tools, variables, now, output, chat])
  input.addEventListener("input", () => changed());
for (const select of [generationPrompt, syntax, format, provider, whitespace])
  select.addEventListener("change", () => changed(true));
for (const button of document.querySelectorAll<HTMLButtonElement>("[data-tab]"))
  button.addEventListener("click", () => {
    state = { ...readState(), tab: button.dataset.tab as Tab };
    changed(true);
  });
byId("share").addEventListener("click", async () => {
  const button = byId("share");
  const url = `${location.origin}${location.pathname}#${await encodeState(readState())}`;
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = "Link copied";
  } catch {
    button.textContent = "Copy failed";
  }
  setTimeout(() => {
    button.textContent = "Copy link";
  }, 1500);
});
window.addEventListener("hashchange", async () => {
  const next = await decodeState(location.hash, defaults);
  if (next === undefined || JSON.stringify(next) === JSON.stringify(state)) return;
  state = next;
  await fillInputs();
  update();
});

performance.mark("toolcall:state");
await fillInputs();
performance.mark("toolcall:inputs");
update();
