import {deserialize} from 'node:v8'
import type {FeaturePicture} from '../../explain/analysis.js'
import {startTaskAnalysis, type AnalyzeRunOptions, type TaskAnalyser} from '../../explain/analyze-run.js'
import {createCatalogue, type SignalRule} from '../../explain/diagnosis/catalogue/rule.js'
import {featurePictureOf} from '../../explain/feature.js'
import type {ProfileSelection} from '../../explain/profile-selection.js'
import type {RunAttempt, TaskRun} from '../../model/run-record.js'
import {analysisTask} from '../../render/json/build-analysis-report.js'
import {drawItems} from '../../render/json/json-chunks.js'
import {ContextMiss, createContextReader, type ContextReader, type ContextReads, type RunContext} from './context.js'

/**
 * The analysis of a streamed run's attempts under a run context given in advance (docs/architecture.md
 * "Streaming"), each attempt's task runs drawn as `analyze --json` draws them. It runs on a worker
 * thread (analysis-worker.ts) while the log is still being read; what it read of the context comes
 * back with each attempt, for the reader of the log to check against the final context.
 */
export interface AnalyserSettings {
  readonly profiles?: ProfileSelection
  readonly whatif: boolean
  readonly tool?: {readonly name: string; readonly version: string}
  /** The catalogue's rules when the user gave some (`--signals`): rules are data, a catalogue is not. */
  readonly rules?: readonly SignalRule[]
}

/** What the analyser is sent. A generation starts the analysis over under a context; attempts come in the run's order. */
export type ToAnalyser =
  | {readonly type: 'generation'; readonly generation: number; readonly context: RunContext}
  | {readonly type: 'attempt'; readonly generation: number; readonly attempt: RunAttempt; readonly tasks: Uint8Array}

/** What the analyser sends back, per attempt of the current generation. */
export type FromAnalyser =
  | {
      readonly type: 'drawn'
      readonly generation: number
      readonly attempt: number
      /** The attempt's task runs as `tasks` items of the document (json-chunks.ts drawItems), in UTF-8. */
      readonly bytes: Uint8Array
      readonly picture: FeaturePicture | null
      /** Everything read of the context in this generation so far. */
      readonly reads: ContextReads
    }
  | {readonly type: 'missed'; readonly generation: number; readonly attempt: number; readonly key: string}
  | {readonly type: 'failed'; readonly generation: number; readonly attempt: number; readonly message: string}

export interface AttemptAnalyser {
  receive(message: ToAnalyser): void
}

/** `transfer`: buffers the message hands over rather than copies (the drawn bytes: the analyser keeps none). */
export function createAttemptAnalyser(settings: AnalyserSettings, post: (message: FromAnalyser, transfer?: ArrayBuffer[]) => void): AttemptAnalyser {
  const spine: AnalyzeRunOptions = {
    ...(settings.profiles === undefined ? {} : {profiles: settings.profiles}),
    whatif: settings.whatif,
    ...(settings.tool === undefined ? {} : {tool: settings.tool}),
    ...(settings.rules === undefined ? {} : {catalogue: createCatalogue(settings.rules)}),
  }
  const encoder = new TextEncoder()
  let generation = 0
  let reader: ContextReader | null = null
  let analyser: TaskAnalyser | null = null
  /** A generation stops at its first miss or failure: the reader of the log drops it. */
  let stopped = false
  return {
    receive(message) {
      if (message.type === 'generation') {
        generation = message.generation
        reader = createContextReader(message.context)
        analyser = startTaskAnalysis(reader.era, spine, reader.placement)
        stopped = false
        return
      }
      if (message.generation !== generation || stopped || reader === null || analyser === null) return
      const {attempt} = message
      try {
        const tasks = deserialize(message.tasks) as TaskRun[]
        const view = reader.view(attempt, tasks)
        const analysed = analyser.analyseTasks(view, tasks)
        const picture = attempt.kind === 'feature' ? featurePictureOf(view, attempt) : null
        // encoded here, not by the reader of the log, whose thread is the busier one
        const bytes = encoder.encode(drawItems(analysed.map((t) => analysisTask(t))))
        const missed = reader.missed()
        if (missed !== null) {
          stopped = true
          return post({type: 'missed', generation, attempt: attempt.attempt, key: missed})
        }
        post({type: 'drawn', generation, attempt: attempt.attempt, bytes, picture, reads: reader.reads()}, [bytes.buffer as ArrayBuffer])
      } catch (error) {
        stopped = true
        if (error instanceof ContextMiss || reader.missed() !== null) return post({type: 'missed', generation, attempt: attempt.attempt, key: reader.missed() ?? (error as ContextMiss).key})
        post({type: 'failed', generation, attempt: attempt.attempt, message: (error as Error).message ?? String(error)})
      }
    },
  }
}
