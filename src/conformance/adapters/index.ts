import {COACH_ADAPTERS} from './coach.js'
import {MODE_ADAPTERS} from './mode.js'
import {ORCHESTRATOR_ADAPTERS} from './orchestrator.js'
import {PIPELINE_ADAPTERS} from './pipeline.js'
import {REQUIREMENTS_ADAPTERS} from './requirements.js'
import type {AdapterTable} from './types.js'

export const ADAPTERS: AdapterTable = {
  ...ORCHESTRATOR_ADAPTERS,
  ...COACH_ADAPTERS,
  ...REQUIREMENTS_ADAPTERS,
  ...PIPELINE_ADAPTERS,
  ...MODE_ADAPTERS,
}
