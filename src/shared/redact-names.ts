import {NAME_PLACEHOLDER} from './redact-rules.js'

/**
 * Names of one kind, each with its placeholder. A name seen only cut (`/Users/richardwooll...`
 * after GuardKit's 80-code-point cut) that starts a complete name gets the start of that name's
 * placeholder, so the cut text stays the start of the full one.
 */
export class NameTable {
  /** Placeholders given out: never change once given. */
  private readonly assigned = new Map<string, string>()
  private readonly complete: string[] = []
  private readonly cut: string[] = []
  /** Placeholders met in the text (it was redacted before): their cut starts stay as they are. */
  private readonly placeholders = new Set<string>()
  private count = 0

  constructor(private readonly stem: string) {}

  see(name: string, cut = false): void {
    if (NAME_PLACEHOLDER.test(name) && !cut) this.placeholders.add(name)
    if (name === '' || NAME_PLACEHOLDER.test(name) || this.assigned.has(name)) return
    if (!cut) {
      if (!this.complete.includes(name)) this.complete.push(name)
    } else if (!this.cut.includes(name)) {
      this.cut.push(name)
    }
  }

  has(name: string): boolean {
    return this.table().has(name)
  }

  names(): string[] {
    return [...this.table().keys()]
  }

  placeholder(name: string): string {
    if (NAME_PLACEHOLDER.test(name)) return name
    let hit = this.table().get(name)
    if (hit === undefined) {
      // met only while redacting (not learned): numbered after the learned ones
      this.see(name)
      hit = this.table().get(name)!
    }
    return hit
  }

  private table(): Map<string, string> {
    for (const name of this.complete.splice(0)) {
      if (!this.assigned.has(name)) this.assigned.set(name, namePlaceholder(this.stem, ++this.count, name.length))
    }
    for (const name of this.cut.splice(0)) {
      if (this.assigned.has(name)) continue
      if ([...this.placeholders].some((p) => p.startsWith(name))) {
        this.assigned.set(name, name)
        continue
      }
      const full = [...this.assigned.keys()].find((c) => c.length > name.length && c.startsWith(name))
      this.assigned.set(name, full === undefined ? namePlaceholder(this.stem, ++this.count, name.length) : this.assigned.get(full)!.slice(0, name.length))
    }
    return this.assigned
  }
}

function namePlaceholder(stem: string, n: number, length: number): string {
  for (const candidate of [`${stem}${n}`, `${stem[0]}${n}`]) if (candidate.length <= length) return padTo(candidate, length)
  return 'x'.repeat(length)
}

export function padTo(s: string, length: number): string {
  return s.length > length ? 'x'.repeat(length) : s + 'x'.repeat(length - s.length)
}

