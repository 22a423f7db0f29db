import {isMap, isSeq, LineCounter, parseDocument, type Node} from 'yaml'
import {z} from 'zod'
import {FLAG_IDS} from '../../../logic/changes.js'
import {FINDING_CODES} from '../../../model/finding.js'
import {ROOT_CAUSES} from '../../../model/root-cause.js'
import {ROLES, STAGES} from '../stages.js'
import type {SignalRule} from './rule.js'

/**
 * A signal-rule file (docs/signals.md): YAML, validated here with zod. The built-in catalogue is
 * compiled from catalogue/signals.yaml by `npm run signals` (so that `analyze` loads neither YAML nor
 * zod at start-up); a user's `--signals FILE` is read with the same schema. Every problem names the
 * file and the line.
 */
const MONTH = /^20\d\d-(?:0[1-9]|1[0-2])$/

const RuleSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, 'ids are lower-case words joined by dots and hyphens (model-api.rate-limit)'),
  category: z.enum(ROOT_CAUSES),
  stage: z.enum(STAGES),
  role: z.enum(ROLES).default('cause'),
  match: z.strictObject({
    logger: z.string().min(1).optional(),
    level: z.array(z.enum(['CRITICAL', 'ERROR', 'WARNING', 'INFO'])).min(1).optional(),
    pattern: z.string().min(1),
    ignoreCase: z.boolean().optional(),
  }),
  era: z.strictObject({first: z.string().regex(MONTH, 'YYYY-MM'), last: z.string().regex(MONTH, 'YYYY-MM').optional()}).optional(),
  summary: z.string().min(1),
  means: z.string().min(1),
  action: z.string().min(1),
  coveredBy: z.array(z.enum(FINDING_CODES)).optional(),
  refines: z.array(z.enum(FINDING_CODES)).optional(),
  onlyWith: z.array(z.string().min(1)).min(1).optional(),
  onlyAfter: z.array(z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, 'rule ids')).min(1).optional(),
  notWith: z.array(z.string().refine((id) => /^[a-z0-9][a-z0-9.-]*$/.test(id) || (FINDING_CODES as readonly string[]).includes(id), 'rule ids or finding codes')).min(1).optional(),
  reachesLimit: z.literal(true).optional(),
  onlyWhereTestsRan: z.literal(true).optional(),
  guardkit: z.strictObject({
    has: z.array(z.enum(FLAG_IDS as [string, ...string[]])).min(1).optional(),
    lacks: z.array(z.enum(FLAG_IDS as [string, ...string[]])).min(1).optional(),
    undecided: z.array(z.enum(FLAG_IDS as [string, ...string[]])).min(1).optional(),
  }).refine((g) => g.has !== undefined || g.lacks !== undefined || g.undecided !== undefined, 'names logic changes in has, lacks or undecided (docs/logic-changes.md)').optional(),
  deduction: z.string().min(1).optional(),
  examples: z.array(z.string().min(1)).min(1, 'every rule needs at least one real-shaped example line'),
  counterExamples: z.array(z.string().min(1)).optional(),
})

const FileSchema = z.strictObject({
  version: z.literal(1),
  rules: z.array(z.unknown()),
})

export interface RuleFileIssue {
  readonly file: string
  readonly line: number
  readonly message: string
}

export interface ParsedRuleFile {
  readonly rules: SignalRule[]
  readonly issues: RuleFileIssue[]
}

/**
 * The rules of one file, each checked on its own: a bad rule is reported (file, line, what was
 * expected) and left out, the others are kept. Ids must be unique within the file.
 */
export function parseSignalRules(text: string, file: string): ParsedRuleFile {
  const lines = new LineCounter()
  const doc = parseDocument(text, {lineCounter: lines, prettyErrors: false, uniqueKeys: true})
  const lineOf = (node: Node | null | undefined): number => (node?.range ? lines.linePos(node.range[0]).line : 1)
  const issues: RuleFileIssue[] = []
  if (doc.errors.length > 0) {
    for (const e of doc.errors.slice(0, 5)) issues.push({file, line: lines.linePos(e.pos[0]).line, message: `not valid YAML: ${e.message.split('\n')[0]}`})
    return {rules: [], issues}
  }
  const top = FileSchema.safeParse(doc.toJS())
  if (!top.success) {
    const issue = top.error.issues[0]!
    const node = doc.getIn(issue.path as (string | number)[], true) as Node | undefined
    issues.push({file, line: lineOf(node ?? doc.contents), message: `${pointer(issue.path)} ${issue.message} (expected \`version: 1\` and \`rules: [...]\`)`})
    return {rules: [], issues}
  }
  const seq = doc.get('rules', true)
  const nodes = isSeq(seq) ? seq.items : []
  const rules: SignalRule[] = []
  const seen = new Map<string, number>()
  top.data.rules.forEach((raw, i) => {
    const node = nodes[i] as Node | undefined
    const at = lineOf(node)
    const parsed = RuleSchema.safeParse(raw)
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 3)) {
        const inner = isMap(node) ? (doc.getIn(['rules', i, ...issue.path] as (string | number)[], true) as Node | undefined) : undefined
        issues.push({file, line: inner ? lineOf(inner) : at, message: `rule ${ruleName(raw, i)}: ${pointer(issue.path)} ${issue.message}`})
      }
      return
    }
    const r = parsed.data
    const badPattern = compileError(r.match.pattern)
    if (badPattern !== null) {
      const p = doc.getIn(['rules', i, 'match', 'pattern'], true) as Node | undefined
      issues.push({file, line: lineOf(p ?? node), message: `rule ${r.id}: match.pattern is not a valid regular expression (${badPattern})`})
      return
    }
    if (r.reachesLimit === true && (r.onlyAfter === undefined || !/\((?!\?)/.test(r.match.pattern))) {
      issues.push({file, line: at, message: `rule ${r.id}: reachesLimit needs onlyAfter and a capturing group in match.pattern (the number compared)`})
      return
    }
    if (seen.has(r.id)) {
      issues.push({file, line: at, message: `rule ${r.id}: the id is used twice (first on line ${seen.get(r.id)})`})
      return
    }
    seen.set(r.id, at)
    rules.push({
      id: r.id,
      category: r.category,
      stage: r.stage,
      role: r.role,
      match: {
        pattern: r.match.pattern,
        ...(r.match.logger === undefined ? {} : {logger: r.match.logger}),
        ...(r.match.level === undefined ? {} : {level: r.match.level}),
        ...(r.match.ignoreCase === undefined ? {} : {ignoreCase: r.match.ignoreCase}),
      },
      ...(r.era === undefined ? {} : {era: r.era}),
      summary: r.summary,
      means: r.means,
      action: r.action,
      ...(r.coveredBy === undefined ? {} : {coveredBy: r.coveredBy}),
      ...(r.refines === undefined ? {} : {refines: r.refines}),
      ...(r.onlyWith === undefined ? {} : {onlyWith: r.onlyWith}),
      ...(r.onlyAfter === undefined ? {} : {onlyAfter: r.onlyAfter}),
      ...(r.notWith === undefined ? {} : {notWith: r.notWith}),
      ...(r.reachesLimit === undefined ? {} : {reachesLimit: r.reachesLimit}),
      ...(r.onlyWhereTestsRan === undefined ? {} : {onlyWhereTestsRan: r.onlyWhereTestsRan}),
      ...(r.guardkit === undefined ? {} : {guardkit: r.guardkit as NonNullable<SignalRule['guardkit']>}),
      ...(r.deduction === undefined ? {} : {deduction: r.deduction}),
      examples: r.examples,
      ...(r.counterExamples === undefined ? {} : {counterExamples: r.counterExamples}),
      origin: {file, line: at, exampleLines: r.examples.map((_, j) => lineOf(doc.getIn(['rules', i, 'examples', j], true) as Node | undefined))},
    })
  })
  return {rules, issues}
}

function compileError(pattern: string): string | null {
  try {
    new RegExp(pattern, 'u')
    return null
  } catch (error) {
    return (error as Error).message
  }
}

function pointer(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '/' : `/${path.map(String).join('/')}`
}

function ruleName(raw: unknown, i: number): string {
  const id = typeof raw === 'object' && raw !== null && 'id' in raw ? (raw as {id: unknown}).id : undefined
  return typeof id === 'string' ? id : `#${i + 1}`
}
