import {LOGIC_CHANGES, type FlagId, type LogicFlags} from '../logic/changes.js'
import {parseTaskFile} from '../logic/mode/index.js'
import {PyException} from '../logic/python/builtins.js'
import type {TaskInputs} from './turn-inputs.js'
import {NO_ASSUMPTIONS, type Assumptions} from './unknown-inputs.js'

/** One profile's view of a task: its flags, the as-run flags, and the criteria its TaskLoader gives the Coach. */
export interface ProfileContext {
  readonly name: string
  readonly flags: LogicFlags
  /** The flags of the profile inferred for the run's era (the code that wrote the record), or null when unknown. */
  readonly asRun: LogicFlags | null
  readonly asRunName: string | null
  readonly criteria: {readonly texts: readonly string[]; readonly source: string; readonly exact: boolean} | null
  readonly inputs: TaskInputs
  /** The values this replay gives the inputs the records lack and the branches enumerate (unknown-inputs.ts). */
  readonly assume: Assumptions
}

export function createProfileContext(
  inputs: TaskInputs,
  name: string,
  flags: LogicFlags,
  asRun: {name: string; flags: LogicFlags} | null,
  assume: Assumptions = NO_ASSUMPTIONS,
): ProfileContext {
  return {name, flags, asRun: asRun?.flags ?? null, asRunName: asRun?.name ?? null, criteria: criteriaUnder(inputs, flags), inputs, assume}
}

/**
 * The criteria the Coach gets under these flags: `TaskLoader._parse_task_file` over the task file
 * (legacy counts nested bullets, docs/guardkit-logic.md §9.3), else the criteria as recorded (the Coach's report, the log).
 */
function criteriaUnder(inputs: TaskInputs, flags: LogicFlags): ProfileContext['criteria'] {
  if (inputs.taskFile) {
    try {
      const parsed = parseTaskFile(inputs.taskFile.text, inputs.taskFile.file, flags).acceptance_criteria
      if (parsed.every((c) => typeof c === 'string')) return {texts: parsed as string[], source: `${inputs.taskFile.file} (TaskLoader under this profile)`, exact: true}
    } catch (error) {
      if (!(error instanceof PyException)) throw error
    }
  }
  if (inputs.criteria) return {texts: inputs.criteria.texts, source: `recorded criteria (${inputs.criteria.source})`, exact: inputs.criteria.complete && inputs.criteria.source !== 'diagnostic-dump'}
  return null
}

/** Flags on which the two flag sets differ (null as-run: unknown, so every flag may differ). */
export function differingFlags(a: LogicFlags, b: LogicFlags | null, among?: readonly FlagId[]): FlagId[] {
  const ids = among ?? LOGIC_CHANGES.map((c) => c.id)
  return ids.filter((id) => b === null || a[id] !== b[id])
}

const byArea = (...areas: string[]): FlagId[] => LOGIC_CHANGES.filter((c) => areas.includes(c.area)).map((c) => c.id)

/** Flags that change what the Player side writes for the Coach (docs/guardkit-logic.md §4, §5). */
export const PIPELINE_FLAGS: readonly FlagId[] = [...byArea('pipeline'), 'acrWriterPromises', 'acrGitAnalysisPromises']
/** Flags that change how the Coach detects, runs, summarises and classifies independent tests (docs/guardkit-logic.md §6.4-§6.7). */
export const TEST_FLAGS: readonly FlagId[] = [
  'cumulativeDiffTests', 'promiseTestFiles', 'priorReportTests', 'relPathDedup', 'summaryErrorContext', 'classifyFailure', 'sdkTests',
  'infraTiers', 'conditionalApproval', 'infraPinnedSubprocess', 'sysExecutablePytest', 'knownServiceLibs', 'mnfeFirst', 'psycopgAsyncpgFeedback',
  'sdkApiErrorClass', 'customBaseUrlSubprocess', 'coachTestModelEnv',
]
/** Flags that change requirements verification (docs/guardkit-logic.md §7) or the criteria list (docs/guardkit-logic.md §9.3). */
export const REQUIREMENT_FLAGS: readonly FlagId[] = [...byArea('requirements'), 'topLevelCriteriaOnly']
/** Flags that change what reaches the Coach's promise path from the Player. */
export const PROMISE_PIPELINE_FLAGS: readonly FlagId[] = [
  'recoverAgentPromises', 'writeBackResults', 'fileExistencePromises', 'sharedFileExistence', 'directSyntheticReport', 'directSyntheticFlag',
  'directSyntheticPromises', 'directResultsRequirements', 'directReportKeepsSynthetic', 'directTaskLoaderCriteria', 'acrWriterPromises',
]
/** Coach flags that only matter on approval (soft gates) or the zero-test wording. */
export const SOFT_FLAGS: readonly FlagId[] = ['seamTestSoftGate', 'consumerContextSoftGate', 'zeroTestSearchText', 'skippedTestsWording']

/**
 * Flags that change the words of a feedback of this kind for the same verdict: where one differs from the
 * code that ran and nothing rebuilt the text, the recorded feedback is not this profile's (its signature
 * comes from its own feedback, docs/counterfactuals.md). Gate feedback (`_feedback_from_gates`), the
 * missing-results and invalid-task-type texts are the same in every version.
 */
export function wordingFlags(kind: string): readonly FlagId[] {
  switch (kind) {
    case 'tests':
      return TEST_FLAGS.filter((f) => f !== 'conditionalApproval')
    case 'requirements':
      return [...REQUIREMENT_FLAGS, ...PROMISE_PIPELINE_FLAGS]
    case 'unknown':
      return LOGIC_CHANGES.map((c) => c.id)
    default:
      return []
  }
}

export function describeFlags(ids: readonly FlagId[]): string {
  return ids.length <= 4 ? ids.join(', ') : `${ids.slice(0, 4).join(', ')} and ${ids.length - 4} more`
}
