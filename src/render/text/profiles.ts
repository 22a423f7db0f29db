import type {FlagId, LogicChange} from '../../logic/changes.js'
import {commitIndex} from '../../logic/change-registry/commits.js'
import {padEnd, visibleWidth, wrap} from './layout.js'
import {renderTable} from './table.js'
import type {TextOptions} from './text-options.js'
import {neutraliseOutput} from '../../shared/neutralise.js'

export interface ProfilesReport {
  changes: Array<LogicChange & {date: string}>
  profiles: Array<{name: string; description: string; flags: FlagId[]; user: boolean}>
}

/**
 * The registry, then the profiles, then a profile × flag matrix (● on, · off), each laid out for
 * the terminal's width: the free text (cause, summary, description) wraps, and the matrix splits into
 * blocks of flags that fit.
 */
export function renderProfilesText(report: ProfilesReport, o: Pick<TextOptions, 'palette' | 'width'>): string {
  const c = o.palette
  const width = o.width
  const out: string[] = [c.bold(`Logic changes (${report.changes.length}), oldest first`), '']
  const ordered = [...report.changes].sort((a, b) => commitIndex(a.commit) - commitIndex(b.commit))
  out.push(...renderTable(
    [{header: 'flag'}, {header: 'commit'}, {header: 'date', stack: 2}, {header: 'diff', stack: 1}, {header: 'cause', flex: 'wrap', min: 16}, {header: 'what it changed', under: true}],
    ordered.map((ch) => [{text: ch.id, style: c.cyan}, ch.commit, ch.date, ch.diffs.length ? ch.diffs.join(',') : '—', {text: ch.cause, style: c.dim}, ch.summary]),
    {width, headerStyle: c.dim},
  ))
  out.push('', c.bold('Profiles'), '')
  const shown = report.profiles
  out.push(...renderTable(
    [{header: 'profile'}, {header: 'flags', align: 'right'}, {header: 'what it is', flex: 'wrap', min: 20}],
    shown.map((p) => [{text: p.name, style: c.cyan}, String(p.flags.length), {text: p.description, style: c.dim}]),
    {width, headerStyle: c.dim},
  ))
  out.push('', c.bold('Profile × flag (● on)'), '')
  const ids = ordered.map((ch) => ch.id)
  const nameWidth = Math.max(...shown.map((p) => visibleWidth(p.name)))
  // as many flag columns per block as the width holds (all of them when it is not a terminal)
  const perBlock = Math.max(10, Math.min(ids.length, Number.isFinite(width) ? width - 4 - nameWidth : ids.length))
  for (let from = 0; from < ids.length; from += perBlock) {
    const block = ids.slice(from, from + perBlock)
    if (ids.length > perBlock) out.push(`  ${' '.repeat(nameWidth)}  ${c.dim(`flags ${from + 1}–${from + block.length}`)}`)
    for (const p of shown) {
      const on = new Set<string>(p.flags)
      out.push(`  ${padEnd(p.name, nameWidth)}  ${block.map((id) => (on.has(id) ? '●' : c.dim('·'))).join('')}`)
    }
    if (from + perBlock < ids.length) out.push('')
  }
  out.push(...wrap('columns in the order of the list above', width - nameWidth - 4).map((l) => `  ${' '.repeat(nameWidth)}  ${c.dim(l)}`))
  out.push('', ...wrap('Use a profile with --profile NAME; adjust it with --with FLAG / --without FLAG; define your own in a YAML file with --profiles FILE.', width).map((l) => c.dim(l)))
  return neutraliseOutput(out.join('\n'), {keepSgr: c.enabled})
}
