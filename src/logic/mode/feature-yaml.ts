import type {LogicFlags} from '../changes.js'
import {PyException, isPyDict, pyInt, pyLenOf, pyTypeName} from '../python/builtins.js'
import {pyStrip} from '../python/strings.js'
import type {ImplementationMode} from '../../model/outcome.js'

/** One task entry of a feature YAML as `parse_task_string` builds it, in GuardKit's key order. */
export interface FeatureYamlTask {
  readonly id: string
  readonly name: string
  readonly complexity: number
  readonly implementation_mode: ImplementationMode
  readonly dependencies: readonly string[]
  readonly estimated_minutes: number
}

/**
 * The planning-time mode rule of `generate_feature_yaml` (docs/guardkit-logic.md §9.1, D17): complexity ≤ 3 → direct;
 * fixed also needs fewer than 2 acceptance criteria. Python's `<=` raises TypeError on a non-number.
 */
export function planningMode(complexity: unknown, acceptanceCriteriaCount: number, flags: LogicFlags): ImplementationMode {
  if (typeof complexity !== 'number' && typeof complexity !== 'boolean') {
    throw new PyException('TypeError', `'<=' not supported between instances of '${pyTypeName(complexity)}' and 'int'`)
  }
  const simple = Number(complexity) <= 3
  // acCountGuard (D17): tasks with 2 or more acceptance criteria go to task-work.
  if (flags.acCountGuard) return simple && acceptanceCriteriaCount < 2 ? 'direct' : 'task-work'
  return simple ? 'direct' : 'task-work'
}

/**
 * `parse_task_string(task_str, acceptance_criteria_count=0)` (docs/guardkit-logic.md §9.1): `ID:NAME:COMPLEXITY:DEPS`
 * split on the first three colons; a colon inside NAME shifts the fields (usually a ValueError from
 * `int()`, raised as PyException). The CLI `--task` path never passes the count.
 */
export function parseTaskString(taskStr: string, flags: LogicFlags, acceptanceCriteriaCount = 0): FeatureYamlTask {
  const parts = splitMax(taskStr, ':', 3)
  const complexity = parts.length > 2 && parts[2] !== '' ? pyInt(parts[2]) : 5
  const deps = parts.length > 3 && parts[3] !== '' ? parts[3]!.split(',').map((d) => pyStrip(d)).filter((d) => d !== '') : []
  return {
    id: parts[0]!,
    name: parts.length > 1 ? parts[1]! : '',
    complexity,
    implementation_mode: planningMode(complexity, acceptanceCriteriaCount, flags),
    dependencies: deps,
    estimated_minutes: estimatedMinutes(complexity),
  }
}

/** The `--tasks-json` loop: `ac_count = len(t.get("acceptance_criteria", []))`, complexity default 5. */
export function tasksJsonMode(task: unknown, flags: LogicFlags): ImplementationMode {
  if (!isPyDict(task)) throw new PyException('AttributeError', `'${pyTypeName(task)}' object has no attribute 'get'`)
  const complexity = 'complexity' in task ? task['complexity'] : 5
  const ac = 'acceptance_criteria' in task ? task['acceptance_criteria'] : []
  return planningMode(complexity, pyLenOf(ac), flags)
}

/** `--task "ID:NAME:C:DEPS"`: `parse_task_string` without the criteria count, so complexity only. */
export function taskFlagMode(argvTask: string, flags: LogicFlags): ImplementationMode {
  return parseTaskString(argvTask, flags).implementation_mode
}

/** `str.split(sep, maxsplit)`. */
function splitMax(s: string, sep: string, max: number): string[] {
  const out: string[] = []
  let rest = s
  while (out.length < max) {
    const at = rest.indexOf(sep)
    if (at < 0) break
    out.push(rest.slice(0, at))
    rest = rest.slice(at + sep.length)
  }
  out.push(rest)
  return out
}

/** `int(15 * 1.5 ** (complexity - 1))`, with CPython's float pow (correctly rounded) and its overflow errors. */
export function estimatedMinutes(complexity: number): number {
  const k = complexity - 1
  // 1.5 ** 1751 already overflows a double; larger exponents need no big-integer arithmetic.
  const power = k > 2000 ? Infinity : k >= 0 ? threeHalvesPower(k) : Math.pow(1.5, k)
  if (!Number.isFinite(power)) throw new PyException('OverflowError', "(34, 'Numerical result out of range')")
  return pyInt(15 * power)
}

/** 1.5 ** k = 3^k · 2^-k, rounded once to the nearest double (ties to even). */
function threeHalvesPower(k: number): number {
  const n = 3n ** BigInt(k)
  const bits = n.toString(2).length
  if (bits <= 53) return scale(Number(n), -k)
  const shift = bits - 53
  let q = n >> BigInt(shift)
  const rem = n - (q << BigInt(shift))
  const half = 1n << BigInt(shift - 1)
  if (rem > half || (rem === half && (q & 1n) === 1n)) q++
  return scale(Number(q), shift - k)
}

function scale(x: number, e: number): number {
  let v = x
  let rest = e
  while (rest > 1000) {
    v *= 2 ** 1000
    rest -= 1000
  }
  while (rest < -1000) {
    v *= 2 ** -1000
    rest += 1000
  }
  return v * 2 ** rest
}
