#!/usr/bin/env node
// The command's entry point ships as a source file, so a workspace install can link it before the build exists;
// the command itself is the build's dist/cli.js.
import "../dist/cli.js";
