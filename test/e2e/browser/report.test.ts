import {mkdirSync} from 'node:fs'
import {fileURLToPath, pathToFileURL} from 'node:url'
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runAnalyze} from '../../../src/services/analyze.js'
import {chromiumInstalled, inCi, launchChromium} from './chromium.js'

const DB003 = fileURLToPath(new URL('../../../fixtures/runs/db-003-timeout', import.meta.url))
/** Screenshots, the PDF and the page itself, for a person to look at (gitignored). */
const OUT = fileURLToPath(new URL('../../../test-output/html-report/', import.meta.url))
const SILENT = {step: () => undefined, done: () => undefined}

/** The little of the DOM these checks use (the test compiles without the DOM library; casts only: the functions run in the page). */
interface DomElement {
  getAttribute(name: string): string | null
  closest(selector: string): DomElement | null
  readonly open?: boolean
}
type DomWindow = {getComputedStyle(e: unknown): {backgroundColor: string}}

describe('chromium for the browser test', () => {
  it('is installed wherever CI runs (.ci/run installs it when it is missing)', () => {
    // outside CI a machine without chromium skips the browser test below; in CI it must run
    if (inCi()) expect(chromiumInstalled(), '/usr/bin/chromium is missing: .ci/run should have installed the chromium package').toBe(true)
  })
})

describe.skipIf(!chromiumInstalled())('the TASK-DB-003 report in Debian’s chromium (headless, playwright-core)', () => {
  let browser: Browser
  let url: string

  beforeAll(async () => {
    mkdirSync(OUT, {recursive: true})
    const file = `${OUT}db-003-timeout.html`
    await runAnalyze(DB003, {tool: {name: 'guardkit-replay', version: 'browser-test'}, format: 'html', out: file, names: [], with: [], without: [], progress: SILENT})
    url = pathToFileURL(file).href
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
  })

  /** A page that records every request it makes and every error it reports. */
  async function open(options: {javaScriptEnabled: boolean; width?: number}): Promise<{page: Page; requests: string[]; errors: string[]}> {
    const context = await browser.newContext({javaScriptEnabled: options.javaScriptEnabled, viewport: {width: options.width ?? 1280, height: options.width === undefined ? 900 : 844}})
    const page = await context.newPage()
    page.setDefaultTimeout(5_000)
    const requests: string[] = []
    const errors: string[] = []
    page.on('request', (r) => requests.push(r.url()))
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text())
    })
    page.on('pageerror', (e) => errors.push(String(e)))
    await page.goto(url, {waitUntil: 'load'})
    return {page, requests, errors}
  }

  it('shows 18 turns, the fixed-profile stall marker at turn 5 and the cancellation at turn 18, loading nothing else', async () => {
    const {page, requests, errors} = await open({javaScriptEnabled: true})
    const timeline = page.locator('.tl[data-task="TASK-DB-003"]')
    await expect.poll(() => timeline.locator('[data-turn]').count()).toBe(18)
    expect(await timeline.locator('[data-turn]').evaluateAll((rows) => rows.map((r) => Number((r as unknown as DomElement).getAttribute('data-turn'))))).toEqual(Array.from({length: 18}, (_, i) => i + 1))
    const fixed = page.locator('#TASK-DB-003-t5 [data-marker="fixed-stall"]')
    expect(await fixed.isVisible()).toBe(true)
    // fixed's own test-failure wording is not in the records (fixtures/runs/db-003-timeout/README.md): the marker is conditional
    expect(await fixed.textContent()).toMatch(/fixed stops here if fixed's own feedback \(not in the records\) repeated/)
    const cancelled = page.locator('#TASK-DB-003-t18 [data-marker="cancelled"]')
    expect(await cancelled.isVisible()).toBe(true)
    expect(await page.locator('#TASK-DB-003-t18 [data-marker="timeout"]').isVisible()).toBe(true)
    // no window is drawn for a stall that holds in one branch only
    expect(await timeline.locator('[data-window="fixed"]').count()).toBe(0)
    // the same signature has the same colour in the browser's own computed style
    const colour = (turn: number, lane: string) => page.locator(`#TASK-DB-003-t${turn} [data-lane="${lane}"] [data-sig]`).evaluate((e) => (globalThis as unknown as DomWindow).getComputedStyle(e).backgroundColor)
    expect(await colour(1, 'recorded')).toBe(await colour(3, 'recorded'))
    expect(await colour(1, 'recorded')).not.toBe(await colour(4, 'recorded'))
    expect(requests).toEqual([url])
    expect(errors).toEqual([])
    await timeline.screenshot({path: `${OUT}db-003-timeline.png`})
    await page.screenshot({path: `${OUT}db-003-page.png`, fullPage: true})
  })

  it('opens a turn from a link, and the optional script only expands and collapses details', async () => {
    const {page, errors} = await open({javaScriptEnabled: true})
    expect(await page.locator('#toolbar').isVisible()).toBe(true)
    await page.locator('[data-finding="ABSOLUTE_RELATIVE_DUPLICATES"] .finding-head a[href="#TASK-DB-003-t7"]').click()
    expect(await page.locator('#TASK-DB-003-t7').evaluate((d) => (d as unknown as DomElement).open)).toBe(true)
    expect(await page.locator('#TASK-DB-003-t7 .tl-more').isVisible()).toBe(true)
    await page.locator('#toolbar button[data-act="open"]').click()
    expect(await page.locator('details:not([open])').count()).toBe(0)
    await page.locator('#toolbar button[data-act="close"]').click()
    expect(await page.locator('details[open]').count()).toBe(0)
    expect(errors).toEqual([])
  })

  it('reads the same without JavaScript: every turn and marker is there, a row opens on a click', async () => {
    const {page, requests} = await open({javaScriptEnabled: false})
    expect(await page.locator('#toolbar').isVisible()).toBe(false)
    expect(await page.locator('.tl[data-task="TASK-DB-003"] [data-turn]').count()).toBe(18)
    expect(await page.locator('#TASK-DB-003-t5 [data-marker="fixed-stall"]').isVisible()).toBe(true)
    await page.locator('#TASK-DB-003-t5 > summary').click()
    expect(await page.locator('#TASK-DB-003-t5 .tl-more').isVisible()).toBe(true)
    expect(requests).toEqual([url])
  })

  it('prints: the toolbar goes, the turns and markers stay', async () => {
    const {page} = await open({javaScriptEnabled: true})
    await page.emulateMedia({media: 'print'})
    expect(await page.locator('#toolbar').isVisible()).toBe(false)
    expect(await page.locator('#TASK-DB-003-t18 [data-marker="cancelled"]').isVisible()).toBe(true)
    await page.pdf({path: `${OUT}db-003.pdf`, format: 'A4', landscape: true, printBackground: true})
  })

  it('puts the failing task first, with its primary cause, and the tasks that went well last, collapsed', async () => {
    const {page} = await open({javaScriptEnabled: true})
    const rows = await page.locator('table.verdicts tbody tr th a').allTextContents()
    expect(rows).toEqual(['TASK-DB-003', 'TASK-DB-001', 'TASK-DB-002'])
    const tasks = await page.locator('.task[data-task]').evaluateAll((els) => els.map((e) => {
      const el = e as unknown as DomElement & {tagName: string}
      return [el.getAttribute('data-task'), el.tagName.toLowerCase(), el.open ?? null]
    }))
    expect(tasks).toEqual([['TASK-DB-003', 'section', null], ['TASK-DB-001', 'details', false], ['TASK-DB-002', 'details', false]])
    expect(await page.locator('#TASK-DB-003 > .primary').isVisible()).toBe(true)
    expect(await page.locator('#TASK-DB-003 > .waste-band').textContent()).toContain('13 turns wasted')
  })

  it('at 390 px (a phone) the page does not scroll sideways and no lane of the timeline is cut off', async () => {
    const {page, errors} = await open({javaScriptEnabled: true, width: 390})
    type Win = {innerWidth: number; document: {documentElement: {scrollWidth: number; clientWidth: number}}}
    const widths = await page.evaluate(() => {
      const w = globalThis as unknown as Win
      return {scroll: w.document.documentElement.scrollWidth, client: w.document.documentElement.clientWidth, inner: w.innerWidth}
    })
    expect(widths.scroll).toBeLessThanOrEqual(widths.client)
    type Box = {getBoundingClientRect(): {left: number; right: number; width: number}}
    const lanes = await page.locator('#TASK-DB-003 [data-lane]').evaluateAll((cells) => cells.map((c) => {
      const r = (c as unknown as Box).getBoundingClientRect()
      return {left: r.left, right: r.right, width: r.width}
    }))
    // every turn has a cell in each lane (recorded, the era, legacy, fixed)
    expect(lanes.length % 18).toBe(0)
    expect(lanes.length).toBeGreaterThanOrEqual(18 * 3)
    for (const l of lanes) {
      expect(l.left).toBeGreaterThanOrEqual(0)
      expect(l.right).toBeLessThanOrEqual(widths.inner)
      expect(l.width).toBeGreaterThan(0)
    }
    expect(errors).toEqual([])
    await page.screenshot({path: `${OUT}db-003-390px.png`, fullPage: true})
  })

  it('headings go down one level at a time, and nothing overrides details/summary roles', async () => {
    const {page} = await open({javaScriptEnabled: true})
    const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((hs) => hs.map((h) => Number((h as unknown as {tagName: string}).tagName.slice(1))))
    expect(levels[0]).toBe(1)
    for (let i = 1; i < levels.length; i++) expect(levels[i]!).toBeLessThanOrEqual(levels[i - 1]! + 1)
    expect(await page.locator('summary[role], details[role], [role="row"], [role="table"]').count()).toBe(0)
  })

  it('opens and closes a turn, and a collapsed task, from the keyboard', async () => {
    const {page} = await open({javaScriptEnabled: false})
    const turn = page.locator('#TASK-DB-003-t5')
    await turn.locator('> summary').focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => turn.evaluate((d) => (d as unknown as DomElement).open)).toBe(true)
    expect(await turn.locator('.tl-more').isVisible()).toBe(true)
    await page.keyboard.press('Enter')
    await expect.poll(() => turn.evaluate((d) => (d as unknown as DomElement).open)).toBe(false)
    // Tab reaches the summary of a collapsed task; Space opens it
    const task = page.locator('details.task#TASK-DB-001')
    await task.locator('> summary').focus()
    await page.keyboard.press(' ')
    await expect.poll(() => task.evaluate((d) => (d as unknown as DomElement).open)).toBe(true)
  })
})
