import type {AdapterTable} from './types.js'

/** Oracle adapters for the pipeline functions (spec §12). */
export const PIPELINE_ADAPTERS: AdapterTable = {}
