import {criterionId, generateFileExistencePromises} from '../logic/pipeline/index.js'
import {pyFindall, pyRegex} from '../logic/python/regex.js'
import {promiseCoverageInput, promiseWording, type PromiseCoverage, type UnknownInput} from './unknown-inputs.js'

/**
 * The promise-shaped inputs the records can lack (docs/counterfactuals.md), and the
 * promises each enumerated value stands for. `none` is what a single replay always assumed; `all` a
 * `complete` promise for every criterion; `some` one for every criterion but the last — any partial set
 * leaves the Coach giving feedback, but which criteria it lists is unknown, so that feedback's signature
 * is not computed (SOME_UNKNOWN).
 */
export const SOME_UNKNOWN = 'which criteria a partial set of promises leaves missing is not in the records, so the feedback text is a stand-in'

/** `complete` promises for the first criteria, as many as the value says. */
export function assumedPromises(coverage: PromiseCoverage, total: number): Record<string, unknown>[] {
  const n = coverage === 'all' ? total : coverage === 'some' ? total - 1 : 0
  return Array.from({length: n}, (_, i) => ({criterion_id: criterionId(i), status: 'complete'}))
}

/** D9 without the agent's report: the invoker overwrote `player_turn_N.json`; this profile would have recovered its promises. */
export function agentPromisesInput(total: number, turn: number): UnknownInput {
  return promiseCoverageInput(
    'agentPromises',
    'the completion_promises the agent wrote in player_turn_N.json before the invoker replaced it (not recorded)',
    promiseWording('the promises the agent wrote (overwritten, not recorded)', total),
    total,
    turn,
  )
}

/** D26 with only the log: an earlier turn's promises were recovered, the log gives their count, not what they said. */
export function priorPromisesInput(total: number, from: {readonly turn: number; readonly count: number}, turn: number): UnknownInput {
  const what = `the ${from.count} promise${from.count === 1 ? '' : 's'} recovered on turn ${from.turn} (not in the log)`
  return promiseCoverageInput('priorPromises', `what the ${from.count} completion_promises of player_turn_${from.turn}.json said (statuses and criterion ids)`, promiseWording(what, total), total, turn)
}

const FILE_REF = pyRegex(String.raw`[\w./\-]+\.\w{1,5}`)
const BACKTICK_FILE = pyRegex('`([^`]+\\.[a-zA-Z]+)`')

/** The criteria (by index) that name a file, so that a file-existence promise can verify them (docs/guardkit-logic.md §5.5). */
export function criteriaNamingFiles(criteria: readonly string[]): number[] {
  return criteria.flatMap((text, i) => (pyFindall(FILE_REF, text).length > 0 || pyFindall(BACKTICK_FILE, text).length > 0 ? [i] : []))
}

/** Direct mode, fixed: file-existence promises for a scaffolding task, from file lists the log does not hold. */
export function directPromisesInput(naming: number, turn: number): UnknownInput {
  const them = naming === 1 ? 'the file named in the one criterion that names a file' : `a file named in each of the ${naming} criteria that name one`
  return promiseCoverageInput(
    'directPromises',
    'the files the Player created or modified (the synthetic report\'s file lists are not in the log)',
    {
      none: {assume: `the Player's files (not in the log) included none of the files the criteria name`, brief: 'they included none of them'},
      some: {assume: `the Player's files (not in the log) included the files of only some of the ${naming} criteria that name one`, brief: 'they included only some of them'},
      all: {assume: `the Player's files (not in the log) included ${them}`, brief: `they included all ${naming}`},
    },
    naming,
    turn,
  )
}

/**
 * The shared file-existence promises (docs/guardkit-logic.md §5.5) when the Player's files matched the files named by all,
 * some (all but the last) or none of the criteria that name one: the real generator, over file lists
 * made of those names.
 */
export function assumedFileExistencePromises(coverage: PromiseCoverage, criteria: readonly string[]): Record<string, unknown>[] {
  const naming = criteriaNamingFiles(criteria)
  const kept = coverage === 'all' ? naming : coverage === 'some' ? naming.slice(0, -1) : []
  const files = kept.flatMap((i) => [...pyFindall(FILE_REF, criteria[i]!), ...pyFindall(BACKTICK_FILE, criteria[i]!)])
  const promises = generateFileExistencePromises(files, [], [...criteria], null)
  // A file named by a kept criterion can also match a dropped one: those stay unverified, as the value says.
  return promises.map((p, i) => (naming.includes(i) && !kept.includes(i) ? {...p, status: 'incomplete'} : p))
}
