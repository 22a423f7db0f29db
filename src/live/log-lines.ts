import {stripVTControlCharacters} from 'node:util'

/** When each task and turn started, by the clock of this session (ms), from the lines as they arrived. */
export interface TaskTiming {
  readonly startedAt: number
  /** turn → when `Invoking Player … for TASK (turn N)` arrived. */
  readonly turnStarts: ReadonlyMap<number, number>
  /** When `Orchestration complete: TASK, …` arrived. */
  readonly endedAt: number | null
}

export interface LineWatchOptions {
  readonly clock: () => number
  /** The first worktree the command names (`Created shared worktree: …`, any `…/.guardkit/worktrees/NAME`). */
  readonly onWorktree?: (path: string) => void
  readonly tailLines?: number
}

const MAX_LINE = 64 * 1024
const WORKTREE_NAMED = /(?:Created shared worktree|Using existing worktree for \S+|Worktree(?: created| preserved at)?):?\s+(\/\S+)/
const WORKTREE_ANY = /(\/[^\s'",)\]]*?\/\.guardkit\/worktrees\/[A-Za-z0-9._-]+)/
const TASK_START = /Starting orchestration for (TASK-[^\s(]+)/
const TURN_START = /Invoking Player .*for (TASK-\S+) \(turn (\d+)\)/
const TASK_END = /Orchestration complete: (TASK-[^,\s]+),/

/**
 * Reads the command's output line by line as it arrives, for what needs the arrival time or is
 * needed before the log ingest has attributed anything: when each task and turn started (the
 * dashboard's elapsed times and the timeout warning, scaled by the session's clock), the worktree
 * to watch, and the last lines for the dashboard. The records themselves go to the log ingest.
 */
export function createLineWatch(options: LineWatchOptions) {
  const decoder = new TextDecoder('utf-8')
  const tailSize = options.tailLines ?? 6
  const tail: string[] = []
  const timings = new Map<string, {startedAt: number; turnStarts: Map<number, number>; endedAt: number | null}>()
  let partial = ''
  let worktree: string | null = null

  function onLine(raw: string): void {
    const cr = raw.lastIndexOf('\r')
    const text = stripVTControlCharacters(cr === -1 ? raw : raw.slice(cr + 1)).replace(/\s+$/, '')
    if (text !== '') {
      tail.push(text.length > 240 ? `${text.slice(0, 239)}…` : text)
      if (tail.length > tailSize) tail.shift()
    }
    if (worktree === null) {
      const m = WORKTREE_NAMED.exec(text) ?? WORKTREE_ANY.exec(text)
      if (m) {
        worktree = m[1]!.replace(/[.,:;]+$/, '')
        options.onWorktree?.(worktree)
      }
    }
    const now = options.clock()
    let m = TASK_START.exec(text)
    if (m) timings.set(m[1]!, {startedAt: now, turnStarts: new Map(), endedAt: null})
    m = TURN_START.exec(text)
    if (m) {
      const t = timings.get(m[1]!) ?? {startedAt: now, turnStarts: new Map(), endedAt: null}
      if (!t.turnStarts.has(Number(m[2]))) t.turnStarts.set(Number(m[2]), now)
      timings.set(m[1]!, t)
    }
    m = TASK_END.exec(text)
    if (m) {
      const t = timings.get(m[1]!)
      if (t) t.endedAt = now
    }
  }

  return {
    push(chunk: Uint8Array): void {
      partial += decoder.decode(chunk, {stream: true})
      let nl = partial.indexOf('\n')
      while (nl !== -1) {
        onLine(partial.slice(0, nl))
        partial = partial.slice(nl + 1)
        nl = partial.indexOf('\n')
      }
      // a line that never ends (a progress bar redrawn with CR) is looked at in pieces
      if (partial.length > MAX_LINE) {
        onLine(partial)
        partial = ''
      }
    },
    timing(taskId: string): TaskTiming | undefined {
      return timings.get(taskId)
    },
    get tail(): readonly string[] {
      return tail
    },
    get worktree(): string | null {
      return worktree
    },
  }
}

export type LineWatch = ReturnType<typeof createLineWatch>
