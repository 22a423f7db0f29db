import type {ParsedEvent} from '../events.js'

const NOTES = new Map<string, ParsedEvent>()

/**
 * A recognised record that carries nothing for the RunRecord (it counts as parsed in the logger
 * statistics). One shared, frozen event per name: these are most records of a log.
 */
export function note(name: string): ParsedEvent {
  let n = NOTES.get(name)
  if (n === undefined) NOTES.set(name, (n = Object.freeze({kind: 'note', name})))
  return n
}
