// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import type {DashboardModel} from './model.js'
import {ExplainPane} from './ExplainPane.js'
import {StallWindow} from './StallWindow.js'
import {TaskTable} from './TaskTable.js'
import {WarningsPane} from './WarningsPane.js'
import {cut, duration} from './format.js'

export interface DashboardViewProps {
  readonly model: DashboardModel
  readonly selected: number
  readonly showExplain: boolean
  readonly confirming: boolean
  readonly width?: number
}

/** The whole dashboard for one snapshot: presentational only (the store computes, Dashboard handles keys). */
export function DashboardView({model, selected, showExplain, confirming, width = 100}: DashboardViewProps) {
  const task = model.tasks[Math.min(selected, Math.max(0, model.tasks.length - 1))]
  const status = model.exit ? model.exit.detail : model.status
  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text bold color="cyan">guardkit-replay live</Text>
        {` ${cut(model.title, Math.max(10, width - 40))}`}
      </Text>
      <Text dimColor>{cut(`${status} · ${duration(model.elapsedSeconds)} · recording ${model.recordDir} · worktree ${model.worktree ?? '(looking for it in the output)'}`, width)}</Text>
      <Box marginTop={1}>
        <TaskTable tasks={model.tasks} selected={task === undefined ? -1 : model.tasks.indexOf(task)} />
      </Box>
      {task === undefined ? null : (
        <Box marginTop={1} flexDirection="column">
          {showExplain ? <ExplainPane taskId={task.taskId} explain={model.explain[task.key]} width={width} /> : <StallWindow taskId={task.taskId} stall={model.stall[task.key]} profile={model.runningProfile} />}
        </Box>
      )}
      <Box marginTop={1}>
        <WarningsPane warnings={model.warnings} width={width} />
      </Box>
      {model.notices.length > 0 ? (
        <Box marginTop={1} flexDirection="column">
          {model.notices.slice(-2).map((n, i) => (
            <Text key={i} color="yellow">{cut(n, width)}</Text>
          ))}
        </Box>
      ) : null}
      <Box marginTop={1} flexDirection="column">
        {model.logTail.slice(-3).map((l, i) => (
          <Text key={i} dimColor wrap="truncate-end">{cut(l, width)}</Text>
        ))}
      </Box>
      <Box marginTop={1}>
        {confirming ? (
          <Text color="yellow" bold>Stop the build? It gets SIGINT and time to save its state. (y/n)</Text>
        ) : (
          <Text dimColor>{model.status === 'finished' ? 'finished' : `↑/↓ select · e ${showExplain ? 'stall window' : 'explanation so far'} · q ${model.mode === 'spawn' ? 'stop the build' : 'stop following'}`}</Text>
        )}
      </Box>
    </Box>
  )
}
