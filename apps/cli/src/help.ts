import { describeInputIssue, INPUT_ISSUE_CODES } from "./input-issue.js";

/** Help for `toolcall --help`. */
export const MAIN_HELP = `toolcall: find and repair the malformed tool calls in session files

Usage:
  toolcall                          check and repair the bundled poisoned session (a demo)
  toolcall FILE                     the same on your file: check, repair into the temp directory, check again
  toolcall check FILE...            every issue, where it is, and whether a strict provider rejects it
  toolcall repair FILE -o OUT       a repaired copy (JSON stays JSON, JSONL stays JSONL)
  toolcall repair FILE... --in-place    repair in place, keeping FILE.bak
  toolcall conformance --implementation MODULE    run the conformance suite against your implementation
  toolcall render --template FILE --messages FILE    the exact prompt a chat template gives (as transformers)
  toolcall probe --template FILE    what a chat template can render: argument form, tool calls, ids, roles

Inputs (detected, never flagged): a JSON list of messages, a JSON object with "messages" (and optional "tools"),
or JSONL with one such conversation per line. "-" reads standard input.

Examples:
  toolcall check sessions.jsonl
  toolcall check --json rollouts/*.jsonl > report.json
  toolcall repair session.json -o fixed.json --repair core,gemma-quote-markers
  cat dump.jsonl | toolcall repair - -o - --quiet > fixed.jsonl
  toolcall render --template tokenizer_config.json --messages session.json --add-generation-prompt
  toolcall probe --template chat_template.jinja

Options:
  -h, --help       help (also: toolcall COMMAND --help)
  -V, --version    the version

Exit codes: 0 clean, 1 issues of severity error (check), lines passed through (repair), a template that raised
(render, probe) or a failed case (conformance), 2 unreadable input or bad usage.
Colors only on a terminal, and never when NO_COLOR is set.
`;

const INPUT_CODES = INPUT_ISSUE_CODES.map((code) => `  ${code.padEnd(24)} ${describeInputIssue(code)}`).join(
  "\n",
);

/** Help for `toolcall check --help`. */
export const CHECK_HELP = `toolcall check: every issue in every conversation, with its place

Usage:
  toolcall check FILE... [--json] [--quiet] [--repair NAME,...] [--max-line-bytes N]

Runs core's validateHistory on each conversation (with the conversation's "tools" when it has them) and reports
every issue: file, line (JSONL), message index, tool call id, the rule's code (RULES.md R3), severity and message.
Then, per conversation, whether a strict provider accepts it (no issue of severity error) or rejects it
(HTTP 400), and a summary by code. JSONL is streamed: files of any size, memory stays flat.

Options:
  --json                 one JSON document on standard output: findings (conversations with issues, unreadable
                         lines and files), per-file totals, and a summary by code
  -q, --quiet            print nothing; the exit code tells (unreadable files still go to standard error)
  --repair NAME,...      repairs to try when telling whether broken arguments are repairable (default: core;
                         "none" for none); the same names as repair --repair
  --max-line-bytes N     longest JSONL line read (default 268435456); longer lines are reported as line_too_long

Codes besides core's:
${INPUT_CODES}

Exit codes: 0 no errors, 1 at least one issue of severity error or an unreadable line, 2 a file could not be read.

Examples:
  toolcall check session.json
  toolcall check a.jsonl b.jsonl --json | jq '.summary.byCode'
  zcat rollouts.jsonl.gz | toolcall check - --quiet && echo clean
`;

/** Help for `toolcall repair --help`. */
export const REPAIR_HELP = `toolcall repair: a repaired copy that a strict provider accepts, without losing what the model emitted

Usage:
  toolcall repair FILE -o OUT [options]
  toolcall repair FILE... --in-place [--backup-suffix .bak] [options]

Runs core's sanitizeHistory on each conversation and writes the same format out: a JSON document keeps its
indentation style, JSONL stays JSONL line by line, and a line that needs no change is written back byte for byte.
A line that cannot be read (not JSON, not UTF-8, not a conversation, too long) is reported with its number and
written through unchanged. The output is written to a temporary file beside OUT and renamed into place, so an
interrupted run never leaves half a file. The input is never overwritten unless --in-place, which first keeps it
as FILE.bak (and refuses to run if that backup exists). With --in-place, a file that needs no change is not touched.

Options:
  -o, --output OUT         where to write; "-" for standard output (the report then goes to standard error)
  --in-place               replace each FILE, keeping a backup
  --backup-suffix SUFFIX   the backup's suffix (default .bak)
  --policy P               arguments that cannot be decoded to an object:
                             preserve  (default) kept as {"_raw_arguments": <the original text>}
                             drop      the call and its results are removed
                             empty     replaced by {} with a note prepended to the call's result
  --missing-result M       a call with no result: synthesize (default) a tool result, or drop-call
  --repair NAME,...        repairs tried on arguments that are not JSON (repeat the flag or use commas):
                             core (default: all of the below that core ships), markdown-fence, template-suffix,
                             python-literal, control-characters, trailing-commas, repeated-object,
                             gemma-quote-markers (Gemma 4 <|"|> markers), jsonrepair (aggressive), none
  --synthetic-result TEXT  the content of a synthesized tool result
  --json                   the change report as JSON (every change with its before and after values)
  -q, --quiet              no report and no progress bar
  --max-line-bytes N       longest JSONL line read (default 268435456); longer lines pass through unchanged

Exit codes: 0 written, 1 written but some lines were passed through unread, 2 nothing written (unreadable input,
bad usage, or the output could not be written).

Examples:
  toolcall repair session.json -o session.fixed.json
  toolcall repair rollouts.jsonl -o fixed.jsonl --policy drop --missing-result drop-call
  toolcall repair sessions/*.jsonl --in-place --repair core,jsonrepair
  cat session.jsonl | toolcall repair - -o - > fixed.jsonl
`;

/** Help for `toolcall conformance --help`. */
export const CONFORMANCE_HELP = `toolcall conformance: run the conformance suite against your implementation

Usage:
  toolcall conformance --implementation MODULE [--export NAME] [--level mapping|full] [--skip ID]...
                       [--rules R1,R4] [--json]

MODULE is a path (or a package name resolved from the current directory) whose export "implementation" (or
default export, or --export NAME) has the ConformanceImplementation shape of @toolcall/conformance: decode,
encode, validate, validateHistory, sanitize, prepareForTemplate, accumulate, resolveRepairs, all optional
(cases of a missing operation are skipped, never passed). For projects that do not use vitest.

Options:
  --implementation MODULE   the module to test
  --export NAME             a named export to use instead of "implementation" or the default
  --level mapping|full      the level to check at (default: the implementation's declared level, else full)
  --skip ID                 skip a case by its id, or every id with a prefix ending in * (repeat the flag)
  --rules R1,R4             only these rules
  --json                    the totals and failures as JSON

Prints each failure, then "N passed, N failed, N skipped". Exit 0 when nothing failed, 1 otherwise, 2 when the
module cannot be loaded.

Example:
  toolcall conformance --implementation ./dist/toolcall-implementation.js --skip r1-hostile-nan --skip "r1-lossless-*"
`;

/** Help for `toolcall render --help`. */
export const RENDER_HELP = `toolcall render: the exact prompt a chat template renders for a conversation

Usage:
  toolcall render --template FILE --messages FILE [--tools FILE] [--add-generation-prompt]
                  [--template-name NAME] [--bos-token T] [--eos-token T] [--var NAME=VALUE]... [--now ISO]

Prints the prompt on standard output, byte for byte what transformers' apply_chat_template(..., tokenize=False)
gives, with nothing added (no final newline). Messages are in wire form, as an OpenAI-compatible API sends them:
each tool call's arguments is JSON text, decoded for the template into the form it takes (an object for most
templates, the text itself for templates that concatenate it, as DeepSeek's do; "toolcall probe" tells which).
Numbers keep their exact text (1.0 stays a float, big integers keep every digit).

Options:
  --template FILE          a Jinja template (chat_template.jinja), or a JSON file with a chat_template field
                           (tokenizer_config.json, chat_template.json); its bos_token, eos_token and other special
                           tokens (strings or {"content": ...} objects) become template variables, as in transformers
  --template-name NAME     from a config's list of named templates, this one (default: "tool_use" when the
                           conversation has tools and the list has one, else "default", as transformers chooses)
  --messages FILE          one conversation: a JSON list of messages, or an object with "messages" (and "tools",
                           used when --tools is not given); "-" reads standard input
  --tools FILE             the tool list: a JSON array of tools, or an object with "tools"
  --add-generation-prompt  open an assistant turn at the end
  --bos-token T            bos_token (over the config's)
  --eos-token T            eos_token (over the config's)
  --var NAME=VALUE         any other template variable (repeat the flag); VALUE is JSON when it parses as JSON
                           (true, 3, 1.5, [..], {..}, "text"), else the text itself: --var enable_thinking=false,
                           --var reasoning_effort=high. "documents" is transformers' documents argument.
  --now ISO                the clock strftime_now reads (2026-01-02T03:04:05; without an offset it is local time,
                           as Python's datetime.now()); default: now

A template that raises (raise_exception, a TypeError, ...) prints Python's "Type: message" on standard error, as
transformers would raise it, and nothing on standard output. Arguments that are not a JSON object (empty, broken,
a list) render as the decoding rules say ({"_raw_arguments": ...}, RULES.md R1) and are named on standard error.

Exit codes: 0 rendered, 1 the template raised, 2 unreadable input or bad usage.

Examples:
  toolcall render --template chat_template.jinja --messages session.json --add-generation-prompt
  toolcall render --template tokenizer_config.json --messages session.json --var enable_thinking=false > prompt.txt
  jq '.messages' rollout.json | toolcall render --template tokenizer_config.json --messages - --tools tools.json
`;

/** Help for `toolcall probe --help`. */
export const PROBE_HELP = `toolcall probe: what a chat template can render

Usage:
  toolcall probe --template FILE [--template-name NAME] [--json]

Renders small conversations with needles in them (never guessing from a model's name) and reports:
  arguments form   mapping: the template takes a call's arguments as an object; string: as JSON text
  tool calls       an assistant message's tool call appears in the prompt
  parallel calls   two calls in one assistant message both appear
  call ids         a call's id appears (in the call or in its result)
  tool responses   a tool message's content appears
  system role      a system message's content appears
  null content     a tool-calling assistant message with content null renders
  tools            the tool list given in tools appears

Options:
  --template FILE          a Jinja template, or a JSON file with a chat_template field (as render takes it)
  --template-name NAME     from a config's list of named templates, this one (default: "tool_use" when the list
                           has one, else "default")
  --json                   the capabilities as JSON: {"command", "template", "templateName"?, "capabilities"}

Exit codes: 0 probed, 1 the template does not compile (Python's "Type: message" on standard error), 2 unreadable
input or bad usage.

Examples:
  toolcall probe --template chat_template.jinja
  toolcall probe --template tokenizer_config.json --json | jq -r .capabilities.argumentsForm
`;
