/**
 * Real Chromium (Debian's /usr/bin/chromium) through playwright-core, with axe-core checks and
 * screenshots saved under test/artifacts/ to look at.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve('test/artifacts');

/**
 * Playwright's own --disable-features list (node_modules/playwright-core/lib/coreBundle.js,
 * `disabledFeatures`, less its Windows and Edge entries) and the omnibox's two popups: Chromium
 * keeps only the last --disable-features, so ours repeats Playwright's. Every window (one per
 * context) otherwise starts two WebUI renderers for the address bar nobody sees; and a spare
 * renderer kept ready for the next page is thrown away when that page opens in another context, as
 * nearly every test's does. Chromium spends most of a test run's CPU (README, Tests).
 */
export const DISABLED_FEATURES = `--disable-features=${[
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'SpareRendererForSitePerProcess',
].join(',')}`;

let shared: Promise<Browser> | null = null;

/**
 * The test process's one Chromium, launched on first use (a launch costs about a second, and
 * every browser test file needs one): tests open pages in contexts of their own and give them
 * back with `releaseBrowser()`. Playwright ends it when the process exits.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium)`);
  shared ??= chromium
    .launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Nothing a page asks for leaves the machine: every host but 127.0.0.1 fails to resolve.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
        DISABLED_FEATURES,
        // The site's pages send Cross-Origin-Opener-Policy: same-origin, so the first page a new tab
        // opens leaves its about:blank for a new browsing context group, and Chromium starts a second
        // renderer for it and throws the first away. Over this limit it reuses a fitting renderer
        // instead (never one of another context or another site): one renderer per tab.
        '--renderer-process-limit=1',
        // Each page lives for seconds in a renderer of its own: V8's optimizing compilers (TurboFan,
        // Maglev) spend more there than their code gives back before the page is closed.
        '--js-flags=--no-opt --no-maglev',
      ],
    })
    .then((browser) => {
      // A crashed Chromium is launched again for the next file.
      browser.on('disconnected', () => (shared = null));
      return browser;
    });
  return shared;
}

/** Closes every context a test file left open in the shared Chromium (a suite's `after`). */
export async function releaseBrowser(): Promise<void> {
  const browser = await shared;
  await Promise.all(browser?.contexts().map((c) => c.close()) ?? []);
}

export interface PageWithErrors {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions (CSP violations show up here). */
  errors: string[];
}

/** `timezoneId`: the viewer's time zone (IANA name; unset = the machine's); `contextOptions`: more for the context (a User-Agent, extra headers such as DNT). */
export async function openPage(
  browser: Browser,
  opts: { width?: number; height?: number; timezoneId?: string; contextOptions?: BrowserContextOptions } = {},
): Promise<PageWithErrors> {
  const context = await browser.newContext({
    ...opts.contextOptions,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  // Twice Playwright's 30 s: CI's machine is sometimes three times slower than usual, and eight
  // tabs loading at once there took over 30 s. A test that fails still fails, only later.
  context.setDefaultTimeout(60_000);
  // A context whose close hangs (Chromium not answering, seen once under load) must not hang the
  // test's hooks: it is given 15 s, then left to the browser's own close at the end of the file.
  const close = context.close.bind(context);
  context.close = (options) => Promise.race([close(options), new Promise<void>((resolve) => setTimeout(resolve, 15_000).unref())]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    // A page deliberately served with 404 (unknown job, 404 page) logs its own status: not a fault.
    // Nor Chromium's own ask for /favicon.ico on a page that names no icon (robots.txt): the
    // site's pages name theirs, /favicon.svg.
    const failedUrl = m.text().startsWith('Failed to load resource') ? m.location().url : null;
    const expected = failedUrl === page.url() || failedUrl?.endsWith('/favicon.ico');
    if (m.type() === 'error' && !expected) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

/** The whole page as a JPEG in test/artifacts/ (to look at; a full-page PNG costs Chromium twice the time). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.jpg`), fullPage: true, type: 'jpeg', quality: 80 });
}

const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Runs in the page: axe's violations, readable; null when the document has no axe yet. */
async function runAxe(extra: string[]): Promise<string[] | null> {
  const axe = (window as any).axe;
  if (!axe) return null;
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
  const runOnly = extra.length
    ? {
        type: 'rule',
        values: [
          ...axe
            .getRules(tags)
            .filter((r: any) => !r.tags.includes('experimental'))
            .map((r: any) => r.ruleId),
          ...extra,
        ],
      }
    : { type: 'tag', values: tags };
  // Violations alone: gathering the passes and the rest, which nothing reads, is a good part of a check's CPU.
  const r = await axe.run(document, { runOnly, resultTypes: ['violations'] });
  return r.violations.map(
    (v: any) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n: any) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
}

/**
 * Runs axe-core (WCAG 2 A/AA rules) and returns readable violations; [] means clean.
 * `rules`: rules to run besides, by id, e.g. axe's experimental 'label-content-name-mismatch' (WCAG 2.5.3).
 */
export async function axeViolations(page: Page, opts: { rules?: string[] } = {}): Promise<string[]> {
  const extra = opts.rules ?? [];
  // evaluate() runs through the DevTools protocol, so the page's CSP does not block axe. Once per
  // document: compiling axe's 650 KB again on every check is most of a check's time. A document
  // without it gets axe and the check in one call, so each check is one round trip to the page.
  return (
    (await page.evaluate(runAxe, extra)) ?? ((await page.evaluate(`${axeSource}\n;(${runAxe})(${JSON.stringify(extra)})`)) as string[])
  );
}

export interface ListItemBox {
  /** Height of the item's box, and the gap from its bottom to the next item's top (0 for the last). */
  height: number;
  gap: number;
}

/**
 * The boxes of the list items under `listSelector` (the nth list it matches), for comparing how
 * two lists are spaced: the same numbers mean the same look.
 */
export async function listItemBoxes(page: Page, listSelector: string, nth = 0): Promise<ListItemBox[]> {
  return page
    .locator(listSelector)
    .nth(nth)
    .evaluate((list) => {
      const items = [...list.children].filter((c) => c.tagName === 'LI').map((li) => li.getBoundingClientRect());
      return items.map((r, i) => ({
        height: Math.round(r.height * 10) / 10,
        gap: i + 1 < items.length ? Math.round((items[i + 1].top - r.bottom) * 10) / 10 : 0,
      }));
    });
}
