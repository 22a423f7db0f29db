// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import type {TaskRowView} from './model.js'
import {bar, duration, pad} from './format.js'

/** One row per task: phase, turn/max, criteria met/total with a bar, elapsed vs the task timeout. */
export function TaskTable({tasks, selected}: {readonly tasks: readonly TaskRowView[]; readonly selected: number}) {
  return (
    <Box flexDirection="column">
      <Text bold>{`  ${pad('task', 22)} ${pad('phase', 20)} ${pad('turn', 7)} ${pad('criteria', 18)} ${pad('elapsed/timeout', 16)} warn`}</Text>
      {tasks.length === 0 ? <Text dimColor>  (no task has started yet)</Text> : null}
      {tasks.map((t, i) => {
        const turn = t.turn === null ? '–' : `${t.turn}/${t.maxTurns ?? '?'}`
        const criteria = t.criteriaMet === null ? pad('–', 18) : `${bar(t.criteriaMet, t.criteriaTotal, 8)} ${pad(`${t.criteriaMet}/${t.criteriaTotal ?? '?'}`, 9)}`
        const time = `${duration(t.elapsedSeconds)}/${t.timeoutSeconds === null ? '–' : duration(t.timeoutSeconds)}`
        const label = `${t.taskId}${t.attempt > 1 ? ` #${t.attempt}` : ''}`
        const colour = t.ok === true ? 'green' : t.ok === false ? 'red' : undefined
        return (
          <Text key={t.key} inverse={i === selected}>
            {i === selected ? '▸ ' : '  '}
            {pad(label, 22)} <Text color={colour}>{pad(t.phase, 20)}</Text> {pad(turn, 7)} {criteria} {pad(time, 16)} {t.warnings > 0 ? <Text color="yellow">{`⚠ ${t.warnings}`}</Text> : ' '}
          </Text>
        )
      })}
    </Box>
  )
}
