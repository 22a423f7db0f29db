import type {AdapterTable} from './types.js'

/** Oracle adapters for the requirements functions (spec §12). */
export const REQUIREMENTS_ADAPTERS: AdapterTable = {}
