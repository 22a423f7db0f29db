// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import type {WarningView} from './model.js'
import {cut} from './format.js'

const SHOWN = 5

/** The latest early warnings, newest last, each with its finding code. */
export function WarningsPane({warnings, width}: {readonly warnings: readonly WarningView[]; readonly width: number}) {
  const shown = warnings.slice(-SHOWN)
  return (
    <Box flexDirection="column">
      <Text bold>{`Warnings (${warnings.length})`}</Text>
      {shown.length === 0 ? <Text dimColor>  none so far</Text> : null}
      {shown.map((w) => (
        <Text key={w.id} wrap="truncate-end">
          <Text color={w.severity === 'critical' || w.severity === 'high' ? 'red' : 'yellow'}>{'  ⚠ '}{w.code}</Text>
          {` ${w.taskId} turn ${w.turn ?? '?'}: ${cut(w.message, Math.max(20, width - w.code.length - w.taskId.length - 16))}`}
        </Text>
      ))}
    </Box>
  )
}
