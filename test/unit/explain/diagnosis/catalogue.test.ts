import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {BUILTIN_RULES} from '../../../../src/explain/diagnosis/catalogue/builtin.generated.js'
import {builtinCatalogue} from '../../../../src/explain/diagnosis/catalogue/builtin.js'
import {CATALOGUE_FILE, DOC_MARKER} from '../../../../src/explain/diagnosis/catalogue/files.js'
import {parseSignalRules} from '../../../../src/explain/diagnosis/catalogue/parse-rules.js'
import {renderCatalogueDoc, renderCatalogueModule} from '../../../../src/explain/diagnosis/catalogue/render-catalogue.js'
import type {GuardkitChanges, SignalRule} from '../../../../src/explain/diagnosis/catalogue/rule.js'
import {CODE_CLASSES} from '../../../../src/explain/diagnosis/code-classes.js'
import {isFindingCode} from '../../../../src/explain/diagnosis/task-signals.js'
import {ROOT_CAUSES} from '../../../../src/model/root-cause.js'
import {signalsOf} from './signal-harness.js'

const root = new URL('../../../../', import.meta.url)
const yaml = readFileSync(new URL(CATALOGUE_FILE, root), 'utf8')
const parsed = parseSignalRules(yaml, CATALOGUE_FILE)
const catalogue = builtinCatalogue()
const byId = new Map(parsed.rules.map((r) => [r.id, r]))

/** A rule's example is read in a run whose GuardKit meets its `guardkit` condition (each change it names had or lacked). */
function guardkitOf(rule: SignalRule): GuardkitChanges {
  return (flag) => (rule.guardkit?.has?.includes(flag) ? true : rule.guardkit?.lacks?.includes(flag) ? false : null)
}

/** A rule's example needs the signals its `onlyWith`/`onlyAfter` rules match in the same turn (and theirs, in order). */
function companions(rule: SignalRule): string[] {
  const ids = [...(rule.onlyAfter ?? []), ...(rule.onlyWith ?? []).filter((id) => !isFindingCode(id))]
  const first = ids.map((id) => byId.get(id)).find((r) => r !== undefined)
  return first === undefined ? [] : [...companions(first), first.examples[0]!]
}

describe('the built-in signal catalogue (docs/signals.md)', () => {
  it('is valid: every rule passes the schema', () => {
    expect(parsed.issues).toEqual([])
    expect(parsed.rules.length).toBeGreaterThan(50)
  })

  it('is what the CLI loads (npm run signals keeps builtin.generated.ts in step)', () => {
    const generated = readFileSync(new URL('src/explain/diagnosis/catalogue/builtin.generated.ts', root), 'utf8')
    expect(generated).toBe(renderCatalogueModule(parsed.rules))
    expect(BUILTIN_RULES.map((r) => r.id)).toEqual(parsed.rules.map((r) => r.id))
  })

  it('is the rule list of docs/signals.md', () => {
    const doc = readFileSync(new URL('docs/signals.md', root), 'utf8')
    expect(doc).toBe(renderCatalogueDoc(parsed.rules, doc.slice(0, doc.indexOf(DOC_MARKER) + DOC_MARKER.length)))
  })

  it('can name every category, by a rule or a finding code (`task-spec`: only its one recorded shape, CRITERIA_UNVERIFIABLE)', () => {
    const byRule = new Set(parsed.rules.filter((r) => r.role !== 'context').map((r) => r.category))
    const byCode = new Set(Object.values(CODE_CLASSES).filter((c) => c.role !== 'context').map((c) => c.category))
    expect(ROOT_CAUSES.filter((c) => !byRule.has(c) && !byCode.has(c))).toEqual([])
    // the criteria families (and a task that asks for a judgement) are read from the criteria themselves, not from a message
    expect(ROOT_CAUSES.filter((c) => !byRule.has(c))).toEqual(['criteria-parsing', 'criteria-matching', 'cross-turn-memory', 'task-spec'])
    // `unknown` by a rule only where the run's era cannot tell which of two readings holds (a guardkit condition)
    expect(parsed.rules.filter((r) => r.role !== 'context' && r.category === 'unknown').every((r) => r.guardkit?.undecided !== undefined)).toBe(true)
  })

  it('names only rules that exist in onlyWith', () => {
    for (const r of parsed.rules) for (const id of r.onlyWith ?? []) if (!isFindingCode(id)) expect(byId.has(id), `${r.id}: ${id}`).toBe(true)
  })

  it('names only rules that exist in notWith', () => {
    for (const r of parsed.rules) for (const id of r.notWith ?? []) if (!isFindingCode(id)) expect(byId.has(id), `${r.id}: ${id}`).toBe(true)
  })

  /**
   * The companions around a line: one that ends the task's loop (`Orchestration failed for TASK-X …`) after it, as
   * GuardKit logs it last; nothing of a loop is logged after its end (docs/record-formats.md §5.2).
   */
  const around = (rule: SignalRule, line: string) => {
    const all = companions(rule)
    const ends = (l: string) => /:Orchestration (?:failed|complete)\b/.test(l)
    return [...all.filter((l) => !ends(l)), line, ...all.filter(ends)]
  }

  describe.each(parsed.rules.map((r) => [r.id, r] as const))('%s', (_id, rule) => {
    it.each(rule.examples.map((e, i) => [i + 1, e] as const))('classifies its example %i after ingest', (_n, example) => {
      const signals = signalsOf(around(rule, example), catalogue, guardkitOf(rule))
      const ids = signals.classified.map((c) => c.rule.id)
      expect(ids, `${example}\n  got: ${ids.join(', ') || '(no signal)'}; unclassified: ${signals.unclassified.map((s) => s.text).join(' | ')}`).toContain(rule.id)
    })
    it.each((rule.counterExamples ?? []).map((e, i) => [i + 1, e] as const))('does not classify its counter-example %i', (_n, line) => {
      const signals = signalsOf(around(rule, line), catalogue, guardkitOf(rule))
      const own = signals.classified.filter((c) => c.rule.id === rule.id && (c.signal.evidence.text ?? '').length > 0 && line.includes((c.signal.evidence.text ?? '').slice(0, 40)))
      expect(own).toEqual([])
    })
  })
})
