// Scanning a photo in the playground, in Debian's Chromium against the real server: the
// file input sends the photo to POST /scan, the page shows the reading over the photo with
// the doubtful cells ringed and listed, a correction made there is what loads, the printed
// digits load as givens and the handwritten ones as the player's, and a photo without a
// grid or of another type gets the server's words.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import {
  REPO,
  baseUrl,
  cellsWithClass,
  browserSession,
  screenshot,
  seriousViolations,
  shownBoard,
  statusMatching,
  WAIT_MS,
} from './helpers.mjs';

const TEST_TIMEOUT = { timeout: 60_000 };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** Photos of the dataset's training splits: a printed puzzle, and the same one filled in by hand. */
const PRINTED = path.join(REPO, 'data/photos/images/image1.jpg');
const FILLED_IN = path.join(REPO, 'data/photos/mixed/image1.jpg');

/** The 81 digits a `.dat` file of the dataset lists, as a board line ('.' for 0). */
function datLine(file) {
  const digits = readFileSync(path.join(REPO, file), 'utf8').trim().split(/\s+/).slice(-81);
  return digits.map((digit) => (digit === '0' ? '.' : digit)).join('');
}

const GIVENS = datLine('data/photos/images/image1.dat');
const FILLED = datLine('data/photos/mixed/image1.dat');

const session = browserSession();
const { closeAll } = session;

/** Without a service worker: the answer of POST /scan is then readable by the test as well. */
const open = (options = {}) => session.open({ serviceWorkers: 'block', ...options });

/**
 * Chooses `file` in the scan input, as the Scan button's file picker would, and waits for
 * the page's POST /scan. The answer the page got is asked again from here (the browser's
 * copy of the body is not kept for tests): the scan is deterministic.
 */
async function scanFile(page, file) {
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/scan');
  await page.setInputFiles('#scan-file', file);
  const response = await answered;
  const again = await fetch(`${baseUrl()}/scan?solve=true`, {
    method: 'POST',
    headers: { 'Content-Type': 'image/jpeg' },
    body: readFileSync(file),
    signal: AbortSignal.timeout(WAIT_MS),
  });
  return { response, answer: await again.json() };
}

describe('scanning a photo', () => {
  test('a printed puzzle is shown as read over the photo, and loads as givens', TEST_TIMEOUT, async () => {
    const { page } = await open();
    const { response, answer } = await scanFile(page, PRINTED);
    assert.equal(response.status(), 200);
    assert.equal(answer.board, GIVENS, 'the server reads this training photo right');
    await page.locator('#scan-panel').waitFor({ state: 'visible' });
    // The photo is shown from the player's own file.
    assert.match(await page.getAttribute('#scan-image', 'src'), /^blob:/);

    // The overlay: one digit per given read, a ring per doubtful cell, the grid's outline.
    const digitsDrawn = await page.locator('#scan-layer text').count();
    assert.equal(digitsDrawn, GIVENS.replaceAll('.', '').length);
    const unsure = answer.cells.filter((cell) => cell.confidence < 0.9).length;
    assert.equal(await page.locator('#scan-layer circle.scan-unsure').count(), unsure);
    assert.equal(await page.locator('#scan-unsure li').count(), unsure);
    assert.equal(await page.locator('#scan-layer polygon.scan-outline').count(), 1);
    const summary = await page.textContent('#scan-summary');
    assert.match(summary, new RegExp(`Read ${GIVENS.replaceAll('.', '').length} printed digits and 0 written by hand`));
    assert.deepEqual(await seriousViolations(page), []);

    await page.click('#scan-load');
    await statusMatching(page, /Scanned puzzle loaded/);
    assert.equal(await shownBoard(page), GIVENS);
    assert.equal(await page.textContent('#puzzle-title'), 'Scanned puzzle');
    assert.equal((await cellsWithClass(page, 'given')).length, GIVENS.replaceAll('.', '').length);
    assert.ok(await page.locator('#scan-panel').isHidden());
    // The givens' solution came with the scan: Solve fills the rest with it.
    await page.click('#solve');
    await statusMatching(page, /Solved by the server/);
    assert.equal(await shownBoard(page), answer.solution.solution);
    await closeAll();
  });

  test('a doubtful cell corrected in the review loads as corrected', TEST_TIMEOUT, async () => {
    const { page } = await open();
    const { answer } = await scanFile(page, FILLED_IN);
    const doubtful = answer.cells
      .filter((cell) => cell.confidence < 0.9)
      .sort((a, b) => a.confidence - b.confidence || a.row - b.row || a.col - b.col);
    assert.ok(doubtful.length > 0, 'this photo has doubtful cells to correct');
    const first = doubtful[0];
    const corrected = ((first.digit ?? 0) % 9) + 1;
    const item = page.locator('#scan-unsure li').first();
    assert.match(await item.textContent(), new RegExp(`Row ${first.row + 1}, col. ${first.col + 1}`));
    await item.locator('select').first().selectOption(String(corrected));
    await item.locator('select').nth(1).selectOption('given');
    await page.click('#scan-load');
    await statusMatching(page, /Scanned puzzle loaded/);
    const shown = await shownBoard(page);
    assert.equal(shown[first.row * 9 + first.col], String(corrected));
    assert.ok((await cellsWithClass(page, 'given')).includes(`${first.row},${first.col}`));
    await closeAll();
  });

  test('on a phone, the handwritten digits load as the player\'s own', TEST_TIMEOUT, async () => {
    const { page } = await open(PHONE);
    const { answer } = await scanFile(page, FILLED_IN);
    assert.equal(answer.board, GIVENS);
    await page.locator('#scan-panel').waitFor({ state: 'visible' });
    await page.locator('#scan-image').evaluate((image) => image.decode());
    await page.locator('#scan-title').evaluate((title) => title.scrollIntoView());
    await screenshot(page, 'playground-scan-phone');
    const entries = FILLED.length - GIVENS.replaceAll('.', '').length - (FILLED.match(/\./g) ?? []).length;
    assert.match(await page.textContent('#scan-summary'), new RegExp(`and ${entries} written by hand`));

    await page.click('#scan-load');
    await statusMatching(page, new RegExp(`${entries} of your digits`));
    assert.equal(await shownBoard(page), FILLED);
    const userCells = await cellsWithClass(page, 'user');
    assert.equal(userCells.length, entries);
    // A digit of the player's can be changed; a given cannot.
    const entry = userCells[0].split(',').map(Number);
    await page.click(`[role="gridcell"][data-row="${entry[0]}"][data-col="${entry[1]}"]`);
    await page.keyboard.press('Delete');
    assert.equal((await shownBoard(page))[entry[0] * 9 + entry[1]], '.');
    // Cancel leaves the board alone.
    await scanFile(page, PRINTED);
    await page.locator('#scan-panel').waitFor({ state: 'visible' });
    await page.click('#scan-cancel');
    await statusMatching(page, /Scan put aside/);
    assert.equal((await shownBoard(page))[entry[0] * 9 + entry[1]], '.');
    await closeAll();
  });

  test('a photo without a grid, or not a photo, gets the server\'s words', TEST_TIMEOUT, async () => {
    const { page, allow } = await open();
    // The browser logs every 4xx answer as a console error; these are expected.
    allow(/status of 422/);
    allow(/status of 415/);
    const before = await shownBoard(page);
    const blank = path.join(REPO, 'tests/data/fuzz/scan_image/png-32x32-black');
    await page.setInputFiles('#scan-file', { name: 'black.png', mimeType: 'image/png', buffer: readFileSync(blank) });
    assert.match(await statusMatching(page, /Could not read the photo/), /grid/i);
    await page.setInputFiles('#scan-file', { name: 'icon.svg', mimeType: 'image/svg+xml', buffer: readFileSync(path.join(REPO, 'src/http/page/icon.svg')) });
    await statusMatching(page, /Could not read the photo: .*image\/jpeg, image\/png or image\/webp/);
    assert.ok(await page.locator('#scan-panel').isHidden());
    assert.equal(await shownBoard(page), before);
    await closeAll();
  });
});
