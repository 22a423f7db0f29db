import {describe, expect, it} from 'vitest'
import {orderCauseChain} from '../../../../src/render/text/cause-chain.js'
import {aFinding} from '../analysis-builders.js'

const shape = (findings: Parameters<typeof orderCauseChain>[0]) => orderCauseChain(findings).map((e) => [e.finding.id, e.depth, e.number, e.alsoFollows])

describe('orderCauseChain', () => {
  it('puts each effect under its cause, depth first', () => {
    const chain = shape([
      aFinding('f1', 'STALL_DEFEATED_BY_VARIABLE_OUTPUT', {severity: 'high', causes: ['f2']}),
      aFinding('f2', 'INFRA_TEST_FAILURE', {severity: 'high'}),
      aFinding('f3', 'ENDED_BY_TIMEOUT_NOT_STALL', {severity: 'medium', causes: ['f1']}),
    ])
    expect(chain).toEqual([
      ['f2', 0, 1, []],
      ['f1', 1, 2, []],
      ['f3', 2, 3, []],
    ])
  })

  it('orders roots by the most severe finding in their tree, and siblings by severity', () => {
    const chain = shape([
      aFinding('f1', 'SPURIOUS_FILE_ENTRIES', {severity: 'medium'}),
      aFinding('f2', 'GRAPHITI_CONNECTION_DEGRADED', {severity: 'low'}),
      aFinding('f3', 'ORCHESTRATION_CRASH', {severity: 'critical', causes: ['f2']}),
      aFinding('f4', 'ZERO_TEST_ANOMALY', {severity: 'info', causes: ['f1']}),
      aFinding('f5', 'PLAYER_TIMEOUT', {severity: 'high', causes: ['f1']}),
    ])
    expect(chain.map((c) => c[0])).toEqual(['f2', 'f3', 'f1', 'f5', 'f4'])
  })

  it('draws a finding with two causes under the first and names the other', () => {
    const chain = shape([
      aFinding('f1', 'INFRA_TEST_FAILURE', {severity: 'high'}),
      aFinding('f2', 'GATES_SHORT_CIRCUIT', {severity: 'medium'}),
      aFinding('f3', 'STALL_WINDOW_BROKEN', {severity: 'low', causes: ['f1', 'f2']}),
    ])
    expect(chain).toEqual([
      ['f1', 0, 1, []],
      ['f3', 1, 2, [3]],
      ['f2', 0, 3, []],
    ])
  })

  it('shows every finding once even with a cycle or a cause outside the task', () => {
    const chain = shape([
      aFinding('f1', 'STALL_FIRED', {severity: 'medium', causes: ['f2']}),
      aFinding('f2', 'STALL_ON_CORRECT_WORK', {severity: 'high', causes: ['f1']}),
      aFinding('f3', 'PLAYER_TIMEOUT', {severity: 'low', causes: ['f99']}),
    ])
    expect(chain.map((c) => c[0]).sort()).toEqual(['f1', 'f2', 'f3'])
    expect(chain[0]).toEqual(['f3', 0, 1, []])
    // the cycle starts at its most severe member and names the cause it cannot be drawn under
    expect(chain[1]).toEqual(['f2', 0, 2, [3]])
    expect(chain[2]).toEqual(['f1', 1, 3, []])
  })
})
