import type { ChatMessage } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  isPlainObject,
  splitResultIdLists,
} from "@toolcall/core/kit";

type Trajectory = Record<string, unknown> & { history: unknown[] };

function isHistoryEntry(value: unknown): boolean {
  return isPlainObject(value) && "role" in value && !("from" in value);
}

/** True for a SWE-agent trajectory: `history` a list of messages, beside `trajectory`, `info` or SWE-agent's keys. */
function isTrajectory(value: unknown): value is Trajectory {
  if (!isPlainObject(value) || !Array.isArray(value.history)) return false;
  if (!value.history.every(isHistoryEntry)) return false;
  return (
    Array.isArray(value.trajectory) ||
    isPlainObject(value.info) ||
    value.history.some((entry) => isPlainObject(entry) && ("message_type" in entry || "agent" in entry))
  );
}

/** For each message of the neutral view, the history entry it was read from (a result listing n ids reads as n). */
function sourceIndexes(history: readonly unknown[]): number[] {
  const out: number[] = [];
  history.forEach((entry, index) => {
    const several =
      isPlainObject(entry) &&
      entry.role === "tool" &&
      typeof entry.tool_call_id !== "string" &&
      Array.isArray(entry.tool_call_ids);
    const count = several ? Math.max((entry.tool_call_ids as unknown[]).length, 1) : 1;
    for (let share = 0; share < count; share++) out.push(index);
  });
  return out;
}

/** Where a neutral path is in the trajectory: `history[3].tool_calls[0]`. */
function placeIn(index: number | undefined, rest: readonly (string | number)[]): string {
  if (index === undefined) return "history";
  let out = `history[${index}]`;
  for (const key of rest) out += typeof key === "number" ? `[${key}]` : `.${key}`;
  return out;
}

/**
 * SWE-agent trajectory files (`*.traj`): one JSON document `{environment, trajectory, history, info, replay_config}`.
 * `history` is the conversation the agent replays, OpenAI Chat messages with SWE-agent's own keys (`agent`,
 * `message_type`, `thought`, `action`) kept; a tool result lists the calls it answers in `tool_call_ids`, and reads
 * as one result per id. `trajectory` (the log of steps: action, observation, state) and every other key are carried
 * through untouched; writing back replaces `history` and nothing else, every entry no rule changed being the same
 * object.
 *
 * @example
 * const reading = sweAgentTrajectoryFormat.read(traj);
 * reading.conversations[0].messages; // the history, one result per id in tool_call_ids
 */
export const sweAgentTrajectoryFormat: ConversationFormat = {
  id: "swe-agent-trajectory",
  name: "SWE-agent trajectory (.traj, history)",
  expected:
    '{"history": [{"role", "content", "tool_calls"?, "tool_call_ids"?, "message_type"?}], "trajectory"?}',
  unit: "record",
  priority: 20,
  matches: isTrajectory,
  resembles: (value) =>
    isPlainObject(value) &&
    Array.isArray(value.trajectory) &&
    !("messages" in value) &&
    !("history" in value),
  read(value): FormatReading {
    if (!isTrajectory(value)) {
      return {
        conversations: [],
        issues: [
          {
            code: "record_not_conversation",
            severity: "error",
            message: 'no "history" list of messages',
            path: [],
          },
        ],
        write: () => ({ ok: true, value }),
      };
    }
    const history = value.history;
    const split = splitResultIdLists(history);
    const sources = sourceIndexes(history);
    return {
      conversations: [
        {
          messages: (split?.messages ?? history) as ChatMessage[],
          placeOf: (path) =>
            placeIn(typeof path[0] === "number" ? sources[path[0]] : undefined, path.slice(1)),
        },
      ],
      issues: [],
      write([messages]) {
        if (messages === undefined) return { ok: true, value };
        const joined = split === undefined ? { ok: true as const, value: messages } : split.join(messages);
        if (!joined.ok) return joined;
        // The same entries in the same order: the trajectory itself (so the same bytes).
        if (joined.value.length === history.length && joined.value.every((entry, i) => entry === history[i]))
          return { ok: true, value };
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value)) {
          Object.defineProperty(out, key, {
            value: key === "history" ? joined.value : value[key],
            writable: true,
            enumerable: true,
            configurable: true,
          });
        }
        return { ok: true, value: out };
      },
    };
  },
};
