import type {Diagnosis} from '../model/diagnosis.js'
import type {Evidence} from '../model/evidence.js'
import type {Finding} from '../model/finding.js'
import type {RunRecord, TaskRun} from '../model/run-record.js'
import type {EraInference, TaskReplay} from '../replay/types.js'
import type {CriteriaTurn} from './criteria-table.js'
import type {DiagnosisExplain} from './diagnosis/diagnose.js'
import type {TaskSignals} from './diagnosis/task-signals.js'
import type {RunEra} from './era-statement.js'
import type {StallTable} from './stall-table.js'

export type {EraInference}

/**
 * Everything `analyze` knows about a run: the record, the replays, the findings and the verdicts.
 * Every renderer (text, JSON, Markdown, HTML, the live dashboard) draws from this one value.
 */
export interface AnalysisReport {
  readonly tool: {readonly name: string; readonly version: string}
  readonly run: RunRecord
  readonly era: EraInference
  /** The run's era on the timeline, said once (era-statement.ts); absent from reports built by hand. */
  readonly runEra?: RunEra
  /** Profiles replayed, in display order (inferred era first when there is one, then legacy, fixed, the user's). */
  readonly profiles: readonly {readonly name: string; readonly description: string}[]
  readonly tasks: readonly TaskAnalysis[]
  readonly feature: FeaturePicture | null
  /** One picture per feature run captured (a log may hold several attempts); `feature` is the main one. */
  readonly features?: readonly FeaturePicture[]
}

export interface TaskAnalysis {
  readonly task: TaskRun
  /** Keyed by profile name. */
  readonly replays: Readonly<Record<string, TaskReplay>>
  /** Most severe first; ids `f1`, `f2`, … unique within the report. */
  readonly findings: readonly Finding[]
  readonly verdict: TaskVerdict
  /** The root cause, for a task run that did not end approved; null when it did (docs/root-causes.md). */
  readonly diagnosis: Diagnosis | null
  readonly whatif: WhatIf | null
  /** The deep dump behind `explain`: the stall detector turn by turn, and every verdict that did not verify all criteria. */
  readonly explain?: TaskExplain
}

export interface TaskExplain {
  readonly stall: StallTable
  readonly criteria: readonly CriteriaTurn[]
  /** The task's signals, classified by the catalogue, and those no rule classifies. */
  readonly signals?: TaskSignals
  /** Why the primary cause was chosen over the others. */
  readonly diagnosis?: DiagnosisExplain | null
}

/** The ten-second answer for one task (docs/cli.md "The text report"). */
export interface TaskVerdict {
  /** What happened, from the record: "cancelled at turn 18 (feature task timeout, 2400 s)". */
  readonly happened: string
  /** Why, in a sentence, from the root findings. */
  readonly why: string
  /** One line per replayed profile: what it would have done, with its fidelity. */
  readonly underProfiles: readonly {readonly profile: string; readonly text: string}[]
  readonly waste: Waste | null
  /** Things a person can do today. */
  readonly doNow: readonly string[]
  /** Logic changes that fix it, and what GuardKit did not fix. */
  readonly fixedIn: readonly string[]
  readonly notFixed: readonly string[]
  readonly ok: boolean
}

export interface Waste {
  /** The turn at which the loop should have stopped (where `fixed` stalls, or the first turn of an unchanged repeat). */
  readonly shouldHaveStoppedAt: number
  readonly turnsWasted: number
  /** From recorded timestamps, when the log has them. */
  readonly minutesWasted: number | null
  readonly basis: string
}

/** The logic changes that flip a task's outcome (`whatif`). */
export interface WhatIf {
  readonly baseline: string
  readonly baselineOutcome: string
  readonly flips: readonly {
    readonly flags: readonly string[]
    readonly outcome: string
    /** The turn at which the outcome changes: the first turn whose decision, criteria count or stall check differs from the baseline, else where the flipped replay ends. */
    readonly changesAtTurn: number | null
    readonly fidelity: 'exact' | 'approximate' | 'insufficient'
    /**
     * Set when the flipped replay is undetermined and only some of its branches end otherwise than the
     * baseline: the flip holds under these conditions only, each with the outcome it gives.
     */
    readonly onlyIf?: readonly {readonly assume: string; readonly brief: string; readonly outcome: string}[]
  }[]
  /** Why `fixed` still gets it wrong, when it does. */
  readonly fixedStillFails: string | null
  /** Search limits, stated (e.g. "single flags and pairs of the 12 flags this task's replay read"). */
  readonly searched: string
}

/** Waves, timeouts and the feature result against the task outcomes. */
/**
 * A time limit the feature recorded for a task. `stage` says when it was checked: the task time budget is checked
 * before a turn starts (`turn` is the turn that did not start), the feature's task timeout while a turn runs.
 * `laterTurn`: the last turn the task's own loop recorded after a feature timeout that did not end it.
 */
export interface FeatureTimeout {
  readonly taskId: string
  readonly seconds: number | null
  readonly turn: number | null
  readonly stage?: 'before-turn' | 'during-turn'
  readonly laterTurn?: number
  readonly evidence: readonly Evidence[]
}

export interface FeaturePicture {
  readonly featureId: string | null
  /** The AutoBuild run (attempt) this picture is of. */
  readonly attempt?: number
  readonly waves: readonly {readonly wave: number; readonly taskIds: readonly string[]; readonly statuses: Readonly<Record<string, string>>}[]
  readonly featureResult: string | null
  /** Timeouts and cancellations with the task they ended and the evidence. */
  readonly timeouts: readonly FeatureTimeout[]
  /** Tasks whose own outcome differs from what the feature summary says about them. */
  readonly disagreements: readonly {readonly taskId: string; readonly featureSays: string; readonly taskSays: string; readonly evidence: readonly Evidence[]; readonly note?: string}[]
}

export type {TaskRun}
