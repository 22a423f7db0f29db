// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import type {ExplainView} from './model.js'
import {cut} from './format.js'

const FINDINGS = 8

/** `e`: the explanation of the selected task so far, as `analyze` would give it now. */
export function ExplainPane({taskId, explain, width}: {readonly taskId: string; readonly explain: ExplainView | undefined; readonly width: number}) {
  if (explain === undefined) return <Text dimColor>{`no explanation for ${taskId} yet`}</Text>
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>{`Explanation so far: ${taskId}`}</Text>
      <Text>{cut(`What happened: ${explain.happened}`, width - 4)}</Text>
      <Text>{cut(`Why: ${explain.why}`, width - 4)}</Text>
      {explain.findings.slice(0, FINDINGS).map((f, i) => (
        <Text key={`${f.code}-${i}`}>{cut(`• ${f.code}${f.turns.length > 0 ? ` (turns ${f.turns.join(', ')})` : ''}: ${f.message}`, width - 4)}</Text>
      ))}
      {explain.findings.length > FINDINGS ? <Text dimColor>{`… ${explain.findings.length - FINDINGS} more`}</Text> : null}
      {explain.doNow.slice(0, 2).map((d, i) => (
        <Text key={`do-${i}`} color="cyan">{cut(`→ ${d}`, width - 4)}</Text>
      ))}
    </Box>
  )
}
