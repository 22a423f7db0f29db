/** Small text helpers for the dashboard (widths and cuts: render/ink/layout.ts, by display columns). */

export function bar(met: number | null, total: number | null, width = 10): string {
  if (met === null || total === null || total <= 0) return '░'.repeat(width)
  const filled = Math.max(0, Math.min(width, Math.round((met / total) * width)))
  return '█'.repeat(filled) + '░'.repeat(width - filled)
}

export function duration(seconds: number | null): string {
  if (seconds === null) return '–'
  const s = Math.floor(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}:${ss}`
}
