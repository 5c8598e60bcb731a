import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsMapping } from "./arguments.js";
import { defineSyntax } from "./define-syntax.js";
import {
  FUNCTION_CLOSE,
  FUNCTION_OPEN,
  type FunctionCallSyntax,
  PARAMETER_CLOSE,
  PARAMETER_OPEN,
  readFunctionCall,
} from "./function-call.js";
import { MarkerSet } from "./marker-set.js";
import type { Channel } from "./output.js";
import { readSection, type SectionSyntax } from "./section.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "./text-loop.js";

/**
 * A family that writes `CALL_OPEN\n<function=NAME>\n<parameter=K>V</parameter>\n</function>\nCALL_CLOSE` (Qwen3-Coder,
 * Seed-OSS): what differs between them is the section's tags, the reasoning tags, whether a value sits on lines of its
 * own, and how a non-string value is written.
 */
export interface FunctionCallFamily {
  id: string;
  name: string;
  callOpen: string;
  callClose: string;
  reasoning: ReasoningSyntax;
  /** `false` when a call written while the model reasons is quoted text, not a call (Seed-OSS). */
  callsInReasoning?: boolean;
  /** Each value between one newline each side (`<parameter=K>\nV\n</parameter>`), as Qwen3-Coder writes it. */
  valueOnLines: boolean;
  /** A value as the family's template writes it. */
  writeValue: (value: unknown) => string;
  /** What the template writes before each call (default `\n`; MiMo and Step-3.5 write calls back to back: `""`). */
  callLead?: string;
}

/**
 * The encoder of a `<function=…><parameter=…>` family: per call `\nCALL_OPEN\n<function=NAME>\n`, per argument its
 * parameter, then `</function>\nCALL_CLOSE`.
 *
 * @example
 * const encode = functionCallEncoder({ callOpen: "<tool_call>", callClose: "</tool_call>", valueOnLines: true, writeValue: String });
 * encode([{ function: { name: "f", arguments: '{"a": 1}' } }]); // "\n<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>"
 */
export function functionCallEncoder(
  family: Pick<FunctionCallFamily, "callOpen" | "callClose" | "valueOnLines" | "writeValue" | "callLead">,
): (calls: readonly EncodableToolCall[]) => string {
  const around = family.valueOnLines ? "\n" : "";
  const lead = family.callLead ?? "\n";
  return (calls) =>
    calls
      .map((call) => {
        const parameters = Object.entries(argumentsMapping(call))
          .map(
            ([k, v]) => `${PARAMETER_OPEN}${k}>${around}${family.writeValue(v)}${around}${PARAMETER_CLOSE}\n`,
          )
          .join("");
        return `${lead}${family.callOpen}\n${FUNCTION_OPEN}${call.function.name}>\n${parameters}${FUNCTION_CLOSE}\n${family.callClose}`;
      })
      .join("");
}

/**
 * The syntax of a `<function=…><parameter=…>` family on the engine: sections opened by `callOpen` (several functions
 * each), a `<function=` with the opener missing read (`call_unopened`) in an output that opens no section, reasoning
 * split, values typed by the tool's schema, arguments streamed pair by pair.
 *
 * @example
 * const syntax = defineFunctionCallSyntax({ id: "x", name: "X", callOpen: "<tool_call>", callClose: "</tool_call>", reasoning: THINK, valueOnLines: true, writeValue: String });
 * syntax.parse("<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>").toolCalls.length; // 1
 */
export function defineFunctionCallSyntax(family: FunctionCallFamily): ToolCallSyntax {
  const section: SectionSyntax = {
    sectionBegin: family.callOpen,
    callBegin: FUNCTION_OPEN,
    callEnd: FUNCTION_CLOSE,
    sectionEnds: [family.callClose],
  };
  // After content the templates write `\n\n` before a call, between calls `\n`.
  const calls: FunctionCallSyntax = { section, separator: ["\n\n", "\n"], valueOnLines: family.valueOnLines };
  const functionStart = new MarkerSet([FUNCTION_OPEN]);
  return defineSyntax({
    id: family.id,
    name: family.name,
    startMarkers: [family.callOpen],
    plain: plainCheck([family.callOpen, FUNCTION_OPEN], [family.reasoning.open]),
    *run(reader, out, context) {
      const readIn = (opener: string, channel: Channel) =>
        readSection(reader, out, {
          syntax: section,
          opener,
          channel,
          readCall: (prefix) => readFunctionCall(reader, out, context, { syntax: calls, channel, prefix }),
        });
      let sawSection = false;
      yield* textLoop(reader, out, context, {
        // A `<function=` after content with its section's opener missing (SGLang and vLLM read it): read as a call
        // when it reads as a whole one (`call_unopened`), as at the start, in an output that opens no section;
        // anything else stays text.
        callMarkers: [family.callOpen, FUNCTION_OPEN],
        reasoning: family.reasoning,
        ...(family.callsInReasoning === false ? { callsInReasoning: false } : {}),
        *atStart() {
          out.text("content", yield* reader.space());
          reader.journalCommit();
          if ((yield* reader.peek(functionStart)) === null) return;
          reader.consume(FUNCTION_OPEN.length);
          reader.journalStart(FUNCTION_OPEN);
          yield* readIn(FUNCTION_OPEN, "content");
        },
        *onCall(marker, channel) {
          if (marker === family.callOpen) sawSection = true;
          else if (sawSection) {
            // After a section, a `<function=` outside one is what is left of a section that broke: text.
            out.text(channel, marker);
            return;
          }
          yield* readIn(marker, channel);
        },
      });
    },
    encode: functionCallEncoder(family),
  });
}
