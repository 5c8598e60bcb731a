import { coreRepairs } from "@toolcall/core";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { chatSse, recordedLines, xaiWithArguments } from "../../test/recorded.js";
import type { ArgumentsReport } from "../options.js";
import { joinBytes, utf8 } from "./bytes.js";
import { createSseRepair, type SseFaultVerdict, type SseStreamFault } from "./repair-sse-stream.js";
import { REPAIRS_HEADER } from "./repair-summary.js";

const decoder = new TextDecoder();

/** The repair's output for a body given in pieces cut at `cuts`. */
function run(
  body: Uint8Array,
  cuts: readonly number[] = [],
  faults: SseStreamFault[] = [],
  verdict: SseFaultVerdict = "pass",
): string {
  const repair = createSseRepair({
    api: "chat.completions",
    options: { repairs: coreRepairs },
    onFault: (fault) => {
      faults.push(fault);
      return verdict;
    },
  });
  const at = [...new Set(cuts.map((c) => Math.floor(c * body.length)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...at, body.length]) {
    out.push(...repair.push(body.subarray(from, cut)));
    from = cut;
  }
  out.push(...repair.end());
  return out.map((piece) => decoder.decode(piece)).join("");
}

/** What a client adds up for call 0 of choice 0, from the events of an SSE text (any line ending). */
function argumentsOf(text: string): string {
  let args = "";
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (!line.startsWith("data: {")) continue;
    const chunk = JSON.parse(line.slice(6)) as {
      choices?: Array<{ delta?: { tool_calls?: Array<{ function?: { arguments?: string } }> } }>;
    };
    for (const call of chunk.choices?.[0]?.delta?.tool_calls ?? []) args += call.function?.arguments ?? "";
  }
  return args;
}

/** What a client adds up for each call index of choice 0. */
function argumentsOfAll(text: string): Record<number, string> {
  const calls: Record<number, string> = {};
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (!line.startsWith("data: {")) continue;
    const chunk = JSON.parse(line.slice(6)) as {
      choices?: Array<{
        delta?: { tool_calls?: Array<{ index: number; function?: { arguments?: string } }> };
      }>;
    };
    for (const call of chunk.choices?.[0]?.delta?.tool_calls ?? [])
      calls[call.index] = (calls[call.index] ?? "") + (call.function?.arguments ?? "");
  }
  return calls;
}

const clean = utf8(chatSse(recordedLines("xai-grok-3-mini-tool-call.chunks.txt")).toString("utf8"));
const python = utf8(chatSse(xaiWithArguments("{'location': 'San Francisco'}")).toString("utf8"));

/** A chunk of one argument fragment (or a call's header), as servers stream a call. */
function fragmentFrame(index: number, fragment: string, header?: { id: string; name: string }): string {
  const call = header
    ? { index, id: header.id, type: "function", function: { name: header.name, arguments: fragment } }
    : { index, function: { arguments: fragment } };
  const chunk = {
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta: { tool_calls: [call] }, logprobs: null, finish_reason: null }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

describe("createSseRepair", () => {
  it("reads argument-fragment events by their template exactly as it reads them parsed", async () => {
    const { ChatChunkRepair } = await import("../chat/chat-chunk-repair.js");
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.oneof(fc.string(), fc.constantFrom('"', "\\", "<|", "é😀", "{", "}", "'")), {
            maxLength: 8,
          }),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        fc.constantFrom("tool_calls", "length"),
        (calls, finish) => {
          let body = "";
          const chunks: unknown[] = [];
          calls.forEach((pieces, index) => {
            const frames = [
              fragmentFrame(index, "", { id: `call_${index}`, name: "f" }),
              ...pieces.map((p) => fragmentFrame(index, p)),
            ];
            for (const frame of frames) {
              body += frame;
              chunks.push(JSON.parse(frame.slice(6)));
            }
          });
          const last = {
            id: "c",
            object: "chat.completion.chunk",
            created: 1,
            model: "m",
            choices: [{ index: 0, delta: {}, finish_reason: finish }],
          };
          body += `data: ${JSON.stringify(last)}\n\ndata: [DONE]\n\n`;
          chunks.push(last);
          // The object-level repair, which parses every chunk.
          const objects = new ChatChunkRepair({ repairs: coreRepairs });
          let expected = "";
          for (const chunk of chunks)
            for (const out of objects.push(chunk as never))
              expected += `data: ${JSON.stringify(out.value)}\n\n`;
          expect(argumentsOfAll(run(utf8(body)))).toEqual(argumentsOfAll(expected));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("gives the same bytes out whatever the pieces the body came in", () => {
    const whole = run(python);
    expect(argumentsOf(whole)).toBe('{"location":"San Francisco"}');
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), (cuts) => {
        expect(run(clean, cuts)).toBe(decoder.decode(clean));
        expect(run(python, cuts)).toBe(whole);
      }),
      { numRuns: 60 },
    );
  });

  it("leaves a repeated call frame out of the xAI recording sent twice over, and says what it left out", () => {
    // Every event of the recording twice, as a server (or a gateway retrying a write) that repeats its events: the
    // call's frame comes twice with the whole arguments, which a client would append (R9).
    const lines = recordedLines("xai-grok-3-mini-tool-call.chunks.txt").flatMap((line) => [line, line]);
    const body = chatSse(lines).toString("utf8");
    const reports: ArgumentsReport[] = [];
    const repair = createSseRepair({
      api: "chat.completions",
      options: { repairs: coreRepairs, onRepair: (report) => reports.push(report as ArgumentsReport) },
    });
    const out = decoder.decode(joinBytes([...repair.push(utf8(body)), ...repair.end()]));
    expect(argumentsOf(out)).toBe('{"location":"San Francisco"}');
    // The stream says it: a comment before [DONE], and a report that holds the frame's text.
    const comment = `: ${REPAIRS_HEADER} {"calls":[{"choice":0,"id":"call_79382389","name":"weather","status":"object","repairs":["frame_repeated"],"usable":true}]}\n\n`;
    expect(out).toContain(comment);
    expect(reports).toMatchObject([
      {
        toolCallId: "call_79382389",
        name: "weather",
        repairs: ["frame_repeated"],
        repeats: ['{"location":"San Francisco"}'],
      },
    ]);
    // Every other byte is as it came: the second call frame lost exactly its function, whose name and arguments the
    // report gives.
    const repeated = `"function":${JSON.stringify({ name: reports[0]?.name, arguments: reports[0]?.repeats?.[0] })},`;
    const second = body.indexOf(repeated, body.indexOf(repeated) + 1);
    expect(out.replace(comment, "")).toBe(body.slice(0, second) + body.slice(second + repeated.length));
  });

  it("reads CRLF and lone-CR line endings", () => {
    for (const ending of ["\r\n", "\r"]) {
      const body = utf8(decoder.decode(python).replaceAll("\n", ending));
      const out = run(body, [0.3, 0.31, 0.9]);
      expect(argumentsOf(out), JSON.stringify(ending)).toBe('{"location":"San Francisco"}');
    }
    const cleanCrlf = utf8(decoder.decode(clean).replaceAll("\n", "\r\n"));
    expect(run(cleanCrlf, [0.5])).toBe(decoder.decode(cleanCrlf));
  });

  it("passes events it cannot read on as they came, and says so", () => {
    const faults: SseStreamFault[] = [];
    const body = utf8(
      'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{\'a\'"}}]}}]}\n\n' +
        "data: not json\n\n" +
        'data: {"error":{"message":"overloaded"}}\n\n',
    );
    const out = run(body, [], faults);
    expect(out).toContain("data: not json\n\n");
    expect(out).toContain('data: {"error":{"message":"overloaded"}}\n\n');
    expect(faults.map((f) => f.code)).toEqual(["invalid_event", "upstream_error"]);
    // The held call is handed on at the end as the model sent it (the stream was cut: no finish).
    expect(argumentsOf(out)).toBe("{'a'");
  });

  it("ends or stops where its caller says, at an event it cannot read", () => {
    const held =
      'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{\'a\': 1}"}}]}}]}\n\n';
    const body = utf8(`${held}data: {"error":{"message":"overloaded"}}\n\ndata: {"choices":[]}\n\n`);
    // end: what is held goes on (cut: the model's text), then the error event, and nothing after it.
    const ended = run(body, [], [], "end");
    expect(argumentsOf(ended)).toBe("{'a': 1}");
    expect(ended.endsWith('data: {"error":{"message":"overloaded"}}\n\n')).toBe(true);
    // stop: nothing more at all, the held call neither.
    const stopped = run(body, [0.5], [], "stop");
    expect(stopped).not.toContain("overloaded");
    expect(argumentsOf(stopped)).toBe("");
  });

  it("checkEvents: parses only the events that are not plainly one JSON object, and finds every fault", () => {
    const body = utf8(
      'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\n' +
        "data: {not json\n\n" +
        'event: chunk\ndata: {"choices":[]}\n\n' +
        'data: {"choices":[]}\ndata: 2}\n\n' +
        'data: {"choices":[{"index":0,"delta":{"content":"b"}}]}\r\n\r\n' +
        'data: {"error":{"message":"overloaded"}}\n\n',
    );
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }), (cuts) => {
        const faults: SseStreamFault[] = [];
        const parse = JSON.parse;
        let parses = 0;
        JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
          parses++;
          return parse(...args);
        };
        let out: string;
        try {
          const repair = createSseRepair({
            api: "chat.completions",
            checkEvents: true,
            onFault: (fault) => void faults.push(fault),
          });
          const at = [...new Set(cuts.map((c) => Math.floor(c * body.length)))].sort((a, b) => a - b);
          const pieces: Uint8Array[] = [];
          let from = 0;
          for (const cut of [...at, body.length]) {
            pieces.push(...repair.push(body.subarray(from, cut)));
            from = cut;
          }
          pieces.push(...repair.end());
          out = pieces.map((piece) => decoder.decode(piece)).join("");
        } finally {
          JSON.parse = parse;
        }
        expect(out).toBe(decoder.decode(body));
        expect(faults.map((f) => f.code)).toEqual(["invalid_event", "invalid_event", "upstream_error"]);
        // The three events at fault were parsed, nothing else.
        expect(parses).toBe(3);
      }),
    );
  });

  it("hands a clean stream on as views of the pieces it came in: copies only around events split between pieces", () => {
    // The recorded xAI stream in 2 KB pieces that cut events.
    const body = clean;
    const repair = createSseRepair({ api: "chat.completions", options: { repairs: coreRepairs } });
    const inputs = new Set<ArrayBufferLike>();
    let copied = 0;
    let out = 0;
    let pieces = 0;
    for (let at = 0; at < body.length; at += 2048) {
      const piece = body.slice(at, at + 2048);
      inputs.add(piece.buffer);
      pieces++;
      for (const sent of repair.push(piece)) {
        out += sent.length;
        if (!inputs.has(sent.buffer)) copied += sent.length;
      }
    }
    for (const sent of repair.end()) out += sent.length;
    expect(out).toBe(body.length);
    // At most the one event a piece boundary cuts (these events are under 512 bytes) is copied per piece.
    expect(copied).toBeLessThan(pieces * 512);
    expect(copied).toBeLessThan(body.length / 4);
  });

  it("hands a piece of whole untouched events on as that very piece, one event a piece as servers write them", () => {
    // One socket read per event, as a server generating tokens writes them: no view, no copy, whatever the check.
    for (const checkEvents of [false, true]) {
      const repair = createSseRepair({
        api: "chat.completions",
        options: { repairs: coreRepairs },
        checkEvents,
      });
      let same = 0;
      let events = 0;
      for (let word = 0; word < 50; word++, events++) {
        const piece = utf8(
          `data: {"choices":[{"index":0,"delta":{"content":"w${word} "},"finish_reason":null}]}\n\n`,
        );
        const sent = repair.push(piece);
        if (sent.length === 1 && sent[0] === piece) same++;
      }
      const two = utf8('data: {"choices":[]}\n\ndata: {"choices":[]}\n\n');
      const sent = repair.push(two);
      if (sent.length === 1 && sent[0] === two) same++;
      events++;
      expect(same).toBe(events);
    }
  });

  it("keeps an event's other fields when it rewrites its data", () => {
    const body = utf8(
      'id: 7\ndata: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"```json"}}]}}]}\n\n' +
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n',
    );
    const out = run(body);
    expect(
      out.startsWith('id: 7\ndata: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c"'),
    ).toBe(true);
  });

  it("hands on a huge event that came in many pieces whole", () => {
    const text = "x".repeat(2_000_000);
    const body = utf8(`data: {"choices":[{"index":0,"delta":{"content":"${text}"}}]}\n\ndata: [DONE]\n\n`);
    const cuts = Array.from({ length: 400 }, (_, i) => i / 400);
    expect(run(body, cuts)).toBe(decoder.decode(body));
  });
});

describe("createSseRepair: the work a clean frame costs", () => {
  /** Content frames as a proxy receives them: one socket read each, every one checked (`checkEvents`). */
  const contentFrames = (count: number): Uint8Array[] =>
    Array.from({ length: count }, (_, i) =>
      utf8(
        `data: ${JSON.stringify({
          id: "chatcmpl-1",
          object: "chat.completion.chunk",
          created: 1775000000,
          model: "m",
          choices: [{ index: 0, delta: { content: `word${i} ` }, logprobs: null, finish_reason: null }],
        })}\n\n`,
      ),
    );

  it("decodes and parses nothing, and hands on each frame as the very bytes that came", () => {
    const frames = contentFrames(50);
    const repair = createSseRepair({
      api: "chat.completions",
      options: { repairs: coreRepairs },
      checkEvents: true,
    });
    const decodes = vi.spyOn(TextDecoder.prototype, "decode");
    const parses = vi.spyOn(JSON, "parse");
    // Whether a call is open is asked for every event: with no call yet, no choice's state is walked.
    const walks = vi.spyOn(Map.prototype, "values");
    try {
      let same = 0;
      for (const frame of frames) {
        const out = repair.push(frame);
        if (out.length === 1 && out[0] === frame) same++;
      }
      expect(same).toBe(frames.length);
      expect(decodes).not.toHaveBeenCalled();
      expect(parses).not.toHaveBeenCalled();
      expect(walks).not.toHaveBeenCalled();
    } finally {
      decodes.mockRestore();
      parses.mockRestore();
      walks.mockRestore();
    }
  });
});
