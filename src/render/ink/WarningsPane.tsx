// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import type {WarningView} from './model.js'

const SHOWN = 5

/** The latest early warnings, newest last, each with its finding code; a long message wraps under it. */
export function WarningsPane({warnings, width}: {readonly warnings: readonly WarningView[]; readonly width: number}) {
  const shown = warnings.slice(-SHOWN)
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{`Warnings (${warnings.length})`}</Text>
      {shown.length === 0 ? <Text dimColor>  none so far</Text> : null}
      {shown.map((w) => (
        <Box key={w.id} paddingLeft={2}>
          <Text wrap="wrap">
            <Text color={w.severity === 'critical' || w.severity === 'high' ? 'red' : 'yellow'}>{'⚠ '}{w.code}</Text>
            {` ${w.taskId} turn ${w.turn ?? '?'}: ${w.message}`}
          </Text>
        </Box>
      ))}
    </Box>
  )
}
