import { type Finding, type MessageView, nonEmptyString, roleName } from "./finding.js";

/**
 * Calls and results by turn (a turn is an assistant message and the messages after it up to the next assistant
 * message), read once for the pairing checks. Results answer calls of their own turn only, one result per call,
 * in order: as core's R3 and R4 pair them.
 */
interface Turn {
  /** The assistant message. */
  index: number;
  /** Index of the next assistant message (or the end). */
  end: number;
  /** Each call: its position and id (`undefined` when it has none). */
  calls: Array<{ call: number; id: string | undefined }>;
  /** For each call (by position in `calls`), the message index of the result that answers it. */
  answeredAt: Array<number | undefined>;
  /** Unanswered call positions by id, in order (a queue per id: linear however many calls share one). */
  pending: Map<string, { positions: number[]; next: number }>;
}

interface Pairing {
  turns: Turn[];
  /** Tool results with an id that answer no call of their turn (no turn, another turn's id, a second result). */
  orphans: number[];
  /** Tool results without an id. */
  idless: number[];
}

function pair(views: readonly MessageView[]): Pairing {
  const turns: Turn[] = [];
  const orphans: number[] = [];
  const idless: number[] = [];
  let turn: Turn | undefined;
  for (let index = 0; index < views.length; index++) {
    const view = views[index] as MessageView;
    if (view.role === "assistant") {
      if (turn !== undefined) turn.end = index;
      const calls = view.calls.map((call, position) => ({
        call: position,
        id: call.plain ? nonEmptyString(call.id) : undefined,
      }));
      const pending = new Map<string, { positions: number[]; next: number }>();
      for (const c of calls) {
        if (c.id === undefined) continue;
        const queue = pending.get(c.id);
        if (queue === undefined) pending.set(c.id, { positions: [c.call], next: 0 });
        else queue.positions.push(c.call);
      }
      turn = { index, end: views.length, calls, answeredAt: calls.map(() => undefined), pending };
      turns.push(turn);
      continue;
    }
    if (view.role !== "tool") continue;
    const id = nonEmptyString(view.toolCallId);
    if (id === undefined) {
      idless.push(index);
      continue;
    }
    const queue = turn?.pending.get(id);
    if (turn === undefined || queue === undefined || queue.next >= queue.positions.length) {
      orphans.push(index);
    } else {
      turn.answeredAt[queue.positions[queue.next] as number] = index;
      queue.next++;
    }
  }
  return { turns, orphans, idless };
}

/** The first message of a turn, after its assistant message, that is not a tool result. */
function firstInterruption(views: readonly MessageView[], turn: Turn): number | undefined {
  for (let index = turn.index + 1; index < turn.end; index++) {
    if ((views[index] as MessageView).role !== "tool") return index;
  }
  return undefined;
}

/**
 * `tool_result_missing`: calls that no tool result of their turn answers (a call without an id cannot be
 * answered). `tool_results_interleaved`: calls answered only after another kind of message came between the
 * assistant message and the answer. One finding per assistant message (path `[index, "tool_calls"]`), naming every
 * such call (`ids`; `id` and `call` are the first), as the providers' texts do.
 */
export function checkResultPairing(
  views: readonly MessageView[],
  codes: ReadonlySet<string>,
): { missing: Finding[]; interleaved: Finding[]; orphans: Finding[]; idless: Finding[] } {
  const { turns, orphans, idless } = pair(views);
  const missing: Finding[] = [];
  const interleaved: Finding[] = [];
  for (const turn of turns) {
    if (codes.has("tool_result_missing")) {
      const unanswered = turn.calls.filter((_, k) => turn.answeredAt[k] === undefined);
      const first = unanswered[0];
      if (first !== undefined)
        missing.push({
          code: "tool_result_missing",
          path: [turn.index, "tool_calls"],
          facts: {
            index: turn.index,
            subject: "call",
            call: first.call,
            id: first.id ?? "…",
            ids: unanswered.map((c) => c.id ?? "…"),
          },
        });
    }
    if (codes.has("tool_results_interleaved")) {
      const cut = firstInterruption(views, turn);
      if (cut === undefined) continue;
      const late = turn.calls.filter((_, k) => (turn.answeredAt[k] ?? -1) > cut);
      const first = late[0];
      if (first === undefined) continue;
      const at = turn.answeredAt[first.call] as number;
      interleaved.push({
        code: "tool_results_interleaved",
        path: [turn.index, "tool_calls"],
        facts: {
          index: turn.index,
          subject: "call",
          call: first.call,
          id: first.id ?? "…",
          ids: late.map((c) => c.id ?? "…"),
          role: "tool",
          previous_role: roleName(views[at - 1]),
        },
      });
    }
  }
  return {
    missing,
    interleaved,
    orphans: codes.has("tool_result_orphan")
      ? orphans.map((index) => ({
          code: "tool_result_orphan",
          path: [index, "tool_call_id"],
          facts: {
            index,
            subject: "result",
            id: nonEmptyString((views[index] as MessageView).toolCallId),
            role: "tool",
            previous_role: roleName(views[index - 1]),
          },
        }))
      : [],
    idless: codes.has("tool_result_id_missing")
      ? idless.map((index) => ({
          code: "tool_result_id_missing",
          path: [index, "tool_call_id"],
          facts: { index, subject: "result", role: "tool", previous_role: roleName(views[index - 1]) },
        }))
      : [],
  };
}

/** `id_duplicate`: a call id used by an earlier call of the history (each later use is a finding). */
export function checkDuplicateIds(views: readonly MessageView[]): Finding[] {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    view.calls.forEach((call, position) => {
      const id = call.plain ? nonEmptyString(call.id) : undefined;
      if (id === undefined) return;
      if (seen.has(id))
        findings.push({
          code: "id_duplicate",
          path: [index, "tool_calls", position, "id"],
          // The Responses API names the repeated item by its own id, where the history keeps one.
          facts: { index, subject: "call", call: position, id, item_id: nonEmptyString(call.itemId) },
        });
      seen.add(id);
    });
  });
  return findings;
}
