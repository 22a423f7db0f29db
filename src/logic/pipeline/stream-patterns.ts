import {pyRegex} from '../python/regex.js'

/**
 * `TaskWorkStreamParser`'s regex constants (docs/guardkit-logic.md §4.1), as Python wrote them, translated once.
 * FILES_*_PATTERN differ between versions (D3): the legacy form captures `**` out of markdown
 * `**Files Created:**` and bare words; the strict form needs an extension or a trailing `/`.
 */
export const STREAM_PATTERNS = {
  phaseMarker: pyRegex(String.raw`Phase\s+(\d+(?:\.\d+)?)[:\s]+(.+)`),
  phaseComplete: pyRegex(String.raw`[✓✔]\s+Phase\s+(\d+(?:\.\d+)?)\s+complete`, 'i'),
  testsPassed: pyRegex(String.raw`(\d+)\s+tests?\s+passed`, 'i'),
  testsFailed: pyRegex(String.raw`(\d+)\s+tests?\s+failed`, 'i'),
  coverage: pyRegex(String.raw`[Cc]overage[:\s]+(\d+(?:\.\d+)?)%`),
  qualityGatesPassed: pyRegex(String.raw`[Qq]uality\s+gates[:\s]*PASSED|all\s+quality\s+gates\s+passed`, 'i'),
  qualityGatesFailed: pyRegex(String.raw`[Qq]uality\s+gates[:\s]*FAILED`, 'i'),
  filesModifiedLegacy: pyRegex(String.raw`(?:Modified|Changed):\s*([^\s,]+)`, 'g'),
  filesCreatedLegacy: pyRegex(String.raw`(?:Created|Added):\s*([^\s,]+)`, 'g'),
  filesModifiedStrict: pyRegex(String.raw`(?:Modified|Changed):\s*([^\s,]+(?:\.[a-zA-Z]+|/))`, 'g'),
  filesCreatedStrict: pyRegex(String.raw`(?:Created|Added):\s*([^\s,]+(?:\.[a-zA-Z]+|/))`, 'g'),
  archScore: pyRegex(String.raw`[Aa]rchitectural.*?[Ss]core[:\s]+(\d+)(?:/100)?`, 'i'),
  archSubscores: pyRegex(String.raw`SOLID[:\s]+(\d+),?\s*DRY[:\s]+(\d+),?\s*YAGNI[:\s]+(\d+)`, 'i'),
  toolInvoke: pyRegex(String.raw`<invoke\s+name="(Write|Edit)">`),
  toolFilePath: pyRegex(String.raw`<parameter\s+name="file_path">([^<]+)</parameter>`),
  toolResultCreated: pyRegex(String.raw`File\s+(?:created|written)\s+(?:successfully\s+)?(?:at|to)[:\s]+([^\s]+)`, 'gi'),
  toolResultModified: pyRegex(String.raw`File\s+(?:modified|updated|edited)\s+(?:successfully\s+)?(?:at)?[:\s]+([^\s]+)`, 'gi'),
  pytestSummary: pyRegex(String.raw`[=]+\s*(?:(\d+)\s+passed)?(?:,?\s*(\d+)\s+failed)?(?:,?\s*(\d+)\s+skipped)?.*?[=]+`, 'i'),
  pytestSimple: pyRegex(String.raw`(\d+)\s+passed(?:\s+in\s+[\d.]+s)?`, 'i'),
} as const
