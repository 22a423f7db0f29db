#!/usr/bin/env node
import {withDefaultCommand} from './argv.js'

// dist/cli/execute.js is @oclif/core bundled with the commands (scripts/bundle.mjs): one copy of oclif.
const entry = new URL('../dist/cli/execute.js', import.meta.url)
const {execute} = await import(entry.href).catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(entry.pathname)) throw error
  process.stderr.write('guardkit-replay is not built: run `npm run build` in its folder (`npm install` does it too).\n')
  process.exit(3)
})

// Rewrite process.argv itself: oclif's error handler re-reads process.argv to print usage help.
process.argv.splice(2, Infinity, ...withDefaultCommand(process.argv.slice(2)))
await execute({dir: import.meta.url})
