import {ESLint} from 'eslint'
import {fileURLToPath} from 'node:url'

const cwd = fileURLToPath(new URL('../..', import.meta.url))
const eslint = new ESLint({cwd})

/** The repository's lint over a planted file as if it lived at `path`: each message's rule id (or `parse-error`) and line. */
export async function lintPlanted(path: string, code: string): Promise<{rule: string; line: number}[]> {
  const [result] = await eslint.lintText(code, {filePath: `${cwd}/${path}`})
  return result!.messages.map((m) => ({rule: m.ruleId ?? 'parse-error', line: m.line}))
}
