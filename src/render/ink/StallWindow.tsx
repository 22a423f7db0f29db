// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import type {StallView} from './model.js'
import {layStallRows} from './layout.js'

const ROWS = 6

function firesIn(remaining: number | null, firedAt: number | null): string {
  if (firedAt !== null) return `fired at turn ${firedAt}`
  if (remaining === null) return 'no feedback yet'
  return `fires after ${remaining} more identical turn${remaining === 1 ? '' : 's'}`
}

/** Where the fixed logic's detector stands: undetermined (each branch), ended otherwise, or fired / firing in N turns. */
function fixedState(stall: StallView): string {
  if (stall.fixedBranches !== null) return `undetermined: ${stall.fixedBranches}`
  if (stall.endedFixed !== null) return `would have ended ${stall.endedFixed}`
  return firesIn(stall.remainingFixed, stall.firedFixed)
}

/** The selected task's stall window: raw and normalised signatures per turn, and how far each detector is from firing. */
export function StallWindow({taskId, stall, profile, width}: {readonly taskId: string; readonly stall: StallView | undefined; readonly profile: string; readonly width: number}) {
  if (stall === undefined) return <Text dimColor>{`stall window of ${taskId}: not replayed yet`}</Text>
  const [header, ...rows] = layStallRows(stall, width, ROWS)
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{`Stall window of ${taskId} (threshold ${stall.threshold})`}</Text>
      <Text wrap="wrap">
        {`  running logic (${profile}): `}
        <Text color={stall.remainingRunning === 1 ? 'yellow' : undefined}>{firesIn(stall.remainingRunning, stall.firedRunning)}</Text>
        {'   fixed: '}
        <Text color={stall.remainingFixed === 1 ? 'yellow' : undefined}>{fixedState(stall)}</Text>
      </Text>
      <Text dimColor>{header}</Text>
      {rows.map((r, i) => (
        <Text key={i}>{r}</Text>
      ))}
    </Box>
  )
}
