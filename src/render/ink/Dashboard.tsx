// Automatic JSX runtime whatever tsconfig the loader finds (tsx reads it from the working directory).
/* @jsxRuntime automatic */
import {useInput, useStdin, useStdout} from 'ink'
import {useRef, useState, useSyncExternalStore} from 'react'
import {DashboardView} from './DashboardView.js'
import type {DashboardActions, DashboardSource} from './model.js'

export interface DashboardProps {
  readonly source: DashboardSource
  readonly actions: DashboardActions
  /** Ask before stopping a build live started (attach mode just stops following). */
  readonly confirmQuit: boolean
}

/**
 * The live dashboard: subscribes to the store's snapshots (already throttled) and handles keys —
 * ↑/↓ select a task, `e` the explanation so far, `q` quit (confirmed for a spawned build), Ctrl-C
 * as the terminal's interrupt. Keys are read only when stdin can be put in raw mode.
 */
export function Dashboard({source, actions, confirmQuit}: DashboardProps) {
  const model = useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot)
  // until the user picks one, the selection follows the first task still running
  const [picked, setPicked] = useState<string | null>(null)
  const [showExplain, setShowExplain] = useState(false)
  const [explainOffset, setExplainOffset] = useState(0)
  const [confirming, setConfirmingState] = useState(false)
  // keys can arrive before React has re-rendered with the new state: the handler reads the ref
  const confirmingRef = useRef(false)
  const setConfirming = (value: boolean) => {
    confirmingRef.current = value
    setConfirmingState(value)
  }
  const {isRawModeSupported} = useStdin()
  const {stdout} = useStdout()
  const last = Math.max(0, model.tasks.length - 1)
  const pickedIndex = picked === null ? -1 : model.tasks.findIndex((t) => t.key === picked)
  const runningIndex = model.tasks.findIndex((t) => !t.done)
  const selected = pickedIndex !== -1 ? pickedIndex : runningIndex !== -1 ? runningIndex : 0
  const select = (index: number) => setPicked(model.tasks[Math.max(0, Math.min(last, index))]?.key ?? null)
  useInput(
    (input, key) => {
      actions.activity?.()
      if (key.ctrl && input === 'c') return actions.interrupt()
      if (confirmingRef.current) {
        if (input === 'y' || input === 'Y') {
          setConfirming(false)
          actions.quit()
        } else if (input === 'n' || input === 'N' || key.escape) setConfirming(false)
        return
      }
      if (key.upArrow) select(selected - 1)
      else if (key.downArrow) select(selected + 1)
      else if (input === 'e') {
        setShowExplain((v) => !v)
        setExplainOffset(0)
      } else if (input === 'j' || key.pageDown) setExplainOffset((o) => o + (key.pageDown ? 10 : 1))
      else if (input === 'k' || key.pageUp) setExplainOffset((o) => Math.max(0, o - (key.pageUp ? 10 : 1)))
      else if (input === 'q' && model.status !== 'finished') {
        if (confirmQuit && model.status !== 'stopping') setConfirming(true)
        else actions.quit()
      }
    },
    {isActive: isRawModeSupported === true},
  )
  // one column short of the terminal: writing the last column makes some terminals wrap the line
  const width = Math.max(40, Math.min(160, (stdout.columns ?? 100) - 1))
  return <DashboardView model={model} selected={selected} showExplain={showExplain} confirming={confirming} width={width} height={stdout.rows} explainOffset={explainOffset} />
}
