import {readdirSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {fc, test} from '../../helpers/prop.js'
import {beforeAll, describe, expect} from 'vitest'
import {normalizeFeedbackForStall, signatureOf} from '../../../src/logic/orchestrator/stall-signature.js'
import {buildAnalysisReport} from '../../../src/render/json/build-analysis-report.js'
import {analyzeRunPath} from '../../../src/services/analyze.js'
import {redactReport} from '../../../src/services/redaction.js'
import {Redactor, redactTexts} from '../../../src/shared/redact.js'
import {consoleLine, feedbackText, recordLine, runs} from '../../helpers/arbitraries/index.js'
import {accountName, sensitive, type Sensitive} from '../../helpers/arbitraries/secrets.js'
import {TOOL, verdictsOf} from '../../helpers/recording.js'
import {injectQuietly, latin1, redactTree} from '../../helpers/inject.js'
import {createMemoryPort, type MemEntry, snapshotDirectory} from '../../helpers/memory-port.js'

/**
 * Redaction (docs/recording-format.md "Redaction"; docs/properties.md "Recording and redaction"): no
 * redacted secret or name is left in any byte; redacting is idempotent and keeps every length; it keeps which feedbacks
 * share a signature; the fixed signature of a feedback whose home paths sit in worktree paths does not
 * move; and on generated runs — fixtures with names and secrets injected where they do not feed a
 * feedback — redacting every file changes no verdict, signature or finding (what `record` checks and
 * `analyze --redact` relies on).
 */
const NONE = {users: [], hosts: [], homes: []}
const filler = fc.oneof(recordLine, consoleLine, feedbackText)
/** Lines of text with sensitive items among them, split into one to three texts (files). */
const texts = fc
  .tuple(fc.array(fc.oneof({weight: 2, arbitrary: sensitive.map((s) => ({s}))}, {weight: 3, arbitrary: filler.map((f) => ({f}))}), {minLength: 1, maxLength: 14}), fc.nat())
  .map(([items, cut]) => {
    const lines = items.map((i) => ('s' in i ? i.s.text : i.f))
    const secrets = items.flatMap((i) => ('s' in i ? [i.s] : []))
    const a = cut % (lines.length + 1)
    return {texts: [lines.slice(0, a).join('\n'), lines.slice(a).join('\n')], secrets}
  })

function gone(outputs: readonly string[], secrets: readonly Sensitive[]): void {
  const all = outputs.join('\n')
  for (const s of secrets) for (const g of s.gone) expect(all, `${s.kind}: ${g}`).not.toContain(g)
}

describe('redaction of texts', () => {
  // no redacted secret (tokens, paths under $HOME, addresses, prompts) appears anywhere afterwards
  test.prop([texts], runs(500))('leaves no original secret, user, host or home name in any text, and keeps every length', ({texts: input, secrets}) => {
    const out = redactTexts(input, NONE).map((r) => r.text)
    gone(out, secrets)
    expect(out.map((t) => t.length)).toEqual(input.map((t) => t.length))
    expect(out.map((t) => t.split('\n').map((l) => l.length))).toEqual(input.map((t) => t.split('\n').map((l) => l.length)))
  })

  test.prop([texts], runs(500))('is idempotent: a new redaction of the redacted texts changes nothing', ({texts: input}) => {
    const once = redactTexts(input, NONE).map((r) => r.text)
    expect(redactTexts(once, NONE).map((r) => r.text)).toEqual(once)
  })

  // docs/guardkit-logic.md §8.4: the stall detector compares signatures; the same original gets the same placeholder and different
  // originals different ones, so two feedbacks share a signature after redaction exactly when they did before.
  test.prop([fc.array(fc.tuple(feedbackText, fc.option(sensitive, {nil: undefined})), {minLength: 2, maxLength: 5}), fc.array(fc.nat(), {minLength: 2, maxLength: 8})], runs(300))(
    'keeps which feedbacks share a signature (legacy and fixed)',
    (parts, picks) => {
      const feedbacks = picks.map((p) => {
        const [text, secret] = parts[p % parts.length]!
        return secret === undefined ? text : `${text}\n  ${secret.text}`
      })
      const r = new Redactor(NONE)
      for (const f of feedbacks) r.learn(f)
      const redacted = feedbacks.map((f) => r.text(f))
      for (let i = 0; i < feedbacks.length; i++) {
        for (let j = i + 1; j < feedbacks.length; j++) {
          const [a, b, x, y] = [feedbacks[i]!, feedbacks[j]!, redacted[i]!, redacted[j]!]
          expect(signatureOf(x) === signatureOf(y)).toBe(signatureOf(a) === signatureOf(b))
          expect(signatureOf(normalizeFeedbackForStall(x)) === signatureOf(normalizeFeedbackForStall(y))).toBe(
            signatureOf(normalizeFeedbackForStall(a)) === signatureOf(normalizeFeedbackForStall(b)),
          )
        }
      }
    },
  )

  // docs/guardkit-logic.md §8.4 pattern 6: `/…/worktrees/…/` → `/WORKTREE/`. A home directory inside a worktree path is normalised
  // away, so the fixed signature survives redaction; the legacy one (md5 of the text as sent) cannot: record refuses then.
  test.prop([feedbackText, fc.array(fc.tuple(accountName, fc.constantFrom('/Users/', '/home/'), fc.constantFrom('tests/test_a.py::test_b', 'src/x.py:12: KeyError')), {minLength: 1, maxLength: 3})], runs(500))(
    'the fixed signature of a feedback whose home paths are worktree paths does not change; the legacy one does',
    (base, paths) => {
      const feedback = [base, ...paths.map(([user, root, rest]) => `FAILED ${root}${user}/src/app/.guardkit/worktrees/FEAT-X1/${rest}`)].join('\n  ')
      const redacted = redactTexts([feedback], NONE)[0]!.text
      expect(signatureOf(normalizeFeedbackForStall(redacted))).toBe(signatureOf(normalizeFeedbackForStall(feedback)))
      expect(redacted).not.toBe(feedback)
      expect(signatureOf(redacted)).not.toBe(signatureOf(feedback))
    },
  )
})

const FIXTURES = fileURLToPath(new URL('../../../fixtures/runs/', import.meta.url))
/** Small fixtures of every shape: log only, worktree only, both, a recording with versions, bad bytes. */
const NAMES = ['ok-single-turn-promises', 'ok-parallel-waves', 'hostile-log', 'hostile-worktree', 'ok-approved-after-feedback', 'ac1a-run2-sft001'].filter((n) =>
  readdirSync(FIXTURES).includes(n),
)
const MOUNT = '/run'
const snapshots = new Map<string, Map<string, MemEntry>>()

beforeAll(() => {
  for (const name of NAMES) snapshots.set(name, snapshotDirectory(`${FIXTURES}${name}`, MOUNT))
})

async function analyse(tree: ReadonlyMap<string, MemEntry>) {
  return analyzeRunPath(MOUNT, {names: [], with: [], without: [], tool: TOOL, port: createMemoryPort(tree), progress: {step: () => undefined, done: () => undefined}})
}

describe('redaction on generated runs', () => {
  // redaction never changes a verdict or a signature (outcomes, stall turns,
  // per-turn criteria, signatures and fidelity under the inferred profile, legacy and fixed; finding codes and turns)
  test.prop([fc.constantFrom(...NAMES), fc.array(fc.record({s: sensitive, at: fc.nat()}), {minLength: 1, maxLength: 6})], runs(200))(
    'redacting every file of a run changes no verdict, signature or finding, and leaves none of the injected names or secrets',
    async (name, items) => {
      const run = injectQuietly(snapshots.get(name)!, items)
      const redacted = redactTree(run)
      const before = await analyse(run)
      const after = await analyse(redacted)
      expect(verdictsOf(buildAnalysisReport(after))).toEqual(verdictsOf(buildAnalysisReport(before)))
      const bytes = [...redacted.values()].flatMap((e) => (e.kind === 'file' ? [Buffer.from(e.bytes).toString('latin1')] : []))
      gone(bytes, items.map((i) => ({...i.s, gone: i.s.gone.map(latin1)})))
      // analyze --redact: the redacted report keeps every verdict of the report
      expect(verdictsOf(buildAnalysisReport(redactReport(before, NONE)))).toEqual(verdictsOf(buildAnalysisReport(before)))
    },
    60_000,
  )
})

