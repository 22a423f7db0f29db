/**
 * The Player side of GuardKit's pipeline (docs/guardkit-logic.md §4, §5): what the Coach is given to read. Each
 * function takes GuardKit-shaped data and the recorded facts (git lists, files on disk, the
 * agent's own report) and returns GuardKit's outputs plus `events`, the side channel that says
 * which step kept, dropped, replaced or invented which field, and under which flag.
 */
export {TaskWorkStreamParser, parseStreamSteps, type StreamParseResult, type ParsedPhase} from './stream-parser.js'
export {runTaskWorkStream, type SdkBlock, type SdkMessage, type StreamLoopResult} from './stream-loop.js'
export {writeTaskWorkResults, generateSummary, type WriteTaskWorkResultsOptions, type WriteTaskWorkResultsResult} from './task-work-results.js'
export {createPlayerReportFromTaskWork, type PlayerReportFromTaskWorkInput, type PlayerReportFromTaskWorkResult} from './player-report-from-task-work.js'
export {
  generateFileExistencePromises, generateFileExistencePromisesSeed, generateFileExistencePromisesLegacy,
  invokerFileExistencePromises, autobuildFileExistencePromises, criterionId, type PromiseRecord,
} from './file-existence-promises.js'
export {generateGitAnalysisPromises, extractCodePatterns, extractCriterionKeywords} from './git-analysis-promises.js'
export {buildSyntheticReport, createSyntheticDirectModeReport, type SyntheticReportParams, type DirectSyntheticInput} from './synthetic-report.js'
export {buildStateRecoveryReport, type WorkState, type StateRecoveryOptions, type StateRecoveryReport} from './state-recovery-report.js'
export {writeDirectModeResults, writePlayerReportForDirectMode, type DirectModeOutcome} from './direct-mode-files.js'
export {runDirectModeTurn, isValidPlayerReport, type DirectModeFlow, type DirectModeFlowInput, type DirectSdkOutcome, type DirectModePath} from './direct-mode-flow.js'
export {findTaskFile, loadTaskMetadata, directModeTaskFacts, TASK_FOLDERS, type TaskFileLookup, type DirectModeTaskFacts} from './task-file.js'
export {runTaskWorkTurn, type TaskWorkTurn, type TaskWorkTurnInput} from './task-work-turn.js'
export {isValidFilePath, isValidPathSeed, isTestFile} from './file-paths.js'
export {readJsonFile, type JsonFileInput, type JsonFileRead} from './json-input.js'
export {pyJsonDump} from './written-json.js'
export {PipelineTrace, type PipelineEvent, type PipelineEventKind} from './trace.js'
export type {GitChanges, JsonRecord} from './types.js'
