#!/usr/bin/env node
// The headless browser the HTML report's test drives: Chromium as an npm package that ships its build
// inside its tarball (@sparticuz/chromium: only Node and the system's NSS and expat libraries, which
// a Debian machine has) and puppeteer-core to drive it, pinned in test/browser/browser.json and
// installed from the package registry into .browser/ (not a dependency of the repository: about
// 120 MB, fetched only by the test command, like the agents of scripts/agents.mjs).
//   node scripts/browser.mjs install   installs the pinned packages when missing or at another version
//   node scripts/browser.mjs check     starts the browser once and prints its version
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** @type {Record<string, string>} package name → version */
export const PINS = JSON.parse(readFileSync(join(root, 'test/browser/browser.json'), 'utf8'));
export const browserFolder = join(root, '.browser');

function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(join(browserFolder, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** The pinned packages not installed at their version. */
export const missing = () => Object.keys(PINS).filter((name) => installedVersion(name) !== PINS[name]);

function install() {
  rmSync(browserFolder, { recursive: true, force: true });
  mkdirSync(browserFolder, { recursive: true });
  writeFileSync(
    join(browserFolder, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: PINS }, null, 2)}\n`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // no install scripts: puppeteer's would download a browser of its own
  const args = ['install', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', '--loglevel=error'];
  return new Promise((resolve, reject) => {
    const child = spawn(npm, args, {
      cwd: browserFolder,
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: process.platform === 'win32',
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 && missing().length === 0
        ? resolve()
        : reject(new Error(`could not install the browser for the report's test (npm exit ${code})`)),
    );
  });
}

/**
 * Starts the headless browser, with a home folder of its own (Chromium writes caches there) that
 * `close()` removes. Throws with the reason when it is not installed or does not start.
 */
export async function launchBrowser() {
  const absent = missing();
  if (absent.length > 0)
    throw new Error(`the browser is not installed (${absent.join(', ')}): run node scripts/browser.mjs install`);
  const home = mkdtempSync(join(tmpdir(), 'guard-browser-'));
  // @sparticuz/chromium unpacks its build into the temp folder and reuses whatever it finds there:
  // a shared /tmp/chromium would be another checkout's, another user's or another version's (or a
  // cut unpack). Its temp folder is one inside the pinned install, which install() wipes.
  const unpacked = join(browserFolder, 'tmp');
  mkdirSync(unpacked, { recursive: true, mode: 0o700 });
  const before = process.env['TMPDIR'];
  process.env['TMPDIR'] = unpacked;
  try {
    const load = createRequire(join(browserFolder, 'package.json'));
    const chromium = (await import(pathToFileURL(load.resolve('@sparticuz/chromium')).href)).default;
    const puppeteer = (await import(pathToFileURL(load.resolve('puppeteer-core')).href)).default;
    const executablePath = await chromium.executablePath();
    if (!executablePath.startsWith(`${unpacked}/`))
      throw new Error(`the browser was unpacked outside its install: ${executablePath}`);
    const browser = await puppeteer.launch({
      executablePath,
      args: chromium.args,
      headless: true,
      userDataDir: join(home, 'profile'),
      env: {
        ...process.env,
        TMPDIR: unpacked,
        HOME: home,
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_CACHE_HOME: join(home, 'cache'),
      },
    });
    const close = browser.close.bind(browser);
    browser.close = async () => {
      try {
        await close();
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    };
    return browser;
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  } finally {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command] = process.argv.slice(2);
  if (command === 'install') {
    const absent = missing();
    if (absent.length > 0) {
      console.log(
        `installing the browser the report's test drives: ${absent.map((name) => `${name}@${PINS[name]}`).join(', ')}`,
      );
      await install();
    }
  } else if (command === 'check') {
    const browser = await launchBrowser();
    console.log(await browser.version());
    await browser.close();
  } else {
    console.error('usage: node scripts/browser.mjs install | check');
    process.exit(2);
  }
}
