import {anyOf, type Expected, type TaskExpected} from './expectations.js'
import type {GoldenView, ViewTask} from './view.js'

/**
 * The checks of docs/fixtures.md. Each returns the list of failed expectations, one line each, saying
 * what was expected and what was found; an empty list means the expectation holds.
 */

const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v))
const oneOf = (values: readonly unknown[]): string => (values.length === 1 ? show(values[0]) : `any of ${values.map(show).join(', ')}`)

export function taskLabel(t: {taskId: string; attempt: number}): string {
  return `${t.taskId} (attempt ${t.attempt})`
}

export function findTask(view: GoldenView, t: {taskId: string; attempt: number}): ViewTask | undefined {
  return view.tasks.find((x) => x.taskId === t.taskId && x.attempt === t.attempt)
}

function missingTask(view: GoldenView, t: TaskExpected): string {
  const have = view.tasks.map(taskLabel).join(', ') || 'none'
  return `${taskLabel(t)}: expected in the report, found only ${have}`
}

/** `run.inferredProfile` and `ingestIssues`. */
export function checkRun(expected: Expected, view: GoldenView): string[] {
  const out: string[] = []
  const inferred = expected.run?.inferredProfile
  if (inferred !== undefined) {
    const allowed = anyOf(inferred)
    if (view.inferredProfile === null || !allowed.includes(view.inferredProfile)) {
      out.push(`run.inferredProfile: expected ${oneOf(allowed)}, found ${show(view.inferredProfile)}`)
    }
  }
  for (const want of expected.ingestIssues ?? []) {
    const codes = anyOf(want.code)
    if (!view.ingestIssues.some((i) => i.file === want.file && codes.includes(i.code))) {
      const onFile = view.ingestIssues.filter((i) => i.file === want.file).map((i) => i.code)
      out.push(`ingestIssues: expected ${oneOf(codes)} on ${want.file}, found ${onFile.length ? onFile.join(', ') : 'no issue on that file'}`)
    }
  }
  return out
}

/** `mode` and `recorded`. */
export function checkRecorded(t: TaskExpected, view: GoldenView): string[] {
  const got = findTask(view, t)
  if (!got) return [missingTask(view, t)]
  const out: string[] = []
  const at = `${taskLabel(t)} recorded`
  if (t.mode !== undefined && got.mode !== t.mode) out.push(`${taskLabel(t)} mode: expected ${show(t.mode)}, found ${show(got.mode)}`)
  const r = t.recorded
  if (r === undefined) return out
  if (r.outcome !== undefined && got.recorded.outcome !== r.outcome) out.push(`${at}.outcome: expected ${show(r.outcome)}, found ${show(got.recorded.outcome)}`)
  if (r.turns !== undefined && got.recorded.turns !== r.turns) out.push(`${at}.turns: expected ${r.turns}, found ${got.recorded.turns}`)
  if (r.stall !== undefined) {
    const s = got.recorded.stall
    if (r.stall === null) {
      if (s !== null) out.push(`${at}.stall: expected none (the records show no stall detector firing), found ${show(s)}`)
    } else if (s === null || s.turn !== r.stall.turn || s.signature !== r.stall.signature) {
      out.push(`${at}.stall: expected ${show(r.stall)}, found ${show(s)}`)
    }
  }
  for (const [turn, want] of Object.entries(r.criteria ?? {})) {
    const found = got.recorded.criteria[Number(turn)]
    if (found === undefined || found[0] !== want[0] || found[1] !== want[1]) {
      out.push(`${at}.criteria turn ${turn}: expected ${want[0]}/${want[1]}, found ${found ? `${found[0]}/${found[1]}` : 'no such turn'}`)
    }
  }
  return out
}

/** `replay.<profile>`, `criteria.<profile>`, `signatures.<profile>` for one profile key. */
export function checkProfile(t: TaskExpected, key: string, view: GoldenView): string[] {
  const got = findTask(view, t)
  if (!got) return [missingTask(view, t)]
  const name = key === 'as-run' ? view.inferredProfile : key
  const at = `${taskLabel(t)} under ${key === 'as-run' ? `as-run (= ${show(name)})` : key}`
  if (name === null) return [`${at}: expected a replay under the inferred profile, but the tool inferred none`]
  const replay = got.replays[name]
  if (!replay) return [`${at}: expected a replay, found replays only under ${Object.keys(got.replays).join(', ') || 'no profile'}`]
  const out: string[] = []
  const want = t.replay?.[key]
  if (want?.outcome !== undefined) {
    const allowed = anyOf(want.outcome)
    if (!allowed.includes(replay.outcome)) out.push(`${at} outcome: expected ${oneOf(allowed)}, found ${show(replay.outcome)}`)
  }
  if (want?.branches !== undefined) out.push(...checkBranches(at, want.branches, replay.branches))
  if (want?.stallTurn !== undefined && replay.stallTurn !== want.stallTurn) {
    out.push(`${at} stallTurn: expected ${want.stallTurn === null ? 'none (the detector must not fire)' : want.stallTurn}, found ${show(replay.stallTurn)}`)
  }
  if (want?.endTurn !== undefined && replay.endTurn !== want.endTurn) out.push(`${at} endTurn: expected ${want.endTurn}, found ${show(replay.endTurn)}`)
  if (want?.fidelity === 'approximate') {
    const exact = replay.turns.filter((u) => u.fidelity === 'exact').map((u) => u.turn)
    if (exact.length > 0) out.push(`${at} fidelity: expected no turn reported as exact (inputs are partial), found exact turns ${exact.join(', ')}`)
    const missing = [...replay.missingInputs, ...replay.turns.flatMap((u) => u.missingInputs)]
    if (missing.length === 0) out.push(`${at} missingInputs: expected the missing inputs to be named, found none`)
  }
  for (const n of want?.inexactTurns ?? []) {
    const u = replay.turns.find((x) => x.turn === n)
    if (u?.fidelity === 'exact') out.push(`${at} turn ${n}: expected a fidelity other than exact (its inputs are partial), found exact`)
  }
  for (const [turn, [met, total]] of Object.entries(t.criteria?.[key] ?? {})) {
    const u = replay.turns.find((x) => x.turn === Number(turn))
    if (!u || u.criteriaMet !== met || u.criteriaTotal !== total) {
      out.push(`${at} criteria turn ${turn}: expected ${met}/${total}, found ${u ? `${u.criteriaMet}/${u.criteriaTotal}` : 'no such replayed turn'}`)
    }
  }
  for (const [turn, sig] of Object.entries(t.signatures?.[key] ?? {})) {
    const u = replay.turns.find((x) => x.turn === Number(turn))
    if (!u || u.signature !== sig) out.push(`${at} signature turn ${turn}: expected ${sig}, found ${u ? show(u.signature) : 'no such replayed turn'}`)
  }
  return out
}

/** `findings.present` (code present, its turns ⊇ the listed ones) and `findings.absent`. */
export function checkFindings(t: TaskExpected, view: GoldenView): string[] {
  const got = findTask(view, t)
  if (!got) return [missingTask(view, t)]
  const out: string[] = []
  const at = `${taskLabel(t)} findings`
  const codes = got.findings.map((f) => f.code)
  for (const want of t.findings?.present ?? []) {
    const same = got.findings.filter((f) => f.code === want.code)
    if (same.length === 0) {
      out.push(`${at}: expected ${want.code}${want.turns.length ? ` at turns ${want.turns.join(', ')}` : ''}, found only ${[...new Set(codes)].join(', ') || 'no finding'}`)
      continue
    }
    const turns = new Set(same.flatMap((f) => f.turns))
    const lacking = want.turns.filter((n) => !turns.has(n))
    if (lacking.length > 0) out.push(`${at}: expected ${want.code} to cover turns ${want.turns.join(', ')}, found turns ${[...turns].sort((a, b) => a - b).join(', ') || 'none'} (missing ${lacking.join(', ')})`)
  }
  for (const code of t.findings?.absent ?? []) {
    const hit = got.findings.filter((f) => f.code === code)
    if (hit.length > 0) out.push(`${at}: expected no ${code}, found it at turns ${[...new Set(hit.flatMap((f) => f.turns))].join(', ') || '(none listed)'}`)
  }
  return out
}

type WantBranch = NonNullable<NonNullable<TaskExpected['replay']>[string]['branches']>[number]

/** Exactly the expected branches, each matched by a distinct found one (order free). */
function checkBranches(at: string, want: readonly WantBranch[], found: GoldenView['tasks'][number]['replays'][string]['branches']): string[] {
  const describe = (b: {outcome: unknown; stallTurn?: unknown; endTurn?: unknown; values?: unknown}) => show({outcome: b.outcome, stallTurn: b.stallTurn, endTurn: b.endTurn, values: b.values})
  if (found.length !== want.length) return [`${at} branches: expected ${want.length} (${want.map(describe).join('; ')}), found ${found.length} (${found.map(describe).join('; ') || 'a determined outcome'})`]
  const left = [...found]
  const out: string[] = []
  for (const w of want) {
    const i = left.findIndex((f) =>
      anyOf(w.outcome).includes(f.outcome) &&
      (w.stallTurn === undefined || f.stallTurn === w.stallTurn) &&
      (w.endTurn === undefined || f.endTurn === w.endTurn) &&
      Object.entries(w.values ?? {}).every(([id, v]) => JSON.stringify([...(f.values[id] ?? [])].sort()) === JSON.stringify([...anyOf(v)].sort())))
    if (i < 0) out.push(`${at} branches: expected one ${describe(w)}, found ${found.map(describe).join('; ')}`)
    else left.splice(i, 1)
  }
  return out
}
