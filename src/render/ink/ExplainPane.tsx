// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import type {ExplainView} from './model.js'
import {layExplanation, scrollWindow} from './layout.js'

/**
 * `e`: the explanation of the selected task so far, as `analyze` would give it now, wrapped to the
 * pane and scrolled (`j`/`k`) when it is taller than the room left on the screen.
 */
export function ExplainPane({taskId, explain, width, height, offset}: {readonly taskId: string; readonly explain: ExplainView | undefined; readonly width: number; readonly height: number; readonly offset: number}) {
  if (explain === undefined) return <Text dimColor>{`no explanation for ${taskId} yet`}</Text>
  const lines = layExplanation(explain, width)
  const view = scrollWindow(lines, height, offset)
  const more = view.above + view.below > 0
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={width}>
      <Text bold wrap="truncate-end">{`Explanation so far: ${taskId}`}</Text>
      {more ? <Text dimColor>{`lines ${view.offset + 1}–${view.offset + view.shown.length} of ${lines.length} (j/k scroll)`}</Text> : null}
      {view.shown.map((l, i) => (
        <Text key={i} color={l.kind === 'do' ? 'cyan' : undefined}>{l.line}</Text>
      ))}
    </Box>
  )
}
