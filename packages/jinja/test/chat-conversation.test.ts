import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildCases,
  KWARGS,
  loadConversations,
  loadTemplates,
  PARITY_NOW,
} from "../scripts/parity-cases.mjs";
import {
  createChatConversation,
  probeChatTemplate,
  renderChatTemplate,
  TemplateError,
} from "../src/index.js";

// A conversation converts each message once and renders as renderChatTemplate does (which the parity tests hold
// against transformers). Conversion is counted by the property reads of the caller's messages, never timed.

function outcome(render: () => string): string {
  try {
    return render();
  } catch (error) {
    if (TemplateError.isInstance(error)) return `error ${error.pythonText}`;
    throw error;
  }
}

/** A message whose property reads are counted. */
function counted(message: Record<string, unknown>, reads: { count: number }): Record<string, unknown> {
  return new Proxy(message, {
    get(target, key, receiver) {
      reads.count++;
      return Reflect.get(target, key, receiver);
    },
  });
}

const template =
  "{{ tools|tojson }}|{% for m in messages %}{{ m.role }}:{{ m.content }}{% if m.tool_calls %}{{ m.tool_calls[0].function.arguments|tojson }}{% endif %};{% endfor %}";

describe("createChatConversation", () => {
  it("renders every real template and conversation as renderChatTemplate does, at every render", () => {
    const cases = buildCases({
      templates: loadTemplates(),
      conversations: loadConversations(),
      formFor: (t: { source: string }) => probeChatTemplate(t.source).argumentsForm,
    });
    expect(cases.length).toBeGreaterThan(600);
    for (const c of cases) {
      const options = { messages: c.messages, addGenerationPrompt: true, now: PARITY_NOW };
      const expected = outcome(() =>
        renderChatTemplate({ template: c.source, tools: c.tools, variables: KWARGS, ...options }),
      );
      const conversation = createChatConversation({ template: c.source, tools: c.tools, variables: KWARGS });
      for (let round = 0; round < 3; round++)
        expect(outcome(() => conversation.render(options))).toBe(expected);
    }
  });

  it("reads a message once, however many renders meet it", () => {
    const reads = { count: 0 };
    const first = counted({ role: "user", content: "Weather?" }, reads);
    const call = counted(
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { type: "function", function: { name: "w", arguments: '{"city": "Paris", "t": 20.0}' } },
        ],
      },
      reads,
    );
    const conversation = createChatConversation({ template, tools: [{ type: "function" }] });
    const text = conversation.render({ messages: [first, call] });
    expect(text).toBe('[{"type": "function"}]|user:Weather?;assistant:{"city": "Paris", "t": 20.0};');
    const afterFirst = reads.count;
    expect(afterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) expect(conversation.render({ messages: [first, call] })).toBe(text);
    expect(reads.count).toBe(afterFirst);
    const next = counted({ role: "user", content: "And Rome?" }, reads);
    expect(conversation.render({ messages: [first, call, next] })).toBe(`${text}user:And Rome?;`);
    expect(reads.count).toBeGreaterThan(afterFirst);
    const afterNext = reads.count;
    conversation.render({ messages: [first, call, next] });
    expect(reads.count).toBe(afterNext);
  });

  it("takes a changed message given as a new object", () => {
    const conversation = createChatConversation({ template });
    const message = { role: "user", content: "a" };
    expect(conversation.render({ messages: [message] })).toBe("null|user:a;");
    expect(conversation.render({ messages: [{ ...message, content: "b" }] })).toBe("null|user:b;");
  });

  it("keeps the tojson text of each conversation's own tools", () => {
    const a = createChatConversation({ template: "{{ tools|tojson }}", tools: [{ name: "a" }] });
    const b = createChatConversation({ template: "{{ tools|tojson }}", tools: [{ name: "b" }] });
    for (let i = 0; i < 3; i++) {
      expect(a.render({ messages: [] })).toBe('[{"name": "a"}]');
      expect(b.render({ messages: [] })).toBe('[{"name": "b"}]');
    }
    const indented = createChatConversation({
      template: "{{ tools|tojson }}{{ tools|tojson(indent=1) }}",
      tools: [1],
    });
    for (let i = 0; i < 3; i++) expect(indented.render({ messages: [] })).toBe("[1][\n 1\n]");
  });

  it("renders messages that are not objects as renderChatTemplate does", () => {
    const conversation = createChatConversation({ template: "{{ messages }}" });
    expect(conversation.render({ messages: ["x", null, 1] })).toBe(
      renderChatTemplate({ template: "{{ messages }}", messages: ["x", null, 1] }),
    );
  });
});

describe("createChatConversation on generated messages", () => {
  const text = fc.oneof(fc.string(), fc.constantFrom("\ud800", "__proto__", "{{ x }}", '{"a": 1.0}', ""));
  const call = fc.record({
    id: fc.option(text, { nil: undefined }),
    type: fc.constant("function"),
    function: fc.record({
      name: text,
      arguments: fc.oneof(
        text,
        fc.jsonValue().map((v) => JSON.stringify(v)),
        fc.dictionary(text, fc.jsonValue()),
      ),
    }),
  });
  const message = fc.oneof(
    fc.record({ role: fc.constantFrom("user", "system", "assistant", "tool"), content: fc.option(text) }),
    fc.record({
      role: fc.constant("assistant"),
      content: fc.option(text),
      tool_calls: fc.array(call, { maxLength: 3 }),
    }),
    fc.anything(),
  );
  const source =
    "{% for m in messages %}{{ m.role }}{{ m.content }}{% for c in m.tool_calls or [] %}{{ c.function.arguments|tojson }}{% endfor %}{% endfor %}";

  it("renders what renderChatTemplate renders, render after render", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), (messages) => {
        const expected = outcome(() => renderChatTemplate({ template: source, messages }));
        const conversation = createChatConversation({ template: source });
        expect(outcome(() => conversation.render({ messages }))).toBe(expected);
        expect(outcome(() => conversation.render({ messages }))).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});
