#!/usr/bin/env node
// oclif maps dist/ -> src/ via tsconfig (outDir/rootDir) and registers tsx itself in development mode.
import {execute, settings} from '@oclif/core'
import {withDefaultCommand} from './argv.js'
import {loadDevConfig} from './dev-config.js'

process.argv.splice(2, Infinity, ...withDefaultCommand(process.argv.slice(2)))
process.env.NODE_ENV ??= 'development'
settings.enableAutoTranspile = true
await execute({development: true, dir: import.meta.url, loadOptions: await loadDevConfig()})
