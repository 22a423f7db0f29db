import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {formatEra} from '../../../src/render/text/analyze.js'
import {inferEra} from '../../../src/replay/index.js'
import {loadRun} from '../../../src/services/load-run.js'

describe('markers of records in no corpus log', () => {
  it('the prior-turn promise recovery INFO (docs/guardkit-logic.md §7.3, S004 Fix 1) places a run from edb5fd18', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-era-'))
    try {
      writeFileSync(join(dir, 'run.log'), [
        'INFO:guardkit.cli.autobuild:Starting orchestration for TASK-X-001 (resume=False)',
        'INFO:guardkit.orchestrator.autobuild:Executing turn 2/5',
        'INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for TASK-X-001 turn 2',
        'INFO:guardkit.orchestrator.quality_gates.coach_validator:No completion_promises in current turn — recovered from player_turn_1.json (2 promises)',
        '',
      ].join('\n'))
      const era = inferEra(await loadRun(dir))
      expect(era.window.from).toBe('edb5fd18')
      expect(era.modelled).toBe(true)
      expect(era.reason).toContain('prior-turn-promises-log (from edb5fd18, 1× e.g. run.log:4)')
      expect(era.evidence).toContainEqual({file: 'run.log', line: 4})
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})

describe('the era\'s reason says which side the records bound', () => {
  async function eraOf(lines: readonly string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'gr-era-'))
    try {
      writeFileSync(join(dir, 'run.log'), [...lines, ''].join('\n'))
      return inferEra(await loadRun(dir))
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  }
  const START = [
    'INFO:guardkit.cli.autobuild:Starting orchestration for TASK-X-001 (resume=False)',
    'INFO:guardkit.orchestrator.autobuild:Executing turn 2/5',
    'INFO:guardkit.orchestrator.quality_gates.coach_validator:Starting Coach validation for TASK-X-001 turn 2',
  ]

  it('only lower bounds: the run is from that commit on, and may be later than the newest commit modelled', async () => {
    const era = await eraOf([...START, 'INFO:guardkit.orchestrator.quality_gates.coach_validator:No completion_promises in current turn — recovered from player_turn_1.json (2 promises)'])
    expect(era.window.from).toBe('edb5fd18')
    expect(era.reason).toMatch(/^GuardKit from edb5fd18 on: \w+ is the newest commit modelled, and no record bounds the run from above \(it may be a later GuardKit\)/)
    expect(era.reason).not.toContain('the newest commit the markers allow')
    expect(era.openAbove).toBe(true)
    // the report's era line says the same: not "between X and Y", which would claim an upper bound no record gives
    expect(formatEra(era)).toMatch(/^from edb5fd18 on, \w+ the newest modelled \(medium confidence, from \d+ records?\)$/)
  })

  it('a marker that bounds it from above: the newest commit the markers allow', async () => {
    const era = await eraOf([...START, 'INFO:guardkit.orchestrator.quality_gates.coach_validator:Running independent tests: pytest tests/ -v'])
    expect(era.window.to).not.toBeNull()
    expect(era.reason).toMatch(/^GuardKit (?:at or before|at|between) .*, the newest commit the markers allow: independent-tests-shell \(before 5c2b5d82/)
    expect(era.openAbove).toBeUndefined()
    expect(formatEra(era)).not.toContain('newest modelled')
  })
})

describe('docs/era-markers.md', () => {
  it('documents every marker the inference uses, with its bound', async () => {
    const {MARKER_BOUNDS} = await import('../../../src/replay/index.js')
    const doc = readFileSync(new URL('../../../docs/era-markers.md', import.meta.url), 'utf8')
    for (const [id, bound] of Object.entries(MARKER_BOUNDS)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${id}\` |`))
      expect(row, id).toBeDefined()
      expect(row).toContain(bound.outside ? `outside: ${bound.outside}` : bound.from ? `from \`${bound.from}\`` : `before \`${bound.before}\``)
    }
  })

  it('the LLM Coach marker claims no first date later than the earliest log carrying its record (docs/record-formats.md §5.4 ab_use_llm)', async () => {
    const {MARKER_BOUNDS} = await import('../../../src/replay/index.js')
    const doc = readFileSync(new URL('../../../docs/record-formats.md', import.meta.url), 'utf8')
    const seen = /\*\*ab_use_llm\*\*.*— seen (\d{4}-\d{2}-\d{2})/.exec(doc)![1]!
    const dates = MARKER_BOUNDS['llm-coach']!.what.match(/\d{4}-\d{2}-\d{2}/g) ?? []
    expect(dates.length).toBeGreaterThan(0)
    // the first date it names is when the record was first logged, not when a later artifact shape appeared
    expect(dates[0]! <= seen).toBe(true)
  })
})
