#!/usr/bin/env node
import {execute} from '@oclif/core'
import {withDefaultCommand} from './argv.js'

// Rewrite process.argv itself: oclif's error handler re-reads process.argv to print usage help.
process.argv.splice(2, Infinity, ...withDefaultCommand(process.argv.slice(2)))
await execute({dir: import.meta.url})
