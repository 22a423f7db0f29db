import {keep} from './build/keep.js'
import {type Parser, parserFor, statLoggerName} from './grammar/index.js'

/** Per logger: its grammar and its counters (records parsed into typed events / only counted). */
export interface LoggerEntry {
  readonly name: string
  readonly parse: Parser
  readonly stat: {parsed: number; counted: number}
}

export interface LoggerTable {
  entry(logger: string): LoggerEntry
  /** The counters, per logger name as reported (per-task loggers merged, docs/record-formats.md §5.3). */
  readonly stats: Map<string, {parsed: number; counted: number}>
}

export function createLoggerTable(): LoggerTable {
  const stats = new Map<string, {parsed: number; counted: number}>()
  const loggers = new Map<string, LoggerEntry>()
  // By name length, the last logger of that length: spares hashing a fresh name for every record.
  const byLength: (LoggerEntry | undefined)[] = []
  return {
    stats,
    entry(logger) {
      const hit = byLength[logger.length]
      if (hit !== undefined && hit.name === logger) return hit
      let entry = loggers.get(logger)
      if (entry === undefined) {
        const statName = keep(statLoggerName(logger))
        let s = stats.get(statName)
        if (s === undefined) stats.set(statName, (s = {parsed: 0, counted: 0}))
        const name = keep(logger)
        entry = {name, parse: parserFor(name), stat: s}
        loggers.set(name, entry)
      }
      byLength[logger.length] = entry
      return entry
    },
  }
}
