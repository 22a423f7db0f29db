/**
 * The replay (docs/architecture.md): fold the model of GuardKit over a recorded run under logic
 * profiles, turn by turn, and compare with the record and across profiles. Pure.
 */
export * from './types.js'
export {inferEra, profileName} from './era.js'
export {createEraTally, deriveEra, deriveMarkers, MARKER_BOUNDS, runDate, type DerivedEra, type EraTally, type MarkerBound, type RunDate} from './era-markers.js'
export {collectTaskInputs, type LoopSettings, type RecordedBoundary, type RecordedFeedback, type TaskInputs, type TurnInputs, type TurnKind} from './turn-inputs.js'
export {createProfileContext, type ProfileContext} from './profile-context.js'
export {initialReplayState, stepReplay, type RecordedSignatures, type ReplayState} from './replay-step.js'
export {finishReplay, notModelledReplay, recordedSignatures, replayTask, type ReplayProfile} from './replay-task.js'
export {compareProfiles, compareWithRecord, turnDifferences, type ProfileComparison, type ProfileTurnComparison, type RecordComparison} from './differences.js'
