import type {AdapterTable} from './types.js'

/** Oracle adapters for the orchestrator functions (spec §12). */
export const ORCHESTRATOR_ADAPTERS: AdapterTable = {}
