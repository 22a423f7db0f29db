import {neutraliseJson} from './neutralise.js'

/**
 * The one JSON document on stdout, plain (no colour tokens: scripts and files read it). JSON
 * escapes every control character; `##[` is written `#\u0023[` (the same value) so a string from
 * the records cannot issue a CI workflow command in the log (src/shared/neutralise.ts).
 */
export function printJson(json: unknown): void {
  process.stdout.write(`${neutraliseJson(JSON.stringify(json, null, 2))}\n`)
}
