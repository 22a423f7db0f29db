// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {Box, Text} from 'ink'
import {truncate, wrap} from '../text/layout.js'
import {neutraliseDashboard, type DashboardModel} from './model.js'
import {ExplainPane} from './ExplainPane.js'
import {StallWindow} from './StallWindow.js'
import {TaskTable} from './TaskTable.js'
import {WarningsPane} from './WarningsPane.js'
import {duration} from './format.js'

export interface DashboardViewProps {
  readonly model: DashboardModel
  readonly selected: number
  readonly showExplain: boolean
  readonly confirming: boolean
  /** Columns to fit (the terminal's, less one: a full last column makes some terminals wrap). */
  readonly width?: number
  /** Rows of the terminal: the explanation scrolls within what the rest leaves. */
  readonly height?: number
  /** First line of the explanation shown (`j`/`k`). */
  readonly explainOffset?: number
}

const WARNINGS = 5
const LOG_TAIL = 3

/** The whole dashboard for one snapshot: presentational only (the store computes, Dashboard handles keys). */
export function DashboardView({model: given, selected, showExplain, confirming, width = 100, height, explainOffset = 0}: DashboardViewProps) {
  // the build's text goes straight to the terminal: neutralised here, where every frame is drawn
  const model = neutraliseDashboard(given)
  const task = model.tasks[Math.min(selected, Math.max(0, model.tasks.length - 1))]
  const status = model.exit ? model.exit.detail : model.status
  const notices = model.notices.slice(-2)
  const tail = model.logTail.slice(-LOG_TAIL)
  const title = `guardkit-replay live ${model.title}`
  const statusLine = `${status} · ${duration(model.elapsedSeconds)} · recording ${model.recordDir} · worktree ${model.worktree ?? '(looking for it in the output)'}`
  // what the rest of the screen takes, wrapped lines counted: title and status, the table, the pane's
  // border and title, the warnings, notices, log tail, the keys, and the blank lines between them
  const lines = (text: string, indent = 0) => wrap(text, width - indent).length
  const warningLines = model.warnings.slice(-WARNINGS).reduce((n, w) => n + lines(`⚠ ${w.code} ${w.taskId} turn ${w.turn ?? '?'}: ${w.message}`, 2), 0)
  const reserved = lines(title) + lines(statusLine) + 1 + (1 + Math.max(1, model.tasks.length)) + 1 + 4 + 1 + (1 + Math.max(1, warningLines)) + (notices.length > 0 ? notices.reduce((n, x) => n + lines(x), 1) : 0) + 1 + tail.length + 1 + 2
  const explainHeight = height === undefined ? Number.MAX_SAFE_INTEGER : Math.max(3, height - reserved)
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="wrap">
        <Text bold color="cyan">guardkit-replay live</Text>
        {` ${model.title}`}
      </Text>
      <Text dimColor wrap="wrap">{statusLine}</Text>
      <Box marginTop={1}>
        <TaskTable tasks={model.tasks} selected={task === undefined ? -1 : model.tasks.indexOf(task)} width={width} />
      </Box>
      {task === undefined ? null : (
        <Box marginTop={1} flexDirection="column">
          {showExplain ? <ExplainPane taskId={task.taskId} explain={model.explain[task.key]} width={width} height={explainHeight} offset={explainOffset} /> : <StallWindow taskId={task.taskId} stall={model.stall[task.key]} profile={model.runningProfile} width={width} />}
        </Box>
      )}
      <Box marginTop={1}>
        <WarningsPane warnings={model.warnings} width={width} />
      </Box>
      {notices.length > 0 ? (
        <Box marginTop={1} flexDirection="column">
          {notices.map((n, i) => (
            <Text key={i} color="yellow" wrap="wrap">{n}</Text>
          ))}
        </Box>
      ) : null}
      <Box marginTop={1} flexDirection="column">
        {tail.map((l, i) => (
          // the build's own output: a live tail, one line each
          <Text key={i} dimColor wrap="truncate-end">{truncate(l, width)}</Text>
        ))}
      </Box>
      <Box marginTop={1}>
        {confirming ? (
          <Text color="yellow" bold wrap="wrap">Stop the build? It gets SIGINT and time to save its state. (y/n)</Text>
        ) : (
          <Text dimColor wrap="wrap">{model.status === 'finished' ? 'finished' : `↑/↓ select · e ${showExplain ? 'stall window · j/k scroll' : 'explanation so far'} · q ${model.mode === 'spawn' ? 'stop the build' : 'stop following'}`}</Text>
        )}
      </Box>
    </Box>
  )
}
