/**
 * A strict HTML reader for the report tests (no HTML parser is among the dependencies). It reads
 * what the renderer is meant to write and throws on anything else, so that a structure a browser
 * would repair silently fails the test instead: every element closed in order, attributes quoted
 * with no stray quote, `<` in text only as the start of a tag, `/>` only inside SVG, no block
 * element inside `<p>` or `<summary>`, raw text only in `<style>`/`<script>`.
 */
export interface El {
  readonly tag: string
  readonly attrs: Readonly<Record<string, string>>
  readonly children: (El | string)[]
  readonly parent: El | null
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])
const RAW = new Set(['script', 'style'])
const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul'])
const NAMED: Readonly<Record<string, string>> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0'}

export interface Document {
  readonly doctype: string | null
  readonly root: El
}

export function parseHtml(source: string): Document {
  const root: El = {tag: '#root', attrs: {}, children: [], parent: null}
  let current = root
  let doctype: string | null = null
  let i = 0
  const fail = (what: string): never => {
    const line = source.slice(0, i).split('\n').length
    throw new Error(`${what} at line ${line}: …${source.slice(Math.max(0, i - 60), i + 60)}…`)
  }
  while (i < source.length) {
    const lt = source.indexOf('<', i)
    if (lt < 0 || lt > i) {
      const text = source.slice(i, lt < 0 ? source.length : lt)
      checkText(text, fail)
      current.children.push(decode(text, fail))
      i = lt < 0 ? source.length : lt
      continue
    }
    if (source.startsWith('<!--', i)) {
      const end = source.indexOf('-->', i)
      if (end < 0) fail('unclosed comment')
      i = end + 3
      continue
    }
    if (/^<!DOCTYPE /i.test(source.slice(i, i + 10))) {
      const end = source.indexOf('>', i)
      if (doctype !== null || root.children.some((c) => typeof c !== 'string' || c.trim() !== '')) fail('doctype not first')
      doctype = source.slice(i + 10, end)
      i = end + 1
      continue
    }
    const close = /^<\/([a-z][a-z0-9-]*)\s*>/i.exec(source.slice(i, i + 64))
    if (close !== null) {
      const tag = close[1]!.toLowerCase()
      if (current.tag !== tag) fail(`</${tag}> closes <${current.tag}>`)
      current = current.parent!
      i += close[0].length
      continue
    }
    const open = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(source.slice(i, i + 64))
    if (open === null) fail('"<" that starts no tag')
    const tag = open![1]!.toLowerCase()
    i += open![0].length
    const attrs: Record<string, string> = {}
    let selfClosing = false
    for (;;) {
      const ws = /^\s*/.exec(source.slice(i))![0]
      i += ws.length
      if (source[i] === '>') {
        i++
        break
      }
      if (source.startsWith('/>', i)) {
        selfClosing = true
        i += 2
        break
      }
      if (ws === '') fail(`attributes of <${tag}> not separated`)
      const attr = /^([a-zA-Z_:][a-zA-Z0-9_:.-]*)(?:="([^"]*)")?/.exec(source.slice(i))
      if (attr === null) fail(`bad attribute in <${tag}> (unquoted or stray character)`)
      const name = attr![1]!.toLowerCase()
      if (name in attrs) fail(`duplicate attribute ${name} on <${tag}>`)
      if (attr![2] !== undefined && /[<]/.test(attr![2])) fail(`"<" inside the value of ${name}`)
      attrs[name] = attr![2] === undefined ? '' : decode(attr![2], fail)
      i += attr![0].length
    }
    if (selfClosing && !insideSvg(current) && tag !== 'svg') fail(`<${tag}/> outside SVG`)
    // a summary holds phrasing content and at most a heading (the HTML standard's content model)
    if ((current.tag === 'p' || current.tag === 'summary') && BLOCK.has(tag) && !(current.tag === 'summary' && /^h[1-6]$/.test(tag))) fail(`<${tag}> inside <${current.tag}>`)
    const el: El = {tag, attrs, children: [], parent: current}
    current.children.push(el)
    if (RAW.has(tag)) {
      const end = source.toLowerCase().indexOf(`</${tag}`, i)
      if (end < 0) fail(`unclosed <${tag}>`)
      el.children.push(source.slice(i, end))
      i = source.indexOf('>', end) + 1
      continue
    }
    if (!VOID.has(tag) && !selfClosing) current = el
  }
  if (current !== root) throw new Error(`<${current.tag}> is never closed`)
  return {doctype, root}
}

function insideSvg(el: El | null): boolean {
  for (let e = el; e !== null; e = e.parent) if (e.tag === 'svg') return true
  return false
}

function checkText(text: string, fail: (what: string) => never): void {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) fail('control character in text')
  if (/&(?![a-z]+;|#\d+;|#x[0-9a-f]+;)/i.test(text)) fail('bare "&" in text')
}

function decode(text: string, fail: (what: string) => never): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return String.fromCodePoint(parseInt(body.slice(2), 16))
    if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)))
    const named = NAMED[body]
    return named ?? fail(`unknown entity ${m}`)
  })
}

export function walk(el: El, visit: (e: El) => void): void {
  visit(el)
  for (const c of el.children) if (typeof c !== 'string') walk(c, visit)
}

export function all(el: El, predicate: (e: El) => boolean): El[] {
  const out: El[] = []
  walk(el, (e) => {
    if (predicate(e)) out.push(e)
  })
  return out
}

export function byTag(el: El, tag: string): El[] {
  return all(el, (e) => e.tag === tag)
}

export function textOf(el: El): string {
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('')
}

export function ancestor(el: El, predicate: (e: El) => boolean): El | null {
  for (let e = el.parent; e !== null; e = e.parent) if (predicate(e)) return e
  return null
}

/**
 * What would make the page load something from outside: a URL in src/href/action/poster/srcset/
 * data/xlink:href that is not an in-page anchor or a data: URI, a stylesheet link, a CSS import,
 * url() or font-face, a base element. Returns one line per problem (empty: self-contained).
 */
export function externalReferences(doc: Document): string[] {
  const out: string[] = []
  walk(doc.root, (e) => {
    for (const [name, value] of Object.entries(e.attrs)) {
      if (['src', 'href', 'action', 'formaction', 'poster', 'srcset', 'data', 'xlink:href', 'background', 'manifest', 'ping'].includes(name)) {
        const v = value.trim()
        if (!(v.startsWith('#') || (name === 'href' && e.tag === 'link' && v === 'data:,'))) out.push(`<${e.tag} ${name}="${value}">`)
      }
      if (name === 'style' && /url\(|@import|expression\(/i.test(value)) out.push(`<${e.tag} style="${value}">`)
    }
    if (e.tag === 'link' && e.attrs['rel'] !== 'icon') out.push(`<link rel="${e.attrs['rel'] ?? ''}">`)
    if (e.tag === 'base' || e.tag === 'iframe' || e.tag === 'object' || e.tag === 'embed' || e.tag === 'img' || e.tag === 'video' || e.tag === 'audio') out.push(`<${e.tag}>`)
    if (e.tag === 'style' && /@import|url\(|@font-face|https?:|\/\//i.test(textOf(e))) out.push('a <style> that imports or fetches')
    if (e.tag === 'script' && (e.attrs['src'] !== undefined || /fetch\(|XMLHttpRequest|import\(|https?:|WebSocket|EventSource|sendBeacon|\.src\s*=/.test(textOf(e)))) out.push('a <script> that loads or fetches')
  })
  return out
}
