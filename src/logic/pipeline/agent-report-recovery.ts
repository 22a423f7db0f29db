import type {LogicFlags} from '../changes.js'
import {LOGGERS, type LogSink} from '../log-sink.js'
import {isPyDict} from '../python/builtins.js'
import {pyTruthy} from '../python/strings.js'
import {dictGet, jsonDict, type JsonFileRead} from './json-input.js'
import type {PipelineTrace} from './trace.js'
import type {JsonRecord} from './types.js'

const STEP = '_create_player_report_from_task_work:agent-report'

/** TASK-FIX-PIPELINE-DATA-LOSS Fix 2 (D9), and what legacy loses without it. */
export function recoverAgentReport(report: JsonRecord, agentRead: JsonFileRead, taskId: string, flags: LogicFlags, sink: LogSink, trace: PipelineTrace): void {
  if (agentRead.kind === 'absent') return
  const agent = jsonDict(agentRead)
  const agentPromises = agent ? dictGet(agent, 'completion_promises', []) : []
  // recoverAgentPromises (D9)
  if (!flags.recoverAgentPromises || pyTruthy(report.completion_promises)) {
    const lost = ['completion_promises', 'requirements_addressed', 'requirements_remaining'].filter((k) => agent && pyTruthy(agent[k]))
    for (const field of lost) {
      trace.push({step: STEP, kind: 'overwritten', field, values: listOf(agent![field]), flag: flags.recoverAgentPromises ? undefined : 'recoverAgentPromises',
        message: flags.recoverAgentPromises
          ? `the agent's ${field} were not recovered because task_work_results.json already supplied completion_promises`
          : `the agent wrote ${field} in player_turn_N.json; the invoker overwrote that file without them`})
    }
    return
  }
  if (!agent) {
    trace.push({step: STEP, kind: 'skipped', field: 'completion_promises', message: 'the agent-written player report is not a JSON object, so nothing was recovered'})
    return
  }
  if (pyTruthy(agentPromises)) {
    report.completion_promises = agentPromises
    sink.emit('INFO', LOGGERS.invoker, `Recovered ${lengthOf(agentPromises)} completion_promises from agent-written player report for ${taskId}`)
    trace.push({step: STEP, kind: 'recovered', field: 'completion_promises', values: listOf(agentPromises), flag: 'recoverAgentPromises', message: "the agent's completion_promises were kept"})
  }
  if (!pyTruthy(report.requirements_addressed)) {
    const reqs = dictGet(agent, 'requirements_addressed', [])
    if (pyTruthy(reqs)) {
      report.requirements_addressed = reqs
      sink.emit('INFO', LOGGERS.invoker, `Recovered ${lengthOf(reqs)} requirements_addressed from agent-written player report for ${taskId}`)
      trace.push({step: STEP, kind: 'recovered', field: 'requirements_addressed', values: listOf(reqs), flag: 'recoverAgentPromises', message: "the agent's requirements_addressed were kept"})
    }
  }
  if (!pyTruthy(report.requirements_remaining)) {
    const remaining = dictGet(agent, 'requirements_remaining', [])
    if (pyTruthy(remaining)) report.requirements_remaining = remaining
  }
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value]
}

function lengthOf(value: unknown): number {
  return Array.isArray(value) ? value.length : isPyDict(value) ? Object.keys(value).length : typeof value === 'string' ? Array.from(value).length : 0
}
