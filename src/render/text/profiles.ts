import type {FlagId, LogicChange} from '../../logic/changes.js'
import {commitIndex} from '../../logic/change-registry/commits.js'
import type {Palette} from './plain-palette.js'

export interface ProfilesReport {
  changes: Array<LogicChange & {date: string}>
  profiles: Array<{name: string; description: string; flags: FlagId[]; user: boolean}>
}

/** The registry, then a profile × flag matrix (● on, · off). */
export function renderProfilesText(report: ProfilesReport, c: Palette): string {
  const out: string[] = [c.bold(`Logic changes (${report.changes.length}), oldest first`), '']
  const ordered = [...report.changes].sort((a, b) => commitIndex(a.commit) - commitIndex(b.commit))
  const idWidth = Math.max(...ordered.map((ch) => ch.id.length))
  for (const ch of ordered) {
    const diffs = ch.diffs.length ? ch.diffs.join(',') : '—'
    out.push(`  ${c.cyan(ch.id.padEnd(idWidth))}  ${ch.commit} ${ch.date}  ${diffs.padEnd(8)} ${c.dim(ch.cause)}`)
    out.push(`  ${' '.repeat(idWidth)}  ${ch.summary}`)
  }
  out.push('', c.bold('Profiles'), '')
  const shown = report.profiles
  const nameWidth = Math.max(...shown.map((p) => p.name.length))
  for (const p of shown) {
    out.push(`  ${c.cyan(p.name.padEnd(nameWidth))}  ${String(p.flags.length).padStart(2)} flags  ${c.dim(p.description)}`)
  }
  out.push('', c.bold('Profile × flag (● on)'), '')
  const ids = ordered.map((ch) => ch.id)
  for (const p of shown) {
    const on = new Set(p.flags)
    out.push(`  ${p.name.padEnd(nameWidth)}  ${ids.map((id) => (on.has(id as never) ? '●' : c.dim('·'))).join('')}`)
  }
  out.push(`  ${' '.repeat(nameWidth)}  ${c.dim('columns in the order of the list above')}`)
  out.push('', c.dim('Use a profile with --profile NAME; adjust it with --with FLAG / --without FLAG; define your own in a YAML file with --profiles FILE.'))
  return out.join('\n')
}
