/**
 * Authored Claude Code transcripts of an AutoBuild run whose output the transcript cut in the middle
 * (`... [N characters truncated] ...`, docs/ingest.md "Signals"), leaving only the tail of the per-task
 * AutoBuild Summary table: its title and header are gone, and its first row is cut mid-row. Shapes
 * as docs/record-formats.md §5.5 describes them; names, paths and numbers are made up.
 */
export const CUT_TASK = 'TASK-CUT-001'

const M = '     '
const AB = 'guardkit.orchestrator.autobuild'

/** What the Coach said after each failed Player turn (the table cuts it to the column's width). */
const NO_RESULTS = ['Feedback: - Task-work', 'results not found at', '/home/dev/proj/.guardka…']

function row(turn: number | '', phase: string, status: string, summary: string): string {
  return `${M}│ ${String(turn).padEnd(6)} │ ${phase.padEnd(25)} │ ${status.padEnd(12)} │ ${summary.padEnd(24)} │`
}

/** A Player row that failed and the Coach row after it, as the table wraps them. */
function failedTurn(turn: number): string[] {
  return [
    row(turn, 'Player Implementation', '✗ error', 'Player failed -'),
    row('', '', '', 'attempting state'),
    row('', '', '', 'recovery'),
    row(turn, 'Coach Validation', '⚠ feedback', NO_RESULTS[0]!),
    row('', '', '', NO_RESULTS[1]!),
    row('', '', '', NO_RESULTS[2]!),
  ]
}

export interface CutTranscriptOptions {
  /** Turns of the run (the last is the one `Orchestration complete` names). */
  readonly turns: number
  /** Records of turn 1 printed before the cut (e.g. the Player's error line), after its invocation. */
  readonly beforeCut?: readonly string[]
  /** The status box after the table (GuardKit prints it; a capture may cut it too). */
  readonly statusBox?: boolean
}

/**
 * The transcript: the run's start and turn 1's invocation, the cut, the table's tail (turn 1's Player
 * row cut to its last lines, then every later row), the status box, the outcome record.
 */
export function cutTranscript(o: CutTranscriptOptions): string[] {
  const rows: string[] = []
  for (let t = 1; t <= o.turns; t++) rows.push(...failedTurn(t))
  // the cut leaves the end of turn 1's Player row: its last two lines, the first of them from mid-row
  const tail = [`${M}          │              │ attempting state         │`, rows[2]!, ...rows.slice(3)]
  return [
    `⏺ Bash(guardkit autobuild task ${CUT_TASK} --max-turns ${o.turns})`,
    `  ⎿  INFO:guardkit.cli.autobuild:Starting orchestration for ${CUT_TASK} (resume=False)`,
    `${M}INFO:${AB}:Starting orchestration for ${CUT_TASK} (resume=False)`,
    `${M}INFO:${AB}:Executing turn 1/${o.turns}`,
    `${M}INFO:guardkit.orchestrator.progress:Started turn 1: Player Implementation`,
    `${M}INFO:guardkit.orchestrator.agent_invoker:Invoking Player via task-work delegation for ${CUT_TASK} (turn 1)`,
    ...(o.beforeCut ?? []).map((l) => `${M}${l}`),
    '',
    `${M}... [21000 characters truncated] ...`,
    '',
    ...tail,
    `${M}╰────────┴───────────────────────────┴──────────────┴──────────────────────────╯`,
    '',
    ...(o.statusBox === false
      ? []
      : [
          `${M}╭──────────────────────────────────────────────────────────────────────────────╮`,
          `${M}│ Status: MAX_TURNS_EXCEEDED                                                   │`,
          `${M}│                                                                              │`,
          `${M}│ Maximum turns (${o.turns}) reached without approval.                                  │`,
          `${M}╰──────────────────────────────────────────────────────────────────────────────╯`,
        ]),
    `${M}INFO:guardkit.orchestrator.progress:Summary rendered: max_turns_exceeded after ${o.turns} turns`,
    `${M}INFO:${AB}:Orchestration complete: ${CUT_TASK}, decision=max_turns_exceeded, turns=${o.turns}`,
    '',
    '⏺ The build failed on the first task.',
  ]
}
