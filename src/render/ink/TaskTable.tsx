// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import type {TaskRowView} from './model.js'
import {layTaskTable} from './layout.js'

/** One row per task: phase, turn/max, criteria met/total (with a bar when there is room), elapsed vs the task timeout; it fits `width`. */
export function TaskTable({tasks, selected, width}: {readonly tasks: readonly TaskRowView[]; readonly selected: number; readonly width: number}) {
  const table = layTaskTable(tasks, width)
  return (
    <Box flexDirection="column">
      <Text bold>{table.header}</Text>
      {tasks.length === 0 ? <Text dimColor>  (no task has started yet)</Text> : null}
      {table.rows.map((row, i) => {
        const t = tasks[i]!
        const colour = t.ok === true ? 'green' : t.ok === false ? 'red' : undefined
        return (
          <Text key={row.key} inverse={i === selected} wrap="truncate-end">
            {i === selected ? '▸ ' : '  '}
            {row.label} <Text color={colour}>{row.phase}</Text> {row.turn} {row.criteria} {row.time} {t.warnings > 0 ? <Text color="yellow">{row.warn}</Text> : row.warn}
          </Text>
        )
      })}
    </Box>
  )
}
