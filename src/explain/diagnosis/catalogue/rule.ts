import type {FlagId} from '../../../logic/changes.js'
import type {FindingCode} from '../../../model/finding.js'
import type {RootCause} from '../../../model/root-cause.js'
import type {Signal} from '../../../model/signal.js'
import type {Role, Stage} from '../stages.js'

/**
 * One rule of the signal catalogue (docs/signals.md): which signals it matches, the root-cause
 * category and stage they belong to, what they mean and what to do. Rules are data — the built-in
 * ones in catalogue/signals.yaml, a user's in `--signals FILE` — validated by rule-schema.ts.
 */
export interface SignalRule {
  readonly id: string
  readonly category: RootCause
  readonly stage: Stage
  readonly role: Role
  readonly match: {
    /** The logger's name; `prefix.*` matches the loggers under it; `(console)` console text. Any logger when absent. */
    readonly logger?: string
    /** Record levels (`ERROR`, `WARNING`, `INFO`, `CRITICAL`); console text has none. Any when absent. */
    readonly level?: readonly string[]
    /** A JavaScript regular expression, searched in the signal's text. */
    readonly pattern: string
    readonly ignoreCase?: boolean
  }
  /** GuardKit era in which the message was seen (`YYYY-MM`), for the reader: matching ignores it. */
  readonly era?: {readonly first: string; readonly last?: string}
  /** A clause for the `why` line: "the model provider refused the SDK's credentials". */
  readonly summary: string
  /** What the message means, in a sentence or two. */
  readonly means: string
  /** What to do. */
  readonly action: string
  /** Finding codes that explain this class of signal when they fire (the signal then only lends them its line). */
  readonly coveredBy?: readonly FindingCode[]
  /** Finding codes whose category this rule's signals decide on the turns they share (a zero-test rejection on a turn where no task test was found is test selection). */
  readonly refines?: readonly FindingCode[]
  /**
   * Rule ids (one of their signals) or finding codes (one of them fired) that must be present on the
   * same turn for this rule to apply; else the next rule that matches classifies the signal (rule ids)
   * or it makes no finding (codes).
   */
  readonly onlyWith?: readonly string[]
  /** Rule ids one of whose signals must come earlier in the same turn (a session that completed, then timed out). */
  readonly onlyAfter?: readonly string[]
  /**
   * Rule ids none of whose signals may show on the same turn for this rule to apply; else the next rule
   * that matches classifies the signal (a fast test failure is no import error when GuardKit's own
   * classifier read the output and found the code at fault).
   */
  readonly notWith?: readonly string[]
  /**
   * With `onlyAfter`: the number this rule's pattern captures (its first group) must equal the
   * number captured from the latest earlier `onlyAfter` signal of the turn (a session that used every
   * SDK turn it was given: `SDK completed: turns=50` after `Max turns: 50`; `turns=61` after it is a count the
   * limit did not bound, which does not show where the session stopped).
   */
  readonly reachesLimit?: boolean
  /**
   * Logic changes (docs/logic-changes.md) the GuardKit that wrote the run must have (`has`), lack (`lacks`), or may
   * have or lack as far as its records tell (`undecided`) for the rule to apply, read from the run's era (the commit
   * window its markers allow, else its place on the timeline); else the next rule that matches classifies the signal.
   * A message that means one thing before a fix and another after it (a rebuilt report: lost promises before S000,
   * none written after) has a rule for each side and one that names both when the era cannot tell.
   */
  readonly guardkit?: {readonly has?: readonly FlagId[]; readonly lacks?: readonly FlagId[]; readonly undecided?: readonly FlagId[]}
  /**
   * A rule whose signal can have mattered only where tests ran (a dependency install that failed: tests that import
   * the dependencies fail): on a task none of whose turns ran tests (the Coach's own run or tests the Player
   * reported), its signal is listed as context and is not part of the diagnosis.
   */
  readonly onlyWhereTestsRan?: boolean
  /** When the category is a deduction from the message (not what the message says): the deduction, and the finding is `inferred`. */
  readonly deduction?: string
  /** Real-shaped log lines the rule must classify (its unit test runs them through ingest). */
  readonly examples: readonly string[]
  /** Lines it must not classify. */
  readonly counterExamples?: readonly string[]
  /** Where it was read (the catalogue's file or the user's), with the line of each example. */
  readonly origin: {readonly file: string; readonly line: number; readonly exampleLines?: readonly number[]}
}

/** Whether the GuardKit that wrote the run had a logic change: null when its era cannot tell. */
export type GuardkitChanges = (flag: FlagId) => boolean | null

/** A rule whose use depends on the other signals or findings of its turn (`onlyWith`, `onlyAfter`, `notWith`). */
export function dependsOnTurn(rule: SignalRule): boolean {
  return rule.onlyWith !== undefined || rule.onlyAfter !== undefined || rule.notWith !== undefined
}

/** A rule that applies only next to (or away from) other signals or findings, or to some GuardKit versions: it cannot be checked on one line. */
export function isConditional(rule: SignalRule): boolean {
  return dependsOnTurn(rule) || rule.guardkit !== undefined
}

/** The rule's `guardkit` condition holds for the run's GuardKit: a `has` or `lacks` rule only where the era decides. */
export function guardkitAllows(rule: SignalRule, has: GuardkitChanges): boolean {
  const g = rule.guardkit
  if (g === undefined) return true
  return (g.has ?? []).every((f) => has(f) === true) &&
    (g.lacks ?? []).every((f) => has(f) === false) &&
    (g.undecided ?? []).every((f) => has(f) === null)
}

export interface Catalogue {
  readonly rules: readonly SignalRule[]
  /**
   * The rule a signal belongs to out of its turn's context (the first that matches with no
   * `onlyWith`/`onlyAfter`/`notWith`/`guardkit` condition, user rules first: a condition cannot be checked on one line), or null.
   */
  classify(signal: Pick<Signal, 'logger' | 'level' | 'text'>): SignalRule | null
  /**
   * The rules that match, in order, up to the first without a condition (`onlyWith`/`onlyAfter`/`notWith`/`guardkit`)
   * (the candidates when a condition fails; the rules after it can never classify the signal).
   */
  matching(signal: Pick<Signal, 'logger' | 'level' | 'text'>): readonly SignalRule[]
  /** Whether one rule matches the signal, whatever comes before it (a rule's examples are checked so). */
  matches(rule: SignalRule, signal: Pick<Signal, 'logger' | 'level' | 'text'>): boolean
  /** A rule's place in the catalogue (earlier rules are the more specific). */
  indexOf(ruleId: string): number
  /** The number the rule's pattern captures (its first group) in the signal's text, or null. */
  numberOf(rule: SignalRule, signal: Pick<Signal, 'text'>): number | null
}

interface Compiled {
  readonly rule: SignalRule
  readonly logger: ((name: string) => boolean) | null
  readonly levels: ReadonlySet<string> | null
  readonly pattern: RegExp
}

/** The rules in the order given (earlier wins), their patterns compiled once. */
export function createCatalogue(rules: readonly SignalRule[]): Catalogue {
  const compiled: Compiled[] = rules.map((rule) => ({
    rule,
    logger: loggerMatcher(rule.match.logger),
    levels: rule.match.level === undefined ? null : new Set(rule.match.level),
    pattern: new RegExp(rule.match.pattern, rule.match.ignoreCase === true ? 'iu' : 'u'),
  }))
  const memo = new Map<string, readonly SignalRule[]>()
  const index = new Map(rules.map((r, i) => [r.id, i]))
  const matching = (signal: Pick<Signal, 'logger' | 'level' | 'text'>): readonly SignalRule[] => {
    const key = `${signal.logger}\u0000${signal.level ?? ''}\u0000${signal.text}`
    const hit = memo.get(key)
    if (hit !== undefined) return hit
    const found: SignalRule[] = []
    for (const c of compiled) {
      if (!test(c, signal)) continue
      found.push(c.rule)
      if (!isConditional(c.rule)) break
    }
    if (memo.size < 10_000) memo.set(key, found)
    return found
  }
  const byRule = new Map(compiled.map((c) => [c.rule, c]))
  return {
    rules,
    matching,
    classify: (signal) => matching(signal).find((r) => !isConditional(r)) ?? null,
    matches: (rule, signal) => {
      const c = byRule.get(rule)
      return c !== undefined && test(c, signal)
    },
    indexOf: (id) => index.get(id) ?? rules.length,
    numberOf: (rule, signal) => {
      const c = byRule.get(rule)
      const m = c === undefined ? null : c.pattern.exec(signal.text)
      const n = m?.[1] === undefined ? NaN : Number(m[1])
      return Number.isFinite(n) ? n : null
    },
  }
}

function test(c: Compiled, signal: Pick<Signal, 'logger' | 'level' | 'text'>): boolean {
  if (c.levels !== null && (signal.level === null || !c.levels.has(signal.level))) return false
  if (c.logger !== null && !c.logger(signal.logger)) return false
  return c.pattern.test(signal.text)
}

function loggerMatcher(logger: string | undefined): ((name: string) => boolean) | null {
  if (logger === undefined) return null
  if (logger.endsWith('*')) {
    const prefix = logger.slice(0, -1)
    return (name) => name.startsWith(prefix)
  }
  return (name) => name === logger
}
