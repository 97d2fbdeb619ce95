/**
 * A real Chromium for the portal's browser tests (playwright-core, Debian's /usr/bin/chromium):
 * launched once per file, a page per viewport (desktop 1280×800, phone 390×844), every console
 * error, page error, failed request and CSP violation of a page kept for the test to assert, and
 * full-page screenshots written to test/.tmp/portal-shots/ for a person to look at.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium the tests drive: VIR_CHROMIUM, else Debian's. */
export const CHROMIUM = process.env.VIR_CHROMIUM ?? '/usr/bin/chromium';

/** Where screenshots go (kept after the run, ignored by git with the rest of test/.tmp). */
export const SHOTS_DIR = fileURLToPath(new URL('../.tmp/portal-shots/', import.meta.url));

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** Screens of a long page shot one by one (after the full page). */
const MAX_TILES = 4;

/** A page and what went wrong in it (console errors, uncaught errors, CSP violations, failed requests). */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

export interface BrowserHarness {
  browser: Browser;
  /** A new page (its own context: cookies apart) at a viewport, its problems recorded. */
  open(viewport?: ViewportName, options?: { acceptDownloads?: boolean }): Promise<WatchedPage>;
  /**
   * A full-page screenshot `<name>-<viewport>.png` in SHOTS_DIR, and of a long page its first
   * screens as `<name>-<viewport>-<n>.png` (a person reads those at their size); the full one's path.
   */
  shoot(page: Page, name: string): Promise<string>;
  /**
   * Opens `url` at each viewport, waits for `ready` (when given), shoots each; the paths, and the
   * problems seen on the pages.
   */
  shootBoth(
    url: string,
    name: string,
    ready?: (page: Page) => Promise<unknown>,
  ): Promise<{ paths: string[]; problems: string[] }>;
  close(): Promise<void>;
}

/** What the predicates below read of a page's DOM (the tests are typed without the DOM's types). */
interface Dom {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): { length: number };
  documentElement: { scrollWidth: number; scrollHeight: number };
}
interface Win {
  document: Dom;
  innerWidth: number;
}

/**
 * Waits until the text of `selector` is no longer `from` (functions, not strings: a page whose
 * CSP has no 'unsafe-eval' refuses a string predicate).
 */
export async function waitForTextChange(
  page: Page,
  selector: string,
  from: string,
  timeout = 60_000,
): Promise<void> {
  await page.waitForFunction(
    ([sel, old]) => {
      const el = (globalThis as unknown as Win).document.querySelector(sel);
      return el !== null && el.textContent !== old;
    },
    [selector, from] as const,
    { timeout },
  );
}

/** Waits until the text of `selector` matches `pattern`. */
export async function waitForTextMatch(
  page: Page,
  selector: string,
  pattern: RegExp,
  timeout = 60_000,
): Promise<void> {
  await page.waitForFunction(
    ([sel, source, flags]) => {
      const el = (globalThis as unknown as Win).document.querySelector(sel);
      return el !== null && new RegExp(source, flags).test(el.textContent ?? '');
    },
    [selector, pattern.source, pattern.flags] as const,
    { timeout },
  );
}

/** Waits until `selector` matches `count` elements (by default: as many as `all` matches). */
export async function waitForCount(
  page: Page,
  selector: string,
  count: number | { all: string },
  timeout = 30_000,
): Promise<void> {
  await page.waitForFunction(
    ([sel, n]) => {
      const d = (globalThis as unknown as Win).document;
      const want = typeof n === 'number' ? n : d.querySelectorAll(n.all).length;
      return d.querySelectorAll(sel).length === want;
    },
    [selector, count] as const,
    { timeout },
  );
}

/** A box as the page lays it out. */
interface Box {
  left: number;
  right: number;
  width: number;
}

/**
 * The table cells of the portal's own tables (`.stack`) not wholly inside the window, each as
 * `<caption>: <column>` once: on a phone a reader should see every value without scrolling
 * sideways. A cell that is not shown at all (width 0) is left out.
 */
export async function cellsOutOfSight(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    interface El {
      getBoundingClientRect(): Box;
      getAttribute(name: string): string | null;
      closest(selector: string): { querySelector(s: string): { textContent: string | null } | null } | null;
    }
    const d = (globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<El> } })
      .document;
    const width = (globalThis as unknown as Win).innerWidth;
    const out = new Set<string>();
    for (const cell of Array.from(d.querySelectorAll('.stack tbody td, .stack tbody th'))) {
      const box = cell.getBoundingClientRect();
      if (box.width === 0 || (box.left >= -1 && box.right <= width + 1)) continue;
      const caption = cell.closest('table')?.querySelector('caption')?.textContent?.trim() ?? '?';
      out.add(`${caption}: ${cell.getAttribute('data-label') ?? '(row header)'}`);
    }
    return [...out];
  });
}

/** How many CSS pixels the page is wider than its window (0: it fits). */
export async function overflowX(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = globalThis as unknown as Win;
    return Math.max(0, w.document.documentElement.scrollWidth - w.innerWidth);
  });
}

/** Whether the browser tests can run here (the Chromium binary exists). */
export const hasChromium = (): boolean => existsSync(CHROMIUM);

/**
 * Launches Chromium headless.
 *
 * @example
 * const b = await launchBrowser();
 * const { page, problems } = await b.open('phone');
 * await page.goto(url); await b.shoot(page, 'jobs');
 * await b.close();
 */
export async function launchBrowser(): Promise<BrowserHarness> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--font-render-hinting=none'],
  });
  const contexts: BrowserContext[] = [];
  const viewportOf = new WeakMap<Page, ViewportName>();

  const open: BrowserHarness['open'] = async (viewport = 'desktop', options = {}) => {
    const context = await browser.newContext({
      viewport: VIEWPORTS[viewport],
      deviceScaleFactor: 1,
      isMobile: viewport === 'phone',
      hasTouch: viewport === 'phone',
      acceptDownloads: options.acceptDownloads ?? true,
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    contexts.push(context);
    const page = await context.newPage();
    viewportOf.set(page, viewport);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => {
      // A navigation away or a closed event stream is no problem of the page.
      const failure = r.failure()?.errorText ?? '';
      if (!/ERR_ABORTED/.test(failure)) problems.push(`request failed: ${r.url()} ${failure}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    return { page, context, problems };
  };

  const shoot: BrowserHarness['shoot'] = async (page, name) => {
    const base = join(SHOTS_DIR, `${name}-${viewportOf.get(page) ?? 'page'}`);
    await page.screenshot({ path: `${base}.png`, fullPage: true });
    const { width, height } = page.viewportSize() ?? VIEWPORTS.desktop;
    const total = await page.evaluate(
      () => (globalThis as unknown as Win).document.documentElement.scrollHeight,
    );
    const screen = Math.round(height * 1.5);
    for (let n = 1, y = 0; y < total && n <= MAX_TILES && total > screen; n++, y += screen)
      await page.screenshot({
        path: `${base}-${n}.png`,
        fullPage: true,
        clip: { x: 0, y, width, height: Math.min(screen, total - y) },
      });
    return `${base}.png`;
  };

  return {
    browser,
    open,
    shoot,
    async shootBoth(url, name, ready) {
      const paths: string[] = [];
      const problems: string[] = [];
      for (const viewport of ['desktop', 'phone'] as const) {
        const w = await open(viewport);
        await w.page.goto(url);
        if (ready) await ready(w.page);
        paths.push(await shoot(w.page, name));
        problems.push(...w.problems.map((p) => `${viewport}: ${p}`));
        await w.context.close();
      }
      return { paths, problems };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
    },
  };
}
