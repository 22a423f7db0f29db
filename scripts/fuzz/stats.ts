import type {CaseResult} from './check-case.js'

/** What a fuzz run did: counts, exit codes per command, ingest issues reached, time spent. */
export class Stats {
  cases = 0
  cliCases = 0
  failed = 0
  skippedEntries = 0
  caseMs = 0
  readonly inProcess = {commands: 0, ms: 0}
  readonly cli = {commands: 0, ms: 0}
  /** command name → exit code → count */
  readonly exits = new Map<string, Map<string, number>>()
  readonly issueCodes = new Map<string, number>()

  add(r: CaseResult): void {
    this.cases++
    this.caseMs += r.msTotal
    this.skippedEntries += r.skipped.length
    if (r.failures.length > 0) this.failed++
    if (r.commands.some((c) => c.via === 'cli')) this.cliCases++
    for (const c of r.commands) {
      const bucket = c.via === 'cli' ? this.cli : this.inProcess
      bucket.commands++
      bucket.ms += c.ms
      const name = `${c.via === 'cli' ? '[cli] ' : ''}${c.name.split(' ')[0]}${c.name.includes('--json') ? ' --json' : ''}`
      const byExit = this.exits.get(name) ?? new Map<string, number>()
      byExit.set(String(c.exit), (byExit.get(String(c.exit)) ?? 0) + 1)
      this.exits.set(name, byExit)
    }
    for (const code of new Set(r.issueCodes)) this.issueCodes.set(code, (this.issueCodes.get(code) ?? 0) + 1)
  }

  merge(other: Stats): void {
    this.cases += other.cases
    this.cliCases += other.cliCases
    this.failed += other.failed
    this.skippedEntries += other.skippedEntries
    this.caseMs += other.caseMs
    this.inProcess.commands += other.inProcess.commands
    this.inProcess.ms += other.inProcess.ms
    this.cli.commands += other.cli.commands
    this.cli.ms += other.cli.ms
    for (const [name, m] of other.exits) {
      const into = this.exits.get(name) ?? new Map<string, number>()
      for (const [k, v] of m) into.set(k, (into.get(k) ?? 0) + v)
      this.exits.set(name, into)
    }
    for (const [k, v] of other.issueCodes) this.issueCodes.set(k, (this.issueCodes.get(k) ?? 0) + v)
  }

  /** One line for progress. */
  line(total: number, wallMs: number): string {
    const rate = this.cases / Math.max(0.001, wallMs / 1000)
    return `${this.cases}/${total} cases (${this.cliCases} through the built CLI), ${rate.toFixed(1)} cases/s, ${this.failed} failing`
  }

  toJSON(wallMs: number): Record<string, unknown> {
    const inProcessCaseMs = this.cases === 0 ? 0 : this.inProcess.ms / this.cases
    return {
      cases: this.cases,
      cliCases: this.cliCases,
      failingCases: this.failed,
      wallSeconds: round(wallMs / 1000),
      casesPerSecond: round(this.cases / Math.max(0.001, wallMs / 1000)),
      inProcess: {commands: this.inProcess.commands, msPerCommand: round(this.inProcess.ms / Math.max(1, this.inProcess.commands)), casesPerSecondPerProcess: round(inProcessCaseMs === 0 ? 0 : 1000 / inProcessCaseMs)},
      builtCli: {commands: this.cli.commands, msPerCommand: round(this.cli.ms / Math.max(1, this.cli.commands)), commandsPerSecondPerProcess: round(this.cli.commands === 0 ? 0 : 1000 / (this.cli.ms / this.cli.commands))},
      entriesNotWritable: this.skippedEntries,
      exitCodes: Object.fromEntries([...this.exits].sort().map(([k, m]) => [k, Object.fromEntries([...m].sort())])),
      ingestIssueCodes: Object.fromEntries([...this.issueCodes].sort((a, b) => b[1] - a[1])),
    }
  }
}

function round(x: number): number {
  return Math.round(x * 10) / 10
}
