#!/usr/bin/env node
// oclif maps dist/ -> src/ via tsconfig (outDir/rootDir) and registers tsx itself in development mode.
import {execute} from '@oclif/core'
import {withDefaultCommand} from './argv.js'

process.argv.splice(2, Infinity, ...withDefaultCommand(process.argv.slice(2)))
await execute({development: true, dir: import.meta.url})
