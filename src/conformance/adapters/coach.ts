import type {AdapterTable} from './types.js'

/** Oracle adapters for the coach functions (spec §12). */
export const COACH_ADAPTERS: AdapterTable = {}
