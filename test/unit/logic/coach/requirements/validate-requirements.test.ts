import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {validateRequirements} from '../../../../../src/logic/coach/requirements/index.js'
import {parseTaskFile} from '../../../../../src/logic/mode/index.js'
import {COACH_LOGGER, coach, flagsOf, warnings} from './helpers.js'

/** FEAT-AC1A's TASK-SFT-001 as fixtures/runs/ac1a-run2-sft001 holds it (its criteria as the recorded run's task file words them). */
const SFT_001 = new URL('../../../../../fixtures/runs/ac1a-run2-sft001/tasks/design_approved/TASK-SFT-001-scaffolding.md', import.meta.url)

// Seed 001's task (TASK-RK01-003): the first criterion is quoted in the seed, the rest stand in.
const RK01_003 = ['Config file exists at `installer/global/config/graphiti.yaml`', 'Second criterion', 'Third criterion', 'Fourth criterion']

const ok = (r: ReturnType<typeof validateRequirements>) => {
  if (!r.ok) throw new Error(r.exception)
  return r
}

describe('the 0/N diagnostic dump (docs/guardkit-logic.md §7.2)', () => {
  it("reproduces seed 001's dump: direct-mode results without _synthetic, text path on requirements_met: []", () => {
    // As run at c5a83a15 the direct-mode results carried neither _synthetic nor requirements fields.
    const self = coach('as-run:c5a83a15', {taskId: 'TASK-RK01-003'})
    const r = ok(validateRequirements({acceptance_criteria: RK01_003}, {task_id: 'TASK-RK01-003', success: true}, 1, self))
    expect(r.validation).toMatchObject({criteria_total: 4, criteria_met: 0, all_criteria_met: false})
    expect(self.records.every((rec) => rec.logger === COACH_LOGGER && rec.level === 'WARNING')).toBe(true)
    expect(warnings(self.records)).toEqual([
      'Criteria verification 0/4 - diagnostic dump:',
      ...RK01_003.map((t) => `  AC text: ${t}`),
      '  requirements_met: []',
      '  completion_promises: (not used)',
      '  matching_strategy: text',
      '  _synthetic: False',
    ])
    expect(r.explanation.strategy).toBe('text')
    expect(r.explanation.criteria.map((c) => c.decidedBy)).toEqual(['text-none', 'text-none', 'text-none', 'text-none'])
  })

  it('reproduces the FEAT-AC1A TASK-SFT-001 turn 1 dump of the recorded log, nested sub-bullets and 100-code-point cut included', () => {
    const task = parseTaskFile(readFileSync(SFT_001, 'utf8'), 'TASK-SFT-001-scaffolding.md', flagsOf('legacy'))
    const self = coach('legacy', {taskId: 'TASK-SFT-001'})
    ok(validateRequirements({acceptance_criteria: task.acceptance_criteria}, {task_id: 'TASK-SFT-001'}, 1, self))
    // corpus/docs/record-formats.md §5.4a block A (run_2.log lines 281-294).
    expect(warnings(self.records)).toEqual([
      'Criteria verification 0/10 - diagnostic dump:',
      '  AC text: `tests/seam/` directory exists with `__init__.py`',
      '  AC text: `tests/seam/conftest.py` provides shared fixtures:',
      '  AC text: `graphiti_mock_client` — AsyncMock that records upsert calls (protocol-level mock, not function mock',
      '  AC text: `cli_runner` — Click CliRunner configured for seam testing',
      '  AC text: `tmp_task_dir` — Temporary task directory with proper structure',
      '  AC text: `minimal_spec_fixture` — Path to minimal architecture spec for system-plan tests',
      '  AC text: `pytest.ini` or `pyproject.toml` registers `@pytest.mark.seam` marker',
      '  AC text: `tests/seam/` tests are discovered and run by `pytest tests/seam/`',
      '  AC text: Existing tests in `tests/integration/test_system_plan_seams.py` and `tests/integration/test_planning',
      '  AC text: `tests/fixtures/minimal-spec.md` fixture file created for system-plan seam tests',
      '  requirements_met: []',
      '  completion_promises: (not used)',
      '  matching_strategy: text',
      '  _synthetic: False',
    ])
  })

  it('dumps unconditionally on the synthetic path without promises, even 0/0', () => {
    const self = coach('fixed')
    const r = ok(validateRequirements({acceptance_criteria: []}, {_synthetic: true}, 1, self))
    expect(r.validation).toEqual({criteria_total: 0, criteria_met: 0, all_criteria_met: false, missing: [], criteria_results: []})
    expect(self.records.map((x) => `${x.level}: ${x.message}`)).toEqual([
      'INFO: Synthetic report detected — using file-existence verification',
      'WARNING: Synthetic report has no completion_promises — all criteria marked unmet',
      'WARNING: Criteria verification 0/0 - diagnostic dump:',
      'WARNING:   completion_promises: (empty)',
      'WARNING:   requirements_met: (not used - synthetic path)',
      'WARNING:   matching_strategy: synthetic (no promises)',
      'WARNING:   _synthetic: True',
    ])
  })

  it('prints the list actually matched: fixed reads requirements_addressed', () => {
    const self = coach('fixed')
    ok(validateRequirements({acceptance_criteria: ['a criterion']}, {requirements_addressed: ['unrelated'], requirements_met: ['a criterion']}, 1, self))
    expect(warnings(self.records)).toContain("  requirements_met: ['unrelated']")
  })

  it('is not emitted before TASK-ACR (pre-acr)', () => {
    const self = coach('pre-acr')
    const r = ok(validateRequirements({acceptance_criteria: RK01_003}, {}, 1, self))
    expect(r.validation.criteria_met).toBe(0)
    expect(self.records).toEqual([])
    expect(r.explanation.dumped).toBe(false)
  })
})

describe('seed 004: promises lost across turns (docs/guardkit-logic.md §7.3, D26)', () => {
  const criteria = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']
  const promises = criteria.map((_, i) => ({criterion_id: `AC-00${i + 1}`, status: 'complete'}))
  const reports = {1: {completion_promises: promises}, 2: {files_modified: ['src/x.py']}}

  it('legacy as run (51222879): turn 3 falls to text matching, 0/6 with the dump the seed quotes', () => {
    const self = coach('as-run:51222879', {reports})
    const r = ok(validateRequirements({acceptance_criteria: criteria}, {task_id: 'TASK-X'}, 3, self))
    expect(r.validation.criteria_met).toBe(0)
    expect(warnings(self.records)).toContain('  requirements_met: []')
    expect(warnings(self.records)).toContain('  completion_promises: (not used)')
  })

  it('fixed recovers the turn-1 promises and verifies 6/6', () => {
    const self = coach('fixed', {reports})
    const r = ok(validateRequirements({acceptance_criteria: criteria}, {task_id: 'TASK-X'}, 3, self))
    expect(r.validation).toMatchObject({criteria_total: 6, criteria_met: 6, all_criteria_met: true})
    expect(self.records.map((x) => x.message)).toEqual(['No completion_promises in current turn — recovered from player_turn_1.json (6 promises)'])
    expect(r.explanation.promiseSource).toMatchObject({kind: 'prior-report', turn: 1})
    expect(r.explanation.criteria.every((c) => c.decidedBy === 'promise-complete')).toBe(true)
  })

  it('returns the AttributeError GuardKit raises out of validate() as a value', () => {
    const self = coach('fixed', {reports: {1: '["not", "a", "dict"]'}})
    const r = validateRequirements({acceptance_criteria: criteria}, {task_id: 'TASK-X'}, 2, self)
    expect(r).toEqual({ok: false, exception: "AttributeError: 'list' object has no attribute 'get'"})
  })
})

describe('strategies and the explainer side channel (docs/guardkit-logic.md §7.1, D24, D25)', () => {
  it('hybrid: upgrades only criteria with no promise, and says so', () => {
    const self = coach('fixed')
    const twr = {completion_promises: [{criterion_id: 'AC-001', status: 'complete'}, {criterion_id: 'AC-002', status: 'incomplete'}], requirements_addressed: ['Schema validated', 'Docs updated']}
    const r = ok(validateRequirements({acceptance_criteria: ['Config file exists', 'Schema validated', 'Docs updated']}, twr, 1, self))
    expect(r.validation.criteria_met).toBe(2)
    expect(r.explanation.strategy).toBe('hybrid')
    expect(r.explanation.criteria.map((c) => c.decidedBy)).toEqual(['promise-complete', 'promise-rejected', 'hybrid-text'])
    expect(r.explanation.criteria[2]!.text_match?.step).toBe('exact')
    expect(self.records.map((x) => x.message)).toEqual(['Hybrid fallback upgraded 1 criteria via text matching against requirements_addressed'])
  })

  it('legacy has no hybrid fallback: promises alone decide', () => {
    const self = coach('legacy')
    const twr = {completion_promises: [{criterion_id: 'AC-001', status: 'complete'}], requirements_addressed: ['Schema validated']}
    const r = ok(validateRequirements({acceptance_criteria: ['Config file exists', 'Schema validated']}, twr, 1, self))
    expect(r.validation.criteria_met).toBe(1)
    expect(r.explanation.strategy).toBe('promises')
    expect(r.explanation.criteria[1]!.promise).toEqual({promise: null, ids: ['AC-001']})
  })

  it('names the requirements source key the text strategy read', () => {
    const legacy = ok(validateRequirements({acceptance_criteria: ['x']}, {requirements_addressed: ['x']}, 1, coach('legacy')))
    expect(legacy.explanation.requirements).toEqual({source: null, value: []})
    const fixed = ok(validateRequirements({acceptance_criteria: ['x']}, {requirements_addressed: ['x']}, 1, coach('fixed')))
    expect(fixed.explanation.requirements).toEqual({source: 'requirements_addressed', value: ['x']})
    expect(fixed.validation.criteria_met).toBe(1)
  })

  it('records what the worktree could not tell (a report whose content was not recorded)', () => {
    const self = coach('fixed', {files: {'.guardkit/autobuild/TASK-X/player_turn_1.json': null}})
    const r = ok(validateRequirements({acceptance_criteria: ['x']}, {task_id: 'TASK-X'}, 1, self))
    expect(r.explanation.unknowns.length).toBeGreaterThan(0)
  })
})
