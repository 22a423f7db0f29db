import {isDeepStrictEqual} from 'node:util'
import {VIEW_ATTEMPT, type RunView} from '../../model/attempt-of.js'
import type {EraMarker, RunAttempt, RunRecord, TaskRun} from '../../model/run-record.js'
import type {EraSpan} from '../../explain/diagnosis/guardkit-changes.js'
import type {EraInference} from '../../replay/types.js'

/**
 * What the analysis of one attempt's task runs may read of the run besides those task runs and their
 * attempt (docs/architecture.md "Streaming"): the era and a few run-level fields. Read so far while
 * the log is being read; final once it has been.
 */
export interface RunContext {
  readonly era: EraInference
  readonly path: string
  readonly feature: RunRecord['feature']
  readonly eraMarkers: readonly EraMarker[]
  /** The span of the run's place on the era timeline (explain/diagnosis/guardkit-changes.ts), read by catalogue rules with a `guardkit` condition. */
  readonly placement: EraSpan | null
}

/** The keys an analysis read of its context; only they must agree with the final context. `*`: every key. */
export interface ContextReads {
  readonly era: readonly string[]
  readonly run: readonly ('path' | 'feature' | 'eraMarkers' | 'placement')[]
  /** Keys read of an era marker (the list's length counts whenever `eraMarkers` was read). */
  readonly marker: readonly string[]
}

/** What the analysis of any run reads of its context (docs/architecture.md "Streaming"): checked before the first read is seen. */
export const USUAL_READS: ContextReads = {era: ['modelled', 'profile', 'window'], run: ['path', 'feature', 'eraMarkers'], marker: ['id']}

/** The union of two sets of reads. */
export function withReads(a: ContextReads, b: ContextReads): ContextReads {
  const union = <T>(x: readonly T[], y: readonly T[]): T[] => [...new Set([...x, ...y])]
  return {era: union(a.era, b.era), run: union(a.run, b.run), marker: union(a.marker, b.marker)}
}

/** Whether an analysis that read `reads` of context `a` reads the same of context `b`. */
export function agrees(reads: ContextReads, a: RunContext, b: RunContext): boolean {
  const eraKeys = reads.era.includes('*') ? [...new Set([...Object.keys(a.era), ...Object.keys(b.era)])] : reads.era
  for (const k of eraKeys) if (!isDeepStrictEqual((a.era as unknown as Record<string, unknown>)[k], (b.era as unknown as Record<string, unknown>)[k])) return false
  if (reads.run.includes('path') && a.path !== b.path) return false
  if (reads.run.includes('feature') && !isDeepStrictEqual(a.feature, b.feature)) return false
  if (reads.run.includes('placement') && !isDeepStrictEqual(a.placement, b.placement)) return false
  if (reads.run.includes('eraMarkers')) {
    if (a.eraMarkers.length !== b.eraMarkers.length) return false
    const every = reads.marker.includes('*')
    for (let i = 0; i < a.eraMarkers.length; i++) {
      const x = a.eraMarkers[i] as unknown as Record<string, unknown>
      const y = b.eraMarkers[i] as unknown as Record<string, unknown>
      if (every ? !isDeepStrictEqual(x, y) : reads.marker.some((k) => !isDeepStrictEqual(x[k], y[k]))) return false
    }
  }
  return true
}

/** An analysis read what a view of one attempt does not hold: its result cannot be checked, so it is not used. */
export class ContextMiss extends Error {
  constructor(readonly key: string) {
    super(`the analysis of an attempt read ${key} of the run`)
  }
}

/**
 * The context as one attempt's analysis sees it: every read recorded, and anything else of the run
 * (its other attempts, its issues, …) refused with ContextMiss — also remembered, in case the
 * analysis caught the error. Views and the era are read-only.
 */
export interface ContextReader {
  readonly era: EraInference
  /** The run's place on the timeline, recorded as read. */
  placement(): EraSpan | null
  /** The run as the task runs of `attempt` see it (attempt-of.ts finds the attempt in it). */
  view(attempt: RunAttempt, tasks: readonly TaskRun[]): RunView
  reads(): ContextReads
  /** The first key read outside the context, or null. */
  missed(): string | null
}

export function createContextReader(context: RunContext): ContextReader {
  const eraKeys = new Set<string>()
  const runKeys = new Set<'path' | 'feature' | 'eraMarkers' | 'placement'>()
  const markerKeys = new Set<string>()
  let miss: string | null = null
  const refuse = (key: string | symbol): never => {
    const name = typeof key === 'symbol' ? key.toString() : key
    miss ??= name
    throw new ContextMiss(name)
  }
  const readOnly = <T extends object>(): ProxyHandler<T> => ({
    set: (_t, k) => refuse(k),
    defineProperty: (_t, k) => refuse(k),
    deleteProperty: (_t, k) => refuse(k),
    setPrototypeOf: () => refuse('its prototype'),
    preventExtensions: () => refuse('its extensibility'),
  })
  /** Reads of an object whose every key may be read: a listing of its keys counts as reading them all. */
  const recorded = <T extends object>(target: T, keys: Set<string>): T =>
    new Proxy<T>(target, {
      ...readOnly<T>(),
      get(t, k, receiver) {
        if (typeof k === 'string') keys.add(k)
        return Reflect.get(t, k, receiver) as unknown
      },
      has(t, k) {
        if (typeof k === 'string') keys.add(k)
        return Reflect.has(t, k)
      },
      ownKeys(t) {
        keys.add('*')
        return Reflect.ownKeys(t)
      },
      getOwnPropertyDescriptor(t, k) {
        keys.add('*')
        return Reflect.getOwnPropertyDescriptor(t, k)
      },
    })
  const era = recorded(context.era, eraKeys)
  const markerViews = context.eraMarkers.map((m) => recorded(m, markerKeys))
  const markers = new Proxy(markerViews, readOnly<EraMarker[]>())
  const runField = (key: 'path' | 'feature' | 'eraMarkers'): unknown => {
    runKeys.add(key)
    return key === 'eraMarkers' ? markers : context[key]
  }
  return {
    era,
    placement() {
      runKeys.add('placement')
      return context.placement
    },
    view(attempt, tasks) {
      return new Proxy<RunView>({} as RunView, {
        ...readOnly<RunView>(),
        get(_t, k) {
          if (k === 'tasks') return tasks
          if (k === VIEW_ATTEMPT) return attempt
          if (k === 'path' || k === 'feature' || k === 'eraMarkers') return runField(k)
          return refuse(k)
        },
        has: (_t, k) => refuse(k),
        ownKeys: () => refuse('its keys'),
        getOwnPropertyDescriptor: (_t, k) => refuse(k),
        getPrototypeOf: () => refuse('its prototype'),
      })
    },
    reads: () => ({era: [...eraKeys], run: [...runKeys], marker: [...markerKeys]}),
    missed: () => miss,
  }
}

/**
 * The context of a run read so far: `era` inferred from the markers and task runs read so far
 * (replay/era.ts), the path RUN was named by, and no feature record (a run of logs only has none:
 * ingest/merge-artifacts.ts takes it from worktrees).
 */
export function contextSoFar(path: string, era: EraInference, eraMarkers: readonly EraMarker[], placement: EraSpan | null): RunContext {
  return {era, path, feature: null, eraMarkers, placement}
}

/** The final context, of the run read whole. */
export function contextOf(run: RunRecord, era: EraInference, placement: EraSpan | null): RunContext {
  return {era, path: run.path, feature: run.feature, eraMarkers: run.eraMarkers, placement}
}
