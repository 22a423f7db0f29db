// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import type {StallView} from './model.js'
import {cut, pad} from './format.js'

const ROWS = 6

function firesIn(remaining: number | null, firedAt: number | null): string {
  if (firedAt !== null) return `fired at turn ${firedAt}`
  if (remaining === null) return 'no feedback yet'
  return `fires after ${remaining} more identical turn${remaining === 1 ? '' : 's'}`
}

/** The selected task's stall window: raw and normalised signatures per turn, and how far each detector is from firing. */
export function StallWindow({taskId, stall, profile}: {readonly taskId: string; readonly stall: StallView | undefined; readonly profile: string}) {
  if (stall === undefined) return <Text dimColor>{`stall window of ${taskId}: not replayed yet`}</Text>
  const rows = stall.rows.slice(-ROWS)
  return (
    <Box flexDirection="column">
      <Text bold>{`Stall window of ${taskId} (threshold ${stall.threshold})`}</Text>
      <Text>
        {`  running logic (${profile}): `}
        <Text color={stall.remainingRunning === 1 ? 'yellow' : undefined}>{firesIn(stall.remainingRunning, stall.firedRunning)}</Text>
        {'   fixed: '}
        <Text color={stall.remainingFixed === 1 ? 'yellow' : undefined}>{stall.endedFixed === null ? firesIn(stall.remainingFixed, stall.firedFixed) : `would have ended ${stall.endedFixed}`}</Text>
      </Text>
      <Text dimColor>{`  ${pad('turn', 5)} ${pad('raw', 9)} ${pad('normalised', 11)} ${pad('running', 12)} ${pad('fixed', 12)} feedback`}</Text>
      {rows.map((r) => (
        <Text key={r.turn}>
          {`  ${pad(String(r.turn), 5)} ${pad(r.raw ?? '–', 9)} ${pad(r.normalised ?? '–', 11)} ${pad(r.running?.signature ? `${r.running.signature}×${r.running.count ?? '?'}` : '–', 12)} ${pad(r.fixed?.signature ? `${r.fixed.signature}×${r.fixed.count ?? '?'}` : '–', 12)} ${cut(r.feedback ?? '', 40)}`}
        </Text>
      ))}
    </Box>
  )
}
