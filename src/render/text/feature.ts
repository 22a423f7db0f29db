import type {FeaturePicture} from '../../explain/analysis.js'
import {timeoutWhen} from '../../explain/feature.js'
import {labelled} from './layout.js'
import {formatEvidenceList, type TextOptions} from './text-options.js'

/** The feature around the tasks: waves with each task's status, timeouts, and where the summary disagrees. */
export function renderFeature(f: FeaturePicture, o: TextOptions): string[] {
  const p = o.palette
  const result = f.featureResult === null ? p.dim('no feature result in the log') : colourStatus(f.featureResult, o)
  const attempt = f.attempt === undefined ? '' : p.dim(` (attempt ${f.attempt})`)
  const out = [`${p.bold(`feature ${f.featureId ?? '(unnamed)'}`)}${attempt}  ${result}`]
  for (const w of f.waves) {
    const tasks = w.taskIds.map((id) => `${id} ${colourStatus(w.statuses[id] ?? '?', o)}`).join(' · ')
    out.push(...labelled('  ', `wave ${w.wave}`, 10, tasks, o.width))
  }
  for (const t of f.timeouts) {
    const when = timeoutWhen(t)
    const where = formatEvidenceList(t.evidence)
    out.push(...labelled('  ', 'timeout', 10, `${t.taskId}${when === '' ? '' : ` ${when}`}${where === '' ? '' : p.dim(`  (${where})`)}`, o.width, p.yellow))
  }
  for (const d of f.disagreements) {
    const where = formatEvidenceList(d.evidence)
    out.push(...labelled('  ', 'disagrees', 10, `${d.taskId}: the feature says ${d.featureSays}, the task says ${d.taskSays}${where === '' ? '' : p.dim(`  (${where})`)}`, o.width, p.yellow))
  }
  return out
}

function colourStatus(status: string, o: TextOptions): string {
  const s = status.toUpperCase()
  if (s === 'SUCCESS' || s === 'APPROVED' || s === 'COMPLETED') return o.palette.green(status)
  if (s === 'SKIPPED' || s === 'PENDING' || s === '?') return o.palette.dim(status)
  return o.palette.red(status)
}
