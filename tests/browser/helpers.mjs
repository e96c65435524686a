// Shared by the browser tests: Debian's Chromium through playwright-core, the server under
// test, and readers of what the page shows. No browser is ever downloaded.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, '../..');
export const SCREENSHOTS = path.join(REPO, 'target', 'playground');

/** Every wait is bounded; a step that needs longer than this is a failure. */
export const WAIT_MS = 10_000;

export const PUZZLE =
  '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
export const SOLUTION =
  '534678912672195348198342567859761423426853791713924856961537284287419635345286179';

/** The server started by scripts/ci/browser-test.sh. */
export function baseUrl() {
  const url = process.env.PLAYGROUND_URL;
  if (!url || !/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) {
    throw new Error('PLAYGROUND_URL must be http://127.0.0.1:PORT (run scripts/ci/browser-test.sh)');
  }
  return url;
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    timeout: 30_000,
  });
}

/**
 * A fresh context and page that record console errors and uncaught exceptions.
 * `problems` lists them; `allow(pattern)` expects a console error matching it (the 404 of a
 * route the server does not have yet, say), which is then not a problem. `address` is the
 * path and query opened (`/?puzzle=...`).
 */
export async function openPage(browser, options = {}, url = baseUrl(), address = '/') {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    ...options,
  });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const problems = [];
  const allowed = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = `${message.text()} (${message.location().url})`;
    if (!allowed.some((pattern) => pattern.test(text))) problems.push(`console: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  const response = await page.goto(`${url}${address}`);
  await page.waitForSelector('html[data-ready="true"]');
  return {
    context,
    page,
    response,
    problems,
    allow: (pattern) => allowed.push(pattern),
  };
}

/**
 * One test file's browser, launched before its tests and closed after them, and the pages
 * its tests open. `open(options, address, url)` opens `address` (`/`) of `url` (the server
 * under test) in a fresh context; `closeAll()`, at a test's end, closes them all and fails
 * when any logged a console error or threw.
 */
export function browserSession() {
  let browser;
  let pages = [];
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });
  return {
    async open(options = {}, address = '/', url = baseUrl()) {
      const opened = await openPage(browser, options, url, address);
      pages.push(opened);
      return opened;
    },
    async closeAll() {
      const problems = pages.flatMap((opened) => opened.problems);
      for (const opened of pages) await opened.context.close();
      pages = [];
      assert.deepEqual(problems, [], 'console errors or uncaught exceptions');
    },
  };
}

/** The locator of one cell, 0-based. */
export function cell(page, row, col) {
  return page.locator(`[role="gridcell"][data-row="${row}"][data-col="${col}"]`);
}

/** The board as shown: 81 characters, "." for an empty cell. */
export async function shownBoard(page) {
  return page.$$eval('[role="gridcell"] .value', (values) =>
    values.map((value) => value.textContent || '.').join(''),
  );
}

/** Cells (as "row,col") carrying a class. */
export async function cellsWithClass(page, name) {
  return page.$$eval(`[role="gridcell"].${name}`, (cells) =>
    cells.map((c) => `${c.dataset.row},${c.dataset.col}`),
  );
}

/** The pencil marks shown in one cell, as digit strings. */
export async function marksShown(page, row, col) {
  return cell(page, row, col)
    .locator('.mark.on')
    .evaluateAll((marks) => marks.map((mark) => mark.dataset.digit));
}

/** Waits until the status line says something matching `pattern`, and returns it. */
export async function statusMatching(page, pattern) {
  const status = page.locator('#status', { hasText: pattern });
  await status.waitFor();
  return status.textContent();
}

/** Loads a puzzle through the paste box, as a person would. */
export async function pasteIntoBox(page, text) {
  await page.fill('#paste', text);
  await page.click('#paste-load');
}

/** Runs axe-core on the page; returns the serious and critical violations. */
export async function seriousViolations(page) {
  const require = createRequire(import.meta.url);
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, so the page's CSP does not apply to it.
  await page.evaluate(source);
  const results = await page.evaluate(() =>
    globalThis.axe.run(document, { resultTypes: ['violations'] }),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target).join(' ')}`);
}

export async function screenshot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`screenshot: ${path.relative(REPO, file)}`);
  return file;
}

/**
 * Starts a server of our own on a free port, for a test that stops it on purpose.
 * Resolves with its URL once it logs that it listens; `stop()` ends it and waits.
 */
export function startServer() {
  const binary = process.env.SUDOKU_BIN;
  if (!binary) throw new Error('SUDOKU_BIN must name the built server');
  const child = spawn(binary, ['--listen', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: 'info', SUDOKU_LOG_FORMAT: 'text' },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`the server did not say it listens within ${WAIT_MS} ms:\n${log}`));
    }, WAIT_MS);
    const read = (chunk) => {
      log += chunk;
      const found = /listening addr=(127\.0\.0\.1:\d+)/.exec(log);
      if (found) {
        clearTimeout(timer);
        resolve({ url: `http://${found[1]}`, stop });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${log}`));
    });
  });
}
