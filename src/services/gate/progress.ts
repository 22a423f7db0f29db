/**
 * Progress of a gate over a long corpus, on stderr (stdout stays the report or the one JSON
 * document): a bar redrawn in place on a terminal; otherwise (CI logs, pipes) a plain line every
 * `intervalMs`, the first only after `intervalMs`, so a short gate prints nothing.
 */
export interface GateProgress {
  start(total: number): void
  /** One more run done; `failing` tasks so far. */
  update(done: number, failing: number): void
  done(): void
}

export interface ProgressOptions {
  readonly stream?: NodeJS.WriteStream
  readonly env?: NodeJS.ProcessEnv
  /** false: none (`--no-progress`); otherwise a bar on a terminal, periodic lines elsewhere. */
  readonly enabled?: boolean
  readonly now?: () => number
  readonly intervalMs?: number
}

const SILENT: GateProgress = {start: () => undefined, update: () => undefined, done: () => undefined}
const BAR = 24

export function createGateProgress(options: ProgressOptions = {}): GateProgress {
  if (options.enabled === false) return SILENT
  const stream = options.stream ?? process.stderr
  const env = options.env ?? process.env
  const now = options.now ?? (() => Date.now())
  const interval = options.intervalMs ?? 10_000
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false'
  const tty = stream.isTTY === true && !ci && env.TERM !== 'dumb'
  let total = 0
  let started = 0
  let last = 0
  let shown = false
  const seconds = (): string => `${Math.round((now() - started) / 1000)} s`
  return {
    start(n) {
      total = n
      started = now()
      last = started
    },
    update(done, failing) {
      const t = now()
      if (tty) {
        if (t - last < 100 && done < total) return
        last = t
        const filled = total === 0 ? BAR : Math.round((done / total) * BAR)
        stream.write(`\r\x1b[2Kgate [${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}] ${done}/${total} runs · ${failing} failing · ${seconds()}`)
        shown = true
        return
      }
      if (t - last < interval) return
      last = t
      stream.write(`gate: ${done}/${total} runs (${total === 0 ? 100 : Math.floor((done / total) * 100)}%), ${failing} failing task${failing === 1 ? '' : 's'}, ${seconds()}\n`)
      shown = true
    },
    done() {
      if (!shown) return
      if (tty) stream.write('\r\x1b[2K')
      else stream.write(`gate: ${total}/${total} runs done in ${seconds()}\n`)
      shown = false
    },
  }
}
