import type { ChatMessage, ToolDefinition } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  isPlainObject,
  originOf,
  withOrigin,
} from "@toolcall/core/kit";

type Question = Record<string, unknown> & { question: unknown[][] };

/** Where a neutral message was read from: turn `turn`, message `index` of that turn. */
interface Origin {
  turn: number;
  index: number;
}

function isTurnList(value: unknown): value is unknown[][] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (turn) => Array.isArray(turn) && turn.every((message) => isPlainObject(message) && "role" in message),
    ) &&
    value.some((turn) => (turn as unknown[]).length > 0)
  );
}

function isQuestion(value: unknown): value is Question {
  return isPlainObject(value) && typeof value.id === "string" && isTurnList(value.question);
}

/**
 * BFCL (Berkeley Function-Calling Leaderboard) question files: one JSON line per entry, `{id, question: [[{role,
 * content}], …], function: [{name, description, parameters}]}`; `question` holds one list of messages per user turn
 * (a multi-turn entry has several, some empty where a function is added). Read: the turns' messages in order, and
 * `function` as the tools they are asked against (BFCL writes the object type `"dict"`, as its Python checker
 * does). The entry holds no call: the calls it expects are in the possible-answer file ({@link bfclAnswerFormat}).
 * Writing back keeps every turn no rule changed as the same list; a message a rule adds has no place in a question.
 *
 * @example
 * const reading = bfclQuestionFormat.read(entry);
 * reading.conversations[0].tools; // the entry's functions, as OpenAI tools
 */
export const bfclQuestionFormat: ConversationFormat = {
  id: "bfcl-question",
  name: "BFCL question (question turns, function)",
  expected: '{"id", "question": [[{"role", "content"}]], "function": [{"name", "parameters"}]}',
  unit: "record",
  priority: 20,
  matches: isQuestion,
  resembles: (value) => isPlainObject(value) && "question" in value && ("function" in value || "id" in value),
  read(value): FormatReading {
    const turns = isQuestion(value) ? value.question : [];
    const messages: ChatMessage[] = [];
    turns.forEach((turn, index) => {
      if (!Array.isArray(turn)) return;
      turn.forEach((message, at) => {
        messages.push(
          withOrigin({ ...(message as ChatMessage) }, { turn: index, index: at } satisfies Origin),
        );
      });
    });
    const functions = isPlainObject(value) && Array.isArray(value.function) ? value.function : undefined;
    const tools = functions
      ?.filter(isPlainObject)
      .map((fn) => ({ type: "function", function: fn }) as unknown as ToolDefinition);
    return {
      conversations: [
        {
          messages,
          ...(tools ? { tools } : {}),
          placeOf(path) {
            const origin = originOf(typeof path[0] === "number" ? messages[path[0]] : undefined) as
              | Origin
              | undefined;
            if (origin === undefined) return "question";
            const rest = path.slice(1).map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`));
            return `question[${origin.turn}][${origin.index}]${rest.join("")}`;
          },
        },
      ],
      issues: [],
      write([next]) {
        if (next === undefined || !isQuestion(value)) return { ok: true, value };
        const rebuilt: unknown[][] = turns.map(() => []);
        for (const message of next) {
          const origin = originOf(message) as Origin | undefined;
          if (origin === undefined)
            return { ok: false, reason: "a message added to a BFCL question has no place in it" };
          const was = turns[origin.turn]?.[origin.index] as Record<string, unknown> | undefined;
          const copy = message as Record<string, unknown>;
          const same =
            was !== undefined &&
            Object.keys(copy).length === Object.keys(was).length &&
            Object.keys(copy).every((key) => copy[key] === was[key]);
          (rebuilt[origin.turn] as unknown[]).push(same ? was : { ...copy });
        }
        const question = rebuilt.map((turn, index) => {
          const old = turns[index] as unknown[];
          return turn.length === old.length && turn.every((m, i) => m === old[i]) ? old : turn;
        });
        if (question.every((turn, index) => turn === turns[index])) return { ok: true, value };
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value))
          Object.defineProperty(out, key, {
            value: key === "question" ? question : value[key],
            writable: true,
            enumerable: true,
            configurable: true,
          });
        return { ok: true, value: out };
      },
    };
  },
};
