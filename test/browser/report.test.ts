// `guard report --html` in a real headless browser: Chromium from the npm package pinned in
// test/browser/browser.json, installed into .browser/ by `npm test` (scripts/browser.mjs). The page
// is opened from its file alone: every request is counted and none but the page's own may go out.
// Needs the build (the demo log is judged by the built engine: scripts/report-demo.mjs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report } from '../../packages/cli/src/commands/report.js';
import { captureIo } from '../../packages/cli/test/capture-io.js';
import { scaled } from '../machine.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** What the test uses of puppeteer's Browser and Page. */
interface Page {
  setRequestInterception(on: boolean): Promise<void>;
  on(event: 'request', listener: (request: Request) => void): void;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  emulateMediaFeatures(features: { name: string; value: string }[]): Promise<void>;
  goto(url: string, options?: { waitUntil: string }): Promise<unknown>;
  /** Runs an expression in the page (a string: the tests are typed without the DOM's types). */
  evaluate(expression: string): Promise<unknown>;
  keyboard: { press(key: string): Promise<void> };
  close(): Promise<void>;
}
interface Request {
  url(): string;
  continue(): Promise<void>;
  abort(): Promise<void>;
}
interface Browser {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

const scripts = async <T>(name: string): Promise<T> =>
  (await import(pathToFileURL(join(ROOT, 'scripts', name)).href)) as T;

let browser: Browser | undefined;
const scratch = mkdtempSync(join(tmpdir(), 'guard-browser-test-'));
const page = join(scratch, 'report.html');
let logged: { rules: string[] }[] = [];

// the first start unpacks Chromium into the temporary folder (about 15 s on a busy machine)
beforeAll(async () => {
  try {
    browser = await (await scripts<{ launchBrowser(): Promise<Browser> }>('browser.mjs')).launchBrowser();
  } catch (error) {
    const missing = error instanceof Error ? error.message : String(error);
    // CI must run this test: a browser that is missing there is a failure, not a skip
    if (process.env['CI'] === 'true')
      throw new Error(`the report's browser test cannot run in CI: ${missing}`, { cause: error });
    console.warn(`SKIPPED the report's browser test: ${missing}`);
    return;
  }
  const guardHome = join(scratch, 'guard');
  logged = await (
    await scripts<{ writeDemoLog(home: string): Promise<{ rules: string[] }[]> }>('report-demo.mjs')
  ).writeDemoLog(guardHome);
  const captured = captureIo({ cwd: scratch, home: scratch });
  await report({ json: false, html: page }, { ...captured.io, env: { GUARD_HOME: guardHome } });
}, scaled(90_000));

afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Opens a file in a new tab, counting every request but the file's own (all of them stopped). */
async function open(file: string, scheme = 'light'): Promise<{ tab: Page; others: string[]; errors: string[] }> {
  if (browser === undefined) throw new Error('no browser');
  const tab = await browser.newPage();
  const own = pathToFileURL(file).href;
  const others: string[] = [];
  const errors: string[] = [];
  await tab.setRequestInterception(true);
  tab.on('request', (request) => {
    if (request.url() === own) void request.continue();
    else {
      others.push(request.url());
      void request.abort();
    }
  });
  tab.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
  await tab.goto(own, { waitUntil: 'load' });
  return { tab, others, errors };
}

// each test skips (outside CI only: beforeAll fails there) when the browser could not start
describe('the HTML report in a headless browser', () => {
  it('opens from the file alone: no request to anything else, no console error', async (context) => {
    if (browser === undefined) return context.skip();
    const { tab, others, errors } = await open(page);
    expect(others).toEqual([]);
    expect(errors).toEqual([]);
    await tab.close();
  });

  it('the counters can fail: a page that loads an image and logs an error is caught by both', async (context) => {
    if (browser === undefined) return context.skip();
    const control = join(scratch, 'control.html');
    writeFileSync(control, '<!doctype html><title>x</title><img src="http://127.0.0.1:9/x.png"><p>x</p>');
    const { tab, others, errors } = await open(control);
    expect(others).toEqual(['http://127.0.0.1:9/x.png']);
    expect(errors.length).toBeGreaterThan(0);
    await tab.close();
  });

  it('draws its charts with a size, shows every rule id and the command with <script> in it as text', async (context) => {
    if (browser === undefined) return context.skip();
    const { tab } = await open(page);
    const seen = (await tab.evaluate(`({
      charts: [...document.querySelectorAll('svg.chart')].map((svg) => {
        const box = svg.getBoundingClientRect();
        return { width: box.width, height: box.height, bars: svg.querySelectorAll('rect').length };
      }),
      rules: [...document.querySelectorAll('code.rule')].map((code) => code.textContent),
      text: document.body.innerText,
      scripts: document.querySelectorAll('script').length,
      tables: document.querySelectorAll('table').length,
    })`)) as {
      charts: { width: number; height: number; bars: number }[];
      rules: string[];
      text: string;
      scripts: number;
      tables: number;
    };
    // one chart per agent (3), per rule over time, top rules; no projects in a log
    expect(seen.charts).toHaveLength(5);
    for (const chart of seen.charts) {
      expect(chart.width).toBeGreaterThan(100);
      expect(chart.height).toBeGreaterThan(50);
      expect(chart.bars).toBeGreaterThan(0);
    }
    expect(seen.tables).toBe(seen.charts.length);
    const rules = new Set(logged.flatMap((entry) => entry.rules));
    expect(rules.size).toBeGreaterThan(5);
    expect(new Set(seen.rules)).toEqual(rules);
    expect(seen.text).toContain('echo "<script>alert(1)</script></style>" > /etc/hosts');
    expect(seen.scripts).toBe(0);
    await tab.close();
  });

  it('is light or dark as the reader asks', async (context) => {
    if (browser === undefined) return context.skip();
    const colours: string[] = [];
    for (const scheme of ['light', 'dark']) {
      const { tab } = await open(page, scheme);
      colours.push(String(await tab.evaluate('getComputedStyle(document.body).backgroundColor')));
      await tab.close();
    }
    expect(colours).toEqual(['rgb(255, 255, 255)', 'rgb(21, 23, 26)']);
  });

  for (const scheme of ['light', 'dark'])
    it(`every kind of text has a contrast of at least 4.5:1 on what is behind it (${scheme})`, async (context) => {
      if (browser === undefined) return context.skip();
      const { tab } = await open(page, scheme);
      // WCAG 2's contrast ratio of each text's colour (an SVG text's fill) against the first
      // background colour behind it
      const ratios = (await tab.evaluate(`(() => {
      const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
      const lum = ([r, g, b]) => {
        const f = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const behind = (el) => {
        for (let at = el; at; at = at.parentElement) {
          const c = rgb(getComputedStyle(at).backgroundColor);
          if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
        }
        return [255, 255, 255];
      };
      const out = {};
      for (const selector of ['body', 'p', '.meta', 'nav a', 'dt', 'dd', 'mark', '.badge', 'code.rule', 'pre.cmd code', 'summary', 'caption', 'th', 'td', '.legend li', '.chart .tick', '.chart .name', 'footer p']) {
        const el = document.querySelector(selector);
        if (!el) { out[selector] = 0; continue; }
        const style = getComputedStyle(el);
        const fg = rgb(el instanceof SVGElement ? style.fill : style.color).slice(0, 3);
        const [a, b] = [lum(fg), lum(behind(el))].sort((x, y) => y - x);
        out[selector] = Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100;
      }
      return out;
    })()`)) as Record<string, number>;
      const low = Object.entries(ratios).filter(([, ratio]) => ratio < 4.5);
      expect(low).toEqual([]);
      expect(Object.keys(ratios)).toHaveLength(18);
      await tab.close();
    });

  it('the keyboard reaches the skip link first, then the sections, and opens a table', async (context) => {
    if (browser === undefined) return context.skip();
    const { tab } = await open(page);
    const focused = async (): Promise<string> =>
      String(await tab.evaluate("document.activeElement.tagName + ' ' + document.activeElement.textContent"));
    await tab.keyboard.press('Tab');
    expect(await focused()).toBe('A Skip to the report');
    await tab.keyboard.press('Tab');
    expect(await focused()).toBe('A Decisions over time, per agent');
    for (let i = 0; i < 5; i++) await tab.keyboard.press('Tab');
    expect(await focused()).toBe('SUMMARY The numbers as a table');
    await tab.keyboard.press('Enter');
    expect(await tab.evaluate("document.querySelector('details').open")).toBe(true);
    await tab.close();
  });
});
