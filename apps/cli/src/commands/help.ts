import { describeInputIssue, INPUT_ISSUE_CODES } from "@toolcall/files";
import { SYNTAX_IDS } from "@toolcall/model-formats";

/** Ids joined by ", " in lines indented by `indent` and at most `width` wide. */
function wrapIds(ids: readonly string[], indent: number, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const [index, id] of ids.entries()) {
    const word = index < ids.length - 1 ? `${id},` : id;
    if (line !== "" && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines.map((text) => " ".repeat(indent) + text).join("\n");
}

/** Help for `toolcall --help`. */
export const MAIN_HELP = `toolcall: find and repair the malformed tool calls in session files, data sets and saved traffic

Usage:
  toolcall                          check and repair the bundled poisoned session (a demo)
  toolcall FILE                     the same on your file: check, repair into a new temp directory, check again
  toolcall check FILE...            every issue, where it is, and which provider profiles reject it
  toolcall repair FILE -o OUT       a repaired copy in the same format (--journal J keeps what it replaced)
  toolcall repair FILE... --in-place    repair in place, keeping FILE.bak
  toolcall undo OUT --journal J -o FILE    the input of a repair, byte for byte, from its output and journal
  toolcall formats                  every format read, and the shape each expects
  toolcall providers [ID...]        the provider profiles: what each rejects, in its own words
  toolcall conformance --implementation MODULE    run the conformance suite against your implementation
  toolcall render --template FILE --messages FILE    the exact prompt a chat template gives (as transformers)
  toolcall probe --template FILE    what a chat template can render, and the tool-call syntax it writes
  toolcall roundtrip --template FILE --output RAW    does the template render the parsed output back, byte for byte?

Inputs (detected from content; --format names one): OpenAI Chat messages and request bodies, chat.completion
responses, streamed chunk logs (JSONL or SSE), Responses API items, Anthropic Messages, ShareGPT (glaive, Hermes,
LLaMA-Factory), LLaMA-Factory v1 messages, Claude Code and Codex CLI session files; as one JSON document, a JSON
array of records, or JSONL; gzip read and written by magic bytes and .gz; "-" reads standard input.

Examples:
  toolcall check sessions.jsonl
  toolcall check --json rollouts/*.jsonl > report.json
  toolcall repair session.json -o fixed.json --journal fixed.journal.jsonl
  cat dump.jsonl | toolcall repair - -o - --quiet > fixed.jsonl
  toolcall render --template tokenizer_config.json --messages session.json --add-generation-prompt
  toolcall probe --template chat_template.jinja
  toolcall roundtrip --template chat_template.jinja --output raw.txt

Options:
  -h, --help       help (also: toolcall COMMAND --help)
  -V, --version    the version

Exit codes: 0 clean, 1 issues of severity error (check; repair: errors left, or lines passed through), a
template that raised (render, probe), an output that does not round-trip (roundtrip) or a failed case
(conformance), 2 unreadable input or bad usage.
Colors only on a terminal, and never when NO_COLOR is set.
`;

const INPUT_CODES = INPUT_ISSUE_CODES.map((code) => `  ${code.padEnd(24)} ${describeInputIssue(code)}`).join(
  "\n",
);

/** Help for `toolcall check --help`. */
export const CHECK_HELP = `toolcall check: every issue in every conversation, with its place

Usage:
  toolcall check FILE|DIR... [--json] [--quiet] [--summary] [--max-findings N] [--format ID] [--provider ID,...]
                 [--repair NAME,...] [--max-line-bytes N] [--include GLOB] [--exclude GLOB] [--jobs N]

Reads each record in its format (detected from content, or --format), and runs core's rules on it: every message
whole (role, content for its role, a tool result's id), every call (arguments, name, id; the conversation's tools
when it has them), the pairing of calls and results. Calls at the end of a history still awaiting their results
(a session saved while its tools ran, a model's answer) are pending, a warning, never missing. Each issue is
reported with its place in the record as its format names it. Per conversation, a verdict that claims no more than
is known: clean, or the rules it breaks and, for each, the provider profiles that reject it (core's profiles, each
from the provider's documented or reported literal error text; "toolcall providers" lists them), or that none does.
With --provider, every conversation is checked against the profiles named, and what they reject that core's
rules do not (an id pattern, reasoning to pass back) is an error too, in the provider's own words.
JSONL is streamed: files of any size, memory stays flat. A directory is walked: its files that --include takes
(default: *.json, *.jsonl, *.ndjson, *.sse, gzipped or not) and --exclude does not, each read as if named alone;
dot files only when a glob names them; symbolic links inside it are not followed (each is listed as skipped).

Options:
  --json                 one JSON document on standard output: findings (records with issues, unreadable lines
                         and files), per-file totals, and a summary by code
  --include GLOB         in a directory, read the files this glob matches (repeatable; matched against the path
                         in the directory, as **/*.jsonl or logs/*.json.gz)
  --exclude GLOB         in a directory, leave out what this glob matches (repeatable; a directory it matches is
                         not gone into)
  --jobs N               worker threads (default: one per core, at most 8, for files over 8 MB); a JSONL file is
                         split into byte ranges that each worker reads itself
  -q, --quiet            print nothing; the exit code tells (unreadable files still go to standard error)
  --summary              the totals only, no finding (for huge files)
  --max-findings N       list N findings at most; the rest are counted
  --format ID            read every record as this format (toolcall formats lists them)
  --provider ID,...      check every conversation against these provider profiles (repeatable; "all" for every
                         one; toolcall providers lists them)
  --repair NAME,...      repairs to try when telling whether broken arguments are repairable (default: core;
                         "none" for none); the same names as repair --repair
  --max-line-bytes N     longest JSONL line read (default and most 256MiB; 100MB, 64MiB, or bytes); longer lines
                         are reported as line_too_long and never held in memory

Codes besides core's and the formats':
${INPUT_CODES}

Exit codes: 0 no errors, 1 at least one issue of severity error or an unreadable line, 2 a file could not be read.

Examples:
  toolcall check session.json
  toolcall check a.jsonl b.jsonl --json | jq '.summary.byCode'
  toolcall check data/ --include '**/*.jsonl' --exclude 'tmp/**' --summary
  zcat rollouts.jsonl.gz | toolcall check - --quiet && echo clean
`;

/** Help for `toolcall repair --help`. */
export const REPAIR_HELP = `toolcall repair: a repaired copy, in the same format, without losing what the model emitted

Usage:
  toolcall repair FILE -o OUT [options]
  toolcall repair DIR -o OUTDIR [--journal JOURNALDIR] [--include GLOB] [--exclude GLOB] [options]
  toolcall repair FILE|DIR... --in-place [--backup-suffix .bak] [options]

Reads each record in its format and runs core's sanitizeHistory on each conversation, then writes the record back
in its format: a record that needs no change, a blank line and a line that cannot be read byte for byte; a changed
one in the style it was written in (indentation, separators, line endings). Each replacement goes to the journal
(--journal) with the bytes it replaced: "toolcall undo" gives the input back byte for byte. A regular OUT is
written to a temporary file beside it and renamed into place, keeping its mode and owner, so an interrupted run
never leaves half a file; a device, a FIFO, /dev/stdout or a process substitution (/dev/fd/N) is written where it
is, never replaced. OUT ending in .gz is gzipped; --in-place keeps a gzip file gzipped. The input is never
overwritten unless --in-place, which first keeps it as FILE.bak (and refuses to run if that backup exists).
A directory is walked as check walks it; with -o, OUTDIR mirrors its tree (an OUTDIR inside it is not read), and
--journal names a directory holding one journal per file (JOURNALDIR/PATH.journal) that "toolcall undo" takes whole.

Options:
  -o, --output OUT         where to write; "-" for standard output (the report then goes to standard error)
  --in-place               replace each FILE, keeping a backup
  --backup-suffix SUFFIX   the backup's suffix (default .bak)
  --journal FILE           the journal of every replacement (one input file; for a directory, a directory)
  --include GLOB           in a directory, repair the files this glob matches (repeatable; as check)
  --exclude GLOB           in a directory, leave out what this glob matches (repeatable)
  --policy P               arguments that cannot be decoded to an object:
                             preserve  (default) kept as {"_raw_arguments": <the original text>}
                             drop      the call and its results are removed
                             empty     replaced by {} with a note prepended to the call's result
  --missing-result M       a call with no result: synthesize (default) a tool result, or drop-call
  --pending P              calls at the end still awaiting their results: keep (default), synthesize, drop-call
  --repair NAME,...        repairs tried on arguments that are not JSON (repeat the flag or use commas):
                             core (default: all of the below that core ships), markdown-fence, family-markup,
                             template-suffix, literal-escapes, python-literal, unquoted-values,
                             control-characters, trailing-commas, stray-text, repeated-object,
                             gemma-quote-markers (Gemma 4 <|"|> markers), jsonrepair (aggressive), none
  --synthetic-result TEXT  the content of a synthesized tool result
  --format ID              read every record as this format (toolcall formats lists them)
  --provider ID            make each history one this provider accepts too (its profile's fixes after core's:
                           ids remapped to its pattern, reasoning passed back or moved …), and check what is left
                           against it (toolcall providers ID shows what it rejects and how each is fixed)
  --json                   the change report as JSON (every change with its before and after values, whole)
  -q, --quiet              no report and no progress bar
  --summary                the totals only
  --max-findings N         list N findings at most; the rest are counted
  --max-line-bytes N       longest JSONL line read (default and most 256MiB); longer lines pass through unchanged
  --jobs N                 worker threads (default: one per core, at most 8, for files over 8 MB); each reads and
                           writes its own byte ranges of a JSONL file (same bytes and journal as --jobs 1)

Exit codes: 0 written and nothing left to report, 1 written but errors remain (no rule repairs them) or lines
were passed through unread, 2 nothing written (unreadable input, bad usage, or the output could not be written).

Examples:
  toolcall repair session.json -o session.fixed.json --journal session.journal.jsonl
  toolcall repair rollouts.jsonl -o fixed.jsonl --policy drop --missing-result drop-call
  toolcall repair sessions/*.jsonl --in-place --repair core,jsonrepair
  toolcall repair data/ -o fixed/ --journal journals/ && toolcall undo fixed/ --journal journals/ -o restored/
  cat session.jsonl | toolcall repair - -o - > fixed.jsonl
`;

/** Help for `toolcall undo --help`. */
export const UNDO_HELP = `toolcall undo: the input of a repair, byte for byte, from its output and its journal

Usage:
  toolcall undo REPAIRED --journal FILE -o OUT
  toolcall undo REPAIRED --journal FILE --in-place
  toolcall undo REPAIRED_DIR --journal JOURNALDIR -o OUTDIR   (or --in-place)

REPAIRED must be exactly what "toolcall repair --journal FILE" wrote (its SHA-256 is in the journal), and the
rebuilt bytes must be exactly what that repair read (their SHA-256 too); anything else is refused and nothing is
written. OUT is written as repair writes (a temporary file renamed into place; .gz gzipped). For a directory,
each journal JOURNALDIR/PATH.journal restores REPAIRED_DIR/PATH to OUTDIR/PATH (or in place), each file on its own.

Exit codes: 0 restored, 2 refused (no such file, another file, a journal cut off) or bad usage.

Example:
  toolcall undo fixed.jsonl --journal fixed.journal.jsonl -o original.jsonl
`;

/** Help for `toolcall formats --help`. */
export const FORMATS_HELP = `toolcall formats: every format check and repair read

Usage:
  toolcall formats [--json]

Lists each format's id (what --format takes), its name and the shape it expects. A file's format is detected
from its content: a whole file of session lines first (Claude Code, Codex CLI, chunk logs), then each record,
most specific format first (OpenAI Chat last: a list of {role, content} is Chat when nothing else claims it).
`;

/** Help for `toolcall providers --help`. */
export const PROVIDERS_HELP = `toolcall providers: the provider profiles check --provider and repair --provider use

Usage:
  toolcall providers [ID...] [--json]

Without ids, one line per profile: its id (what --provider takes), its name, how many constraints it has, the API
it was checked against and when. With ids, those profiles in full: each constraint's code, the HTTP status and
literal error text the provider answers with, what it rejects, how repair --provider fixes it, and the evidence
(documented, reported, or inferred, with sources). The profiles are @toolcall/core's (docs/providers.md).

Exit codes: 0 listed, 2 an id that names no profile.

Examples:
  toolcall providers
  toolcall providers mistral anthropic
  toolcall providers --json | jq -r '.providers[].id'
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
  --implementation MODULE   the namespace to test
  --export NAME             a named export to use instead of "implementation" or the default
  --level mapping|full      the level to check at (default: the implementation's declared level, else full)
  --skip ID                 skip a case by its id, or every id with a prefix ending in * (repeat the flag)
  --rules R1,R4             only these rules
  --json                    the totals and failures as JSON

Prints each failure, then "N passed, N failed, N skipped". Exit 0 when nothing failed, 1 otherwise, 2 when the
namespace cannot be loaded.

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
export const PROBE_HELP = `toolcall probe: what a chat template can render, and the tool-call syntax it writes

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
  syntax           the tool-call syntax the template writes (hermes, glm47, qwen3-coder, ...) and its family,
                   found by differential rendering (a turn with probe calls against one without, the markers
                   read off the difference), else by the template's signature (its source holds the markers)
  markers          the texts that start a call in that syntax
  in reasoning     the generation prompt opens a reasoning block (<think>): the model's text starts inside it
  parser           the package that parses, streams and encodes the syntax

Options:
  --template FILE          a Jinja template, or a JSON file with a chat_template field (as render takes it)
  --template-name NAME     from a config's list of named templates, this one (default: "tool_use" when the list
                           has one, else "default")
  --json                   as JSON: {"command", "template", "templateName"?, "capabilities", "syntax": {"id",
                           "family", "module", "markers", "startInReasoning", "parallelCalls", "method",
                           "callText", "candidates"}}

Exit codes: 0 probed, 1 the template does not compile (Python's "Type: message" on standard error), 2 unreadable
input or bad usage.

Examples:
  toolcall probe --template chat_template.jinja
  toolcall probe --template tokenizer_config.json --json | jq -r .capabilities.argumentsForm
  toolcall probe --template chat_template.jinja --json | jq -r .syntax.id
`;

/** Help for `toolcall roundtrip --help`. */
/** Every syntax id of the registry, wrapped to the option column. */
const syntaxList = wrapIds(SYNTAX_IDS, 27, 115);

export const ROUNDTRIP_HELP = `toolcall roundtrip: does the chat template render the parsed output back, byte for byte?

Usage:
  toolcall roundtrip --template FILE --output RAW [--syntax ID] [--messages FILE] [--tools FILE]
                     [--template-name NAME] [--bos-token T] [--eos-token T] [--var NAME=VALUE]... [--json]

Parses the model's raw output (the text it generated after the prompt) with its family's tool-call syntax,
detected from the template as probe does (or --syntax ID), renders the parsed assistant message (calls, content,
reasoning) after the conversation with the template, and compares the turn it renders with the generation prompt
followed by the output. Identical: the history a trainer or a server rebuilds from the parsed message gives the
model the tokens it sampled. Otherwise the first byte that differs is reported, with its line and column and the
text of both sides around it. The end-of-turn text the template appends may be missing from the output (servers
strip stop tokens) or kept up to its stop token (<|im_end|>, as sampled); everything else counts, a final newline
included.

Options:
  --template FILE          a Jinja template, or a JSON file with a chat_template field (as render takes it)
  --output RAW             the model's raw text, byte for byte; "-" reads standard input
  --syntax ID              parse with this syntax instead of the detected one:
${syntaxList}
  --messages FILE          the conversation before the turn, as render reads it (default: one user message); its
                           "tools" are used when --tools is not given
  --tools FILE             the tool list: a JSON array of tools, or an object with "tools" (they type the values
                           of syntaxes that write text, and are rendered into the prompt)
  --template-name NAME     from a config's list of named templates, this one
  --bos-token T, --eos-token T, --var NAME=VALUE    template variables, as render takes them
  --json                   as JSON: {"command", "template", "output", "bytes", "syntax", "ok", "difference", "error"?,
                           "parsed", "message", "argumentsForm", "generationPrompt", "rendered"}

Each input is read whole, at most 16 MiB; an output that is not UTF-8 or holds a NUL byte is refused.

Exit codes: 0 byte-identical, 1 different (or the template raised on the parsed message), 2 unreadable input,
an unknown syntax, no syntax found in the template, or bad usage.

Examples:
  toolcall roundtrip --template chat_template.jinja --output raw.txt
  jq -j '.choices[0].text' completion.json | toolcall roundtrip --template tokenizer_config.json --output - --json
`;
