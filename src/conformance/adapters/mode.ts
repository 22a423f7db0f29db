import type {AdapterTable} from './types.js'

/** Oracle adapters for the mode functions (spec §12). */
export const MODE_ADAPTERS: AdapterTable = {}
