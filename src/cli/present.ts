import type {Format, Presentable, Surface} from '../render/present.js'
import {PLAIN} from '../render/text/plain-palette.js'
import {printJson} from '../shared/print-json.js'
import {colourEnabled, outputWidth} from './terminal.js'

export interface Shown {
  /** The JSON document, for oclif to print under `--json` (it prints nothing for undefined). */
  readonly json: unknown
}

/**
 * Draws a service's result (src/render/present.ts) for this terminal and prints it: text on stdout
 * with the terminal's colours and width, or the one JSON document. Under `--json` the document is
 * handed back for oclif to print (`enableJsonFlag`); with `--format json` it is printed here.
 */
export async function show(result: Presentable, options: {readonly format: Format; readonly verbose?: boolean; readonly jsonFlag: boolean}, log: (text: string) => void): Promise<Shown> {
  const {present} = await import('../render/present.js')
  const drawn = await present(result, options.format, await surface(options.verbose ?? false))
  if (drawn.kind === 'text') {
    log(drawn.text)
    return {json: undefined}
  }
  if (drawn.kind === 'json-chunks') {
    // a streamed document goes out as it is drawn (under --json too: oclif prints nothing for undefined)
    await writeChunks(drawn.chunks, process.stdout)
    return {json: undefined}
  }
  if (!options.jsonFlag) printJson(drawn.json)
  return {json: drawn.json}
}

/** chalk's palette when stdout takes colour (loaded only then), and the terminal's width. */
async function surface(verbose: boolean): Promise<Surface> {
  const palette = colourEnabled() ? (await import('../render/text/palette.js')).createPalette(true) : PLAIN
  return {palette, width: outputWidth(), verbose}
}

/**
 * Each chunk to `out` as it is drawn, waiting while the reader is behind (a pipe to a slow reader
 * would otherwise hold the whole report in memory), then the newline that ends the document. A
 * chunk of bytes (UTF-8 drawn ahead) is written as it is.
 */
export async function writeChunks(chunks: Iterable<string | Uint8Array>, out: NodeJS.WritableStream): Promise<void> {
  // a task run's text is a few kB: gathered into writes of ~64 kB, fewer system calls
  let pending = ''
  const write = async (data: string | Uint8Array) => {
    if (!out.write(data)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  const flush = async () => {
    if (pending !== '') await write(pending)
    pending = ''
  }
  for (const chunk of chunks) {
    if (typeof chunk !== 'string') {
      await flush()
      if (chunk.length > 0) await write(chunk)
      continue
    }
    pending += chunk
    if (pending.length >= 1 << 16) await flush()
  }
  pending += '\n'
  await flush()
}
