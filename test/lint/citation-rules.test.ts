import {describe, expect, it} from 'vitest'
import {lintPlanted} from './lint-planted.js'

/**
 * The lint keeps comments to what a clone holds (docs/contributing.md): a comment that cites an issue, a brief,
 * a document outside the repository or a section of a seed post-mortem fails `npm run lint`
 * (lint-rules/no-outside-citations.js). A seed named as an incident (docs/fixtures.md maps each to its fixture) passes.
 */
const RULE = 'local/no-outside-citations'

describe('the lint rejects comments that cite what a clone does not hold (docs/contributing.md)', () => {
  it.each([
    {name: 'an issue by its title', path: 'src/replay/planted.ts', comment: '/** Fold the model over the turns (issue "Replay"). */'},
    {name: 'an issue quoted after a colon', path: 'src/explain/planted.ts', comment: '/** The feature picture (issue: "waves, which timeout cancelled which task"). */'},
    {name: 'an issue quoted after a comma', path: 'src/explain/planted.ts', comment: '// A 0/N verdict explained (issue, "0/N")'},
    {name: 'an issue title opening a sentence', path: 'test/corpus/planted.test.ts', comment: '/**\n * Issue "Era": every corpus log is placed in an era.\n */'},
    {name: 'an issue title on the next line', path: 'src/replay/planted.ts', comment: '/**\n * What the model can be given, and what is missing (issue\n * "The main job" step 2).\n */'},
    {name: 'an issue in a test\'s line comment', path: 'test/unit/shared/planted.props.test.ts', comment: '  // issue "Property tests": no secret is left'},
    {name: 'an issue by number', path: 'src/ingest/planted.ts', comment: '// done for issue 16'},
    {name: 'an issue by #number', path: 'src/services/planted.ts', comment: '// see Issue #12'},
    {name: 'a bare (issue)', path: 'bench/planted.bench.ts', comment: '// Seed: none (issue).'},
    {name: 'the brief', path: 'src/logic/planted.ts', comment: '// (the brief: a pure function of the record)'},
    {name: 'a section of the shared spec', path: 'src/logic/planted.ts', comment: '// see spec §7.2 for the dump'},
    {name: 'FORMATS.md', path: 'src/ingest/planted.ts', comment: '/** FORMATS.md §5.2 */'},
    {name: 'contract.md', path: 'scripts/planted.ts', comment: '// key order follows contract.md'},
    {name: 'the contract with a quoted key', path: 'test/corpus/planted.test.ts', comment: '// see (contract "fidelity")'},
    {name: 'the contract after a colon', path: 'src/render/json/planted.ts', comment: '/** One outcome (contract: `{assume, outcome}`). */'},
    {name: 'an issue in single quotes', path: 'src/replay/planted.ts', comment: "// fold the turns (issue 'Replay')"},
    {name: 'see issue', path: 'src/replay/planted.ts', comment: '// (see issue: Replay)'},
    {name: 'a finding of a seed', path: 'src/explain/planted.ts', comment: '/** A Coach test run that fails faster than this did not execute tests (seed 002 F1: 0.7–3.1 s). */'},
    {name: 'a numbered section of a seed', path: 'src/logic/planted.ts', comment: '  // acrFuzzyText (pre-acr vs legacy, seed 003 §2): exact matches only'},
    {name: 'a recommendation of a seed', path: 'src/logic/planted.ts', comment: '// a change that only prepares another one (seed 001 R1 without R2)'},
    {name: 'an appendix of a seed', path: 'test/unit/planted.test.ts', comment: '// the signatures of seed 002 App. B'},
    {name: 'an appendix of a seed, spelt out', path: 'test/unit/planted.test.ts', comment: '/** Seed 002 Appendix B: turn 1 a test failure, turn 2 the coverage gate. */'},
    {name: 'a fix of a seed', path: 'src/explain/planted.ts', comment: '// takes over the agent\'s promises (seed 000 Fix 2)'},
    {name: 'a seed section in parentheses', path: 'test/unit/planted.test.ts', comment: '// docs/guardkit-logic.md §8.4; seeds 002 (F4) and 004'},
    {name: 'a seed section on the next line', path: 'src/logic/planted.ts', comment: '/**\n * the absolute and relative forms both reach pytest (seed\n * 002 F2).\n */'},
  ])('rejects $name', async ({path, comment}) => {
    const rules = await lintPlanted(path, `${comment}\nexport const x = 1\n`)
    expect(rules.map((r) => r.rule)).toContain(RULE)
  })

  it('points at the line of the comment that holds the citation', async () => {
    const rules = await lintPlanted('src/replay/planted.ts', '/**\n * One task run replayed.\n *\n * Issue "Replay", done-when: every verdict.\n */\nexport const x = 1\n')
    expect(rules).toEqual([{rule: RULE, line: 4}])
  })

  it('leaves the word in prose, citations of the repository\'s own pages, a seed named as an incident, and code alone', async () => {
    const fine = [
      '// the issues keep that order (src/ingest/fs/read-ahead.ts)',
      '/** Streams one log into the ingest; a read error keeps what was read and becomes an ingest issue. */',
      '// an issue per file, and one summary issue past the limit',
      '/** The issue for a file that could not be read (the issue carries the file). */',
      '// `_extract_feedback` of a missing-requirement issue: `- desc:` (docs/guardkit-logic.md §8.3)',
      '// the Coach\'s issues (`/issues/0`), issues[0], and {"issues": [{"description": "x"}]}',
      '/** docs/record-formats.md §5.1.3: the records GuardKit leaves */',
      '// A brief form only reads well when one input is in question; `brief` follows a branch that already did.',
      '/** Exit codes of the contract (docs/cli.md): the same with and without --json. */',
      '// (issues keep that order)',
      '// seed 002: the db-003 incident (fixtures/runs/db-003-timeout, docs/fixtures.md)',
      '/** The seed incidents of fixtures/runs (docs/fixtures.md): what fixed does better than legacy. */',
      "// seed 000/001/004's lost promises → ZERO_OF_N_TEXT_MATCH_EMPTY; seed 004 (AE7E) ran at 51222879",
      '// the landing audit rows (docs/guardkit-logic.md §2 S002 R3, §2 S000 Fix 5)',
    ].join('\n')
    const code = `${fine}\nexport const issue = {title: 'issue "Replay"', see: 'the brief', spec: 'spec §7.2', cause: 'seed 002 R2'}\n`
    expect(await lintPlanted('src/ingest/planted.ts', code)).toEqual([])
  })
})
