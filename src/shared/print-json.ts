/** The one JSON document on stdout, plain (no colour tokens: scripts and files read it). */
export function printJson(json: unknown): void {
  process.stdout.write(`${JSON.stringify(json, null, 2)}\n`)
}
