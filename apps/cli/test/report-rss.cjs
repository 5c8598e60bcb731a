// Loaded with `node --require` by the tests that measure memory: on exit, the process's peak resident set size (KB,
// from getrusage) goes to the file TOOLCALL_TEST_RSS_FILE names. A count, not a clock.
const { writeFileSync } = require("node:fs");

process.on("exit", () => {
  const file = process.env.TOOLCALL_TEST_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
