// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {render} from 'ink'
import {Dashboard} from './Dashboard.js'
import type {DashboardActions, DashboardSource} from './model.js'

export interface DashboardOptions {
  readonly source: DashboardSource
  readonly actions: DashboardActions
  readonly confirmQuit: boolean
  readonly stdout?: NodeJS.WriteStream
  readonly stdin?: NodeJS.ReadStream
  /** Called after each frame ink draws (the benchmark counts them). */
  readonly onRender?: (metrics: {renderTime: number}) => void
}

/** Mounts the dashboard (imported only on a terminal: ink costs ~300 ms to load). Redraws at most 10 times a second. */
export function renderDashboard(options: DashboardOptions) {
  return render(<Dashboard source={options.source} actions={options.actions} confirmQuit={options.confirmQuit} />, {
    stdout: options.stdout,
    stdin: options.stdin,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 10,
    onRender: options.onRender,
  })
}
