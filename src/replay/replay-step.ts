import {collectingSink} from '../logic/log-sink.js'
import {
  describeStallCheck,
  feedbackSignatures,
  initialLoopState,
  stepLoop,
  type LoopEvent,
  type LoopState,
  type LoopTurn,
  type StallCheck as LogicStallCheck,
  type TurnOutcome,
} from '../logic/orchestrator/index.js'
import {asArray} from '../logic/orchestrator/index.js'
import {decideFromArtifacts, type PlayerReports} from './decision-from-artifacts.js'
import {turnDifferences} from './differences.js'
import {decideFromLog} from './decision-from-log.js'
import type {ProfileContext} from './profile-context.js'
import type {TurnInputs} from './turn-inputs.js'
import {emptyTurnDetail, type ReplayedTurn, type StallCheck, type TurnDetail} from './types.js'
import type {TurnDecision} from './turn-decision.js'
import {mergeUnknowns, type UnknownInput} from './unknown-inputs.js'

/**
 * The replay of one task under one profile, between turns: the model's loop state plus what the
 * replay learnt so far. `stepReplay` folds one recorded turn into it (batch replay folds them all;
 * `live` feeds them as they land), `finishReplay` (replay-task.ts) turns it into a TaskReplay.
 */
export interface ReplayState {
  readonly loop: LoopState
  readonly turns: readonly ReplayedTurn[]
  /** This profile's player reports per turn (the Coach's prior-turn promise scan reads them, D26). */
  readonly reports: PlayerReports
  /** The first turn whose replayed feedback or decision differs from the recorded one. */
  readonly divergedAt: number | null
  /** An earlier turn had completion_promises (recorded, recovered or replayed). */
  readonly promisesEarlier: boolean
  /** The latest earlier turn whose player report had completion_promises, and how many (what the prior-turn scan finds, D26). */
  readonly promisesAt: {readonly turn: number; readonly count: number} | null
  /** Inputs the records lack that a turn consulted under an enumerated value (replay/branches.ts runs the other values). */
  readonly unknowns: readonly UnknownInput[]
  /** The first turn whose decision under this profile was a stand-in: every later turn rests on it. */
  readonly uncertainSince: number | null
  /** The replay could not go on (a turn's decision is unknown). */
  readonly stoppedAt: number | null
  /** Signatures of stand-in feedback texts → what to show for them (the logged signature, or `unknown`). */
  readonly shownSignatures: Readonly<Record<string, string>>
}

/** Signatures the log's `Feedback stall … (sig=…)` record pins for the turns of its window. */
export type RecordedSignatures = ReadonlyMap<number, string>

/** Stands in for a feedback whose text is unknown but whose signature the log recorded (same text ⇔ same signature). */
const SIGNATURE_TOKEN = '\u0000recorded-signature:'
/** Stands in for a feedback whose text and signature are both unknown (distinct from every other). */
const UNKNOWN_TOKEN = '\u0000unknown-signature:turn-'
/** Stands in for a profile's own feedback that the records cannot rebuild: equal where the recorded texts are equal. */
const STAND_IN_TOKEN = '\u0000stand-in-feedback:'

export function initialReplayState(ctx: ProfileContext): ReplayState {
  const s = ctx.inputs.settings
  const lastTurn = ctx.inputs.turns.at(-1)?.turn ?? 0
  return {
    loop: initialLoopState({
      taskId: ctx.inputs.taskId,
      // Unknown max turns: the loop runs on and the replay ends undetermined at the last recorded turn.
      maxTurns: s.maxTurns ?? Math.max(lastTurn + 1, 1_000_000),
      perspectiveResetTurns: s.perspectiveResetTurns ?? undefined,
      enablePerspectiveReset: s.perspectiveResetTurns === null ? undefined : s.perspectiveResetTurns.length > 0,
      rollbackOnPollution: s.rollbackOnPollution ?? true,
      initialCheckpoints: s.priorFailingCheckpoints.map((turn) => ({turn, testsPassed: false})),
      acceptanceCriteria: ctx.criteria?.texts ?? [],
    }),
    turns: [],
    reports: {},
    divergedAt: null,
    promisesEarlier: false,
    promisesAt: null,
    unknowns: [],
    uncertainSince: null,
    stoppedAt: null,
    shownSignatures: {},
  }
}

/** One recorded turn → the profile's replayed turn: Player side, Coach, then `_loop_phase`'s step. */
export function stepReplay(state: ReplayState, ctx: ProfileContext, t: TurnInputs, recordedSigs: RecordedSignatures): ReplayState {
  if (state.loop.result || state.stoppedAt !== null) return state
  const boundary = ctx.inputs.boundary
  const sink = collectingSink()
  let loop = state.loop
  if (boundary?.kind === 'timeout' && boundary.turn === t.turn && boundary.seconds !== null) loop = stepLoop(loop, {kind: 'timeout', seconds: boundary.seconds}, ctx.flags, sink)
  if (boundary?.kind === 'cancelled' && boundary.where === 'between-player-and-coach' && boundary.turn === t.turn) {
    const outcome: TurnOutcome = {decision: 'error', feedback: null, playerResult: null, coachResult: null}
    const next = stepLoop(loop, {kind: 'turn', outcome, cancellation: 'between-player-and-coach'}, ctx.flags, sink)
    return {...state, loop: next, turns: [...state.turns, boundaryTurn(t, next, state, sink.records)]}
  }
  let decided = decideFromArtifacts(ctx, t, state.reports) ?? decideFromLog(ctx, t, {promisesEarlier: state.promisesEarlier, promisesAt: state.promisesAt})
  const decision = decided.decision
  const unknowns = mergeUnknowns(state.unknowns, decided.unknowns ?? [])
  if (decision === null) return {...state, loop, unknowns, stoppedAt: t.turn, turns: [...state.turns, unknownTurn(t, decided, state)]}

  // An excerpt-only feedback the profile signs as the code that ran did: the record says what the
  // detector saw. Inside the logged stall window it is the logged signature; elsewhere the detector
  // did not fire, so the turn's signature is unknown and is not taken to equal any other.
  const recordedSig = recordedSigs.get(t.turn) ?? null
  const excerptOnly = decided.feedbackIsRecorded && decided.feedbackBasis === 'category' && ctx.asRun !== null && ctx.asRun.stallNormalize === ctx.flags.stallNormalize
  const unknownSig = (excerptOnly && recordedSig === null) || decided.signatureUnknown !== undefined
  // The recorded text stands in for this profile's own (another wording): its equality pattern, never its signature.
  const standIn = !unknownSig && decided.signatureStandIn !== undefined && decided.feedback !== null
  const useRecordedSig = excerptOnly && recordedSig !== null && !unknownSig && !standIn
  const patternKey = standIn ? (excerptOnly && recordedSig !== null ? recordedSig : feedbackSignatures(decided.feedback!, ctx.flags).used) : null
  const stallFeedback = useRecordedSig ? `${SIGNATURE_TOKEN}${recordedSig}` : unknownSig ? `${UNKNOWN_TOKEN}${t.turn}` : standIn ? `${STAND_IN_TOKEN}${patternKey}` : decided.feedback
  if (standIn) decided = {...decided, assumptions: [...decided.assumptions, `turn ${t.turn}'s signature under ${ctx.name} cannot be computed: ${decided.signatureStandIn}`]}
  if (decided.signatureUnknown !== undefined) decided = {...decided, assumptions: [...decided.assumptions, `turn ${t.turn}'s signature cannot be computed: ${decided.signatureUnknown}; the stall detector is taken to see a feedback unlike any other`]}
  else if (unknownSig) decided = {...decided, assumptions: [...decided.assumptions, `turn ${t.turn}'s signature is not in the log (feedback excerpt only); the recorded run's detector did not fire on it`]}
  if (state.uncertainSince !== null && decided.fidelity === 'exact') {
    decided = {...decided, fidelity: 'approximate', assumptions: [...decided.assumptions, `turn ${state.uncertainSince}'s decision under this profile is a stand-in, so this turn is reached only on that assumption`]}
  }
  const outcome: TurnOutcome = {
    decision,
    feedback: decision === 'feedback' ? stallFeedback : null,
    playerResult: {success: decided.playerSuccess, report: decided.playerReport, error: null},
    coachResult: decided.coachReport ? {success: true, report: decided.coachReport, error: null} : null,
  }
  const cancelAfter = boundary?.kind === 'cancelled' && boundary.where === 'after-turn' && boundary.turn === t.turn
  const event: LoopEvent = {kind: 'turn', outcome, ...(cancelAfter ? {cancellation: 'after-turn' as const} : {})}
  loop = stepLoop(loop, event, ctx.flags, sink)
  if (boundary?.kind === 'crash' && boundary.turn === t.turn && !loop.result) {
    loop = stepLoop(loop, {kind: 'exception', exception: {type: 'Exception', message: boundary.message}}, ctx.flags, sink)
  }
  const loopTurn = loop.turns.findLast((x) => x.turn === loop.nextTurn - 1) ?? loop.turns.at(-1)!
  const shownSignatures = useRecordedSig || unknownSig || standIn
    ? {...state.shownSignatures, [feedbackSignatures(stallFeedback!, ctx.flags).used]: useRecordedSig ? recordedSig! : standIn ? '(own text?)' : 'unknown'}
    : state.shownSignatures
  const replayed = buildTurn(ctx, t, decided, loopTurn, {...state, shownSignatures}, sink.records, useRecordedSig ? recordedSig : null, unknownSig || standIn)
  const divergedHere = replayed.detail.differences.some((d) => d.field === 'decision' || d.field === 'feedback')
  const report = decided.playerReport ?? t.playerReport?.value ?? null
  const promiseCount = Math.max(t.record.player.promisesRecovered?.value ?? 0, asArray(report?.completion_promises).length)
  return {
    loop,
    turns: [...state.turns, replayed],
    reports: report ? {...state.reports, [t.turn]: report} : state.reports,
    divergedAt: state.divergedAt ?? (divergedHere ? t.turn : null),
    uncertainSince: state.uncertainSince ?? (decided.decisionCertain ? null : t.turn),
    shownSignatures,
    promisesEarlier: state.promisesEarlier || promiseCount > 0,
    promisesAt: promiseCount > 0 ? {turn: t.turn, count: promiseCount} : state.promisesAt,
    unknowns,
    stoppedAt: null,
  }
}

function buildTurn(
  ctx: ProfileContext,
  t: TurnInputs,
  decided: TurnDecision,
  loopTurn: LoopTurn,
  state: ReplayState,
  logs: ReplayedTurn['logs'],
  recordedSig: string | null,
  unknownSig: boolean,
): ReplayedTurn {
  const sigs = decided.feedback && recordedSig === null && !unknownSig ? feedbackSignatures(decided.feedback, ctx.flags) : null
  const signature = recordedSig ?? (decided.decision === 'feedback' ? (sigs?.used ?? null) : null)
  const withheld = decided.decision === 'feedback' && (decided.signatureStandIn !== undefined || decided.signatureUnknown !== undefined)
  const signatureBasis: TurnDetail['feedback']['signatureBasis'] = signature === null ? (withheld ? 'withheld' : null) : recordedSig !== null ? 'recorded' : decided.feedbackBasis === 'category' ? 'excerpt' : 'computed'
  const stall = loopTurn.stall ? toStallCheck(loopTurn, state, recordedSig) : null
  const base = emptyTurnDetail()
  const detail: TurnDetail = {
    player: decided.player,
    coach: decided.coach,
    feedback: {
      recorded: t.loggedFeedback?.text ?? t.feedback?.text ?? null,
      recordedCompleteness: t.loggedFeedback?.completeness ?? (t.feedback ? 'full' : null),
      rebuiltFrom: decided.feedbackFrom,
      evidence: t.feedback?.evidence ?? [],
      rawSignature: recordedSig !== null && !ctx.flags.stallNormalize ? recordedSig : (sigs?.raw ?? null),
      normalisedSignature: recordedSig !== null && ctx.flags.stallNormalize ? recordedSig : (sigs?.normalized ?? null),
      signatureBasis,
    },
    loop: {
      previousFeedback: hideToken(loopTurn.previousFeedback, state),
      perspectiveReset: loopTurn.perspectiveReset,
      criteriaPassed: loopTurn.criteriaPassed,
      peakCriteriaPassed: loopTurn.peakCriteriaPassed,
      checkpoint: loopTurn.checkpoint ? {testsPassed: loopTurn.checkpoint.testsPassed, basis: decided.recordedCheckpoint !== null ? 'recorded' : 'replayed'} : null,
      pollution: loopTurn.pollution
        ? {kind: loopTurn.pollution.kind, window: loopTurn.pollution.window.map((c) => c.turn), target: loopTurn.pollution.kind === 'rollback' ? loopTurn.pollution.target : null}
        : null,
      stallSkipped: loopTurn.stallSkipped,
    },
    differences: base.differences,
  }
  const turn: ReplayedTurn = {
    turn: t.turn,
    decision: decided.decision,
    criteriaMet: decided.criteriaMet,
    criteriaTotal: decided.criteriaTotal,
    feedback: decided.decision === 'feedback' ? decided.feedback : null,
    feedbackBasis: decided.feedbackBasis,
    signature,
    stall,
    fidelity: decided.fidelity,
    confidence: state.divergedAt !== null && state.divergedAt < t.turn ? 'inferred' : 'recorded',
    missingInputs: decided.missingInputs,
    assumptions: [...decided.assumptions, ...(state.divergedAt !== null && state.divergedAt < t.turn ? [`the replay's feedback differed from the recorded one from turn ${state.divergedAt}: the Player is assumed to have acted as recorded`] : [])],
    diverges: false,
    logs: [...decided.logs, ...logs].map((r) => ({level: r.level, logger: r.logger, message: showSignatures(hideTokenText(r.message), state)})),
    detail,
  }
  const differences = turnDifferences(t, turn, ctx)
  return {...turn, diverges: differences.length > 0, detail: {...detail, differences}}
}

function toStallCheck(loopTurn: LoopTurn, state: ReplayState, recordedSig: string | null): StallCheck {
  const check = loopTurn.stall as LogicStallCheck
  const historyTurns = [...state.turns.filter((x) => x.stall !== null).map((x) => x.turn), loopTurn.turn]
  const shown = (sig: string): string => state.shownSignatures[sig] ?? sig
  const window = check.window.map((e, i) => ({turn: historyTurns[historyTurns.length - check.window.length + i] ?? loopTurn.turn, signature: shown(e.signature), count: e.count}))
  return {
    signature: recordedSig ?? shown(check.signatures.used),
    rawSignature: recordedSig ?? shown(check.signatures.raw),
    normalisedSignature: recordedSig ?? shown(check.signatures.normalized),
    count: check.count,
    window,
    threshold: check.threshold,
    fired: check.stalled,
    reason: showSignatures(hideTokenText(describeStallCheck(check)), state),
  }
}

/** Replace the signatures of stand-in texts by the logged ones (or `unknown`) in a message. */
function showSignatures(text: string, state: ReplayState): string {
  let out = text
  for (const [sig, shown] of Object.entries(state.shownSignatures)) out = out.replaceAll(sig, shown)
  return out
}

function hideToken(text: string | null, state: ReplayState): string | null {
  // The Player is sent this profile's own text, which the records do not hold.
  if (text !== null && text.startsWith(STAND_IN_TOKEN)) return null
  if (text !== null && text.startsWith(UNKNOWN_TOKEN)) return state.turns.find((t) => t.turn === Number(text.slice(UNKNOWN_TOKEN.length)))?.feedback ?? null
  if (text === null || !text.startsWith(SIGNATURE_TOKEN)) return text
  const sig = text.slice(SIGNATURE_TOKEN.length)
  return state.turns.find((t) => t.signature === sig)?.feedback ?? null
}

function hideTokenText(text: string): string {
  return text.replaceAll(SIGNATURE_TOKEN, 'recorded signature ').replaceAll(UNKNOWN_TOKEN, 'unknown signature of turn ').replaceAll(STAND_IN_TOKEN, 'the recorded feedback standing in, ')
}

/** The turn a recorded cancellation cut between Player and Coach: no Coach ran (docs/guardkit-logic.md §8.2 step 5). */
function boundaryTurn(t: TurnInputs, loop: LoopState, state: ReplayState, logs: ReplayedTurn['logs']): ReplayedTurn {
  const detail = emptyTurnDetail()
  const loopTurn = loop.turns.at(-1)
  return {
    turn: t.turn, decision: 'error', criteriaMet: null, criteriaTotal: null, feedback: null, feedbackBasis: 'unknown', signature: null, stall: null,
    fidelity: 'exact', confidence: state.divergedAt !== null && state.divergedAt < t.turn ? 'inferred' : 'recorded', missingInputs: [],
    assumptions: ['the recorded cancellation ends this turn between the Player and the Coach (an input, not a model decision)'],
    diverges: false, logs: logs.map((r) => ({...r})),
    detail: {...detail, loop: {...detail.loop, previousFeedback: loopTurn?.previousFeedback ?? null, perspectiveReset: loopTurn?.perspectiveReset ?? false}},
  }
}

function unknownTurn(t: TurnInputs, decided: TurnDecision, state: ReplayState): ReplayedTurn {
  return {
    turn: t.turn, decision: null, criteriaMet: null, criteriaTotal: null, feedback: null, feedbackBasis: 'unknown', signature: null, stall: null,
    fidelity: 'insufficient', confidence: state.divergedAt !== null && state.divergedAt < t.turn ? 'inferred' : 'recorded',
    missingInputs: decided.missingInputs, assumptions: decided.assumptions, diverges: false, logs: [],
    detail: {...emptyTurnDetail(), player: decided.player, coach: decided.coach},
  }
}
