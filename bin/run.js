#!/usr/bin/env node
// dist/cli/execute.js is @oclif/core bundled with the commands (scripts/bundle.mjs): one copy of oclif.
import {execute} from '../dist/cli/execute.js'
import {withDefaultCommand} from './argv.js'

// Rewrite process.argv itself: oclif's error handler re-reads process.argv to print usage help.
process.argv.splice(2, Infinity, ...withDefaultCommand(process.argv.slice(2)))
await execute({dir: import.meta.url})
