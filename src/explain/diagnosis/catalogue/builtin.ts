import {BUILTIN_RULES} from './builtin.generated.js'
import {createCatalogue, type Catalogue, type SignalRule} from './rule.js'

let builtin: Catalogue | null = null

/** The built-in catalogue (compiled from signals.yaml), its patterns compiled on first use. */
export function builtinCatalogue(): Catalogue {
  return (builtin ??= createCatalogue(BUILTIN_RULES))
}

/** A user's rules first (they win), then the built-in ones. */
export function catalogueWith(userRules: readonly SignalRule[]): Catalogue {
  return userRules.length === 0 ? builtinCatalogue() : createCatalogue([...userRules, ...BUILTIN_RULES])
}
