import type {IngestIssue} from '../../model/ingest-issue.js'
import type {TaskFileRecord} from '../../model/run-record.js'
import {TaskFrontmatterV1Schema} from '../schemas/task-frontmatter.schema.js'
import {shapeIssues, describeValue} from '../artifacts/zod-issues.js'
import {parsePyYaml} from '../../logic/python/py-yaml.js'

export interface ParsedTaskFile {
  readonly record: TaskFileRecord
  /** Frontmatter `id`, else the id in the file name; null when neither names a task. */
  readonly taskId: string | null
  /** 1-based line of each top-level frontmatter key, for evidence. */
  readonly keyLines: Readonly<Record<string, number>>
  readonly issues: readonly IngestIssue[]
}

const BOUNDARY = /^-{3,}[ \t\f\v\r]*$/

/**
 * A task markdown file: YAML frontmatter between `---` lines (as python-frontmatter splits it) and
 * the body after it, kept verbatim, with the raw text for GuardKit's own parsers. A missing or
 * broken frontmatter is an issue, never a failure: the body is still the task's text.
 */
export function parseTaskFile(file: string, text: string): ParsedTaskFile {
  const issues: IngestIssue[] = []
  const lines = text.split('\n')
  let frontmatter: Record<string, unknown> = {}
  let body = text
  const keyLines: Record<string, number> = {}
  if (lines.length > 0 && BOUNDARY.test(lines[0]!)) {
    const close = lines.findIndex((line, i) => i > 0 && BOUNDARY.test(line))
    if (close < 0) {
      issues.push({file, line: 1, code: 'frontmatter-unclosed', severity: 'warning',
        message: 'the frontmatter opened with --- on line 1 is never closed: the whole file is read as the body, with no frontmatter'})
    } else {
      body = lines.slice(close + 1).join('\n')
      const yamlText = lines.slice(1, close).join('\n')
      const parsed = parsePyYaml(yamlText)
      if (!parsed.ok) {
        const line = parsed.line === null ? 1 : parsed.line + 1
        issues.push({file, line, code: 'yaml-invalid', severity: 'warning',
          message: `invalid YAML in the frontmatter${parsed.line === null ? '' : ` at line ${line}`}: ${parsed.message}; the frontmatter is ignored`})
      } else if (parsed.value !== null && (typeof parsed.value !== 'object' || Array.isArray(parsed.value))) {
        issues.push({file, line: 2, code: 'yaml-shape', severity: 'warning',
          message: `the frontmatter is ${describeValue(parsed.value)}, not a mapping: ignored`})
      } else if (parsed.value !== null) {
        frontmatter = parsed.value as Record<string, unknown>
        const shape = TaskFrontmatterV1Schema.safeParse(frontmatter)
        if (!shape.success) issues.push(...shapeIssues(file, frontmatter, shape.error, 'task frontmatter').map((i) => withLine(i, lines, close)))
        for (let i = 1; i < close; i++) {
          const m = /^([^\s#:][^:]*?)\s*:/.exec(lines[i]!)
          if (m && Object.hasOwn(frontmatter, m[1]!) && keyLines[m[1]!] === undefined) keyLines[m[1]!] = i + 1
        }
      }
    }
  }
  const taskId = taskIdOf(frontmatter, file)
  return {record: {file, frontmatter, body, text}, taskId, keyLines, issues}
}

function withLine(issue: IngestIssue, lines: readonly string[], close: number): IngestIssue {
  const key = issue.pointer?.split('/')[1]
  if (!key) return issue
  const at = lines.slice(1, close).findIndex((l) => l.startsWith(key + ':'))
  return at < 0 ? issue : {...issue, line: at + 2}
}

const ID_IN_NAME = /^(TASK-[A-Z0-9]+(?:-[A-Z0-9]+)*?)(?:-[a-z].*)?\.md$/

function taskIdOf(frontmatter: Record<string, unknown>, file: string): string | null {
  const id = frontmatter['id']
  if (typeof id === 'string' && id.startsWith('TASK-')) return id
  const name = file.split('/').pop() ?? file
  return ID_IN_NAME.exec(name)?.[1] ?? null
}
