import {describe, expect, it} from 'vitest'
import {parseSignalRules} from '../../../../src/explain/diagnosis/catalogue/parse-rules.js'

const rule = (extra = '') => `version: 1
rules:
  - id: site.proxy-down
    category: model-api
    stage: model-call
    match:
      pattern: 'proxy \\d+ unreachable'
    summary: 'the company proxy was down'
    means: 'The proxy in front of the model API did not answer.'
    action: 'Call the network team.'
    examples:
      - 'ERROR:guardkit.orchestrator.agent_invoker:[TASK-X-1] proxy 7 unreachable'
${extra}`

describe('a signal-rule file (--signals FILE, docs/signals.md)', () => {
  it('reads a rule with its defaults and where it was read', () => {
    const {rules, issues} = parseSignalRules(rule(), 'mine.yaml')
    expect(issues).toEqual([])
    expect(rules).toEqual([expect.objectContaining({id: 'site.proxy-down', category: 'model-api', stage: 'model-call', role: 'cause', origin: {file: 'mine.yaml', line: 3, exampleLines: [12]}})])
  })

  it('reads a guardkit condition of logic changes, and refuses a change that does not exist or an empty one', () => {
    const cond = (g: string) => rule().replace("    match:\n", `    guardkit: ${g}\n    match:\n`)
    expect(parseSignalRules(cond('{has: [recoverAgentPromises]}'), 'mine.yaml').rules[0]?.guardkit).toEqual({has: ['recoverAgentPromises']})
    expect(parseSignalRules(cond('{lacks: [stallNormalize]}'), 'mine.yaml').rules[0]?.guardkit).toEqual({lacks: ['stallNormalize']})
    expect(parseSignalRules(cond('{undecided: [stallNormalize]}'), 'mine.yaml').rules[0]?.guardkit).toEqual({undecided: ['stallNormalize']})
    const unknown = parseSignalRules(cond('{has: [recoverPromisesPlease]}'), 'mine.yaml')
    expect(unknown.rules).toEqual([])
    expect(unknown.issues[0]).toMatchObject({file: 'mine.yaml', line: 6, message: expect.stringMatching(/^rule site\.proxy-down: \/guardkit\/has\/0 /)})
    expect(parseSignalRules(cond('{}'), 'mine.yaml').issues[0]?.message).toMatch(/names logic changes in has, lacks or undecided/)
  })

  it('refuses reachesLimit without onlyAfter or without a group to compare, with the rule\'s line', () => {
    const text = `${rule()}  - id: site.limit
    category: agent-budget
    stage: player-agent
    reachesLimit: true
    match: {pattern: 'used \\d+ turns'}
    summary: s
    means: m
    action: a
    examples: ['INFO:x:used 5 turns']
`
    const {rules, issues} = parseSignalRules(text, 'mine.yaml')
    expect(rules.map((r) => r.id)).toEqual(['site.proxy-down'])
    expect(issues).toEqual([{file: 'mine.yaml', line: 13, message: 'rule site.limit: reachesLimit needs onlyAfter and a capturing group in match.pattern (the number compared)'}])
  })

  it('reads notWith as rule ids or finding codes, and refuses anything else there', () => {
    expect(parseSignalRules(rule('    notWith: [site.other-rule, ZERO_TEST_ANOMALY]\n'), 'mine.yaml').rules[0]?.notWith).toEqual(['site.other-rule', 'ZERO_TEST_ANOMALY'])
    const {rules, issues} = parseSignalRules(rule('    notWith: [NO_SUCH_FINDING]\n'), 'mine.yaml')
    expect(rules).toEqual([])
    expect(issues).toEqual([{file: 'mine.yaml', line: 13, message: 'rule site.proxy-down: /notWith/0 rule ids or finding codes'}])
  })

  it('says which file and line hold what is wrong, and keeps the good rules', () => {
    const text = `${rule()}  - id: site.bad
    category: not-a-category
    stage: model-call
    match: {pattern: 'x'}
    summary: s
    means: m
    action: a
    examples: ['x']
`
    const {rules, issues} = parseSignalRules(text, 'mine.yaml')
    expect(rules.map((r) => r.id)).toEqual(['site.proxy-down'])
    expect(issues).toEqual([{file: 'mine.yaml', line: 14, message: expect.stringMatching(/^rule site\.bad: \/category /)}])
  })

  it('rejects a pattern that is not a regular expression, at the pattern\'s line', () => {
    const {issues} = parseSignalRules(rule().replace('proxy \\d+ unreachable', 'proxy (unclosed'), 'mine.yaml')
    expect(issues).toEqual([{file: 'mine.yaml', line: 7, message: expect.stringMatching(/match\.pattern is not a valid regular expression/)}])
  })

  it('rejects an id used twice, naming the first', () => {
    const text = rule() + rule().split('rules:\n')[1]
    const {issues} = parseSignalRules(text, 'mine.yaml')
    expect(issues).toEqual([{file: 'mine.yaml', line: 13, message: 'rule site.proxy-down: the id is used twice (first on line 3)'}])
  })

  it('needs an example for every rule', () => {
    const {issues} = parseSignalRules(rule().replace(/ {4}examples:\n.*\n/, ''), 'mine.yaml')
    expect(issues[0]).toMatchObject({file: 'mine.yaml', message: expect.stringMatching(/examples/)})
  })

  it('reports YAML that does not parse with its line, and a file without version or rules', () => {
    // the parser notices the unclosed flow sequence where the document ends
    expect(parseSignalRules('version: 1\nrules:\n  - id: [unclosed\n', 'mine.yaml').issues[0]).toMatchObject({file: 'mine.yaml', line: 4, message: expect.stringMatching(/^not valid YAML/)})
    expect(parseSignalRules('rules: []\n', 'mine.yaml').issues[0]).toMatchObject({file: 'mine.yaml', line: 1, message: expect.stringMatching(/version/)})
  })
})
