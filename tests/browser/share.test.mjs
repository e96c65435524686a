// Share links and the daily puzzle in the playground, in Debian's Chromium against the real
// server: `/?puzzle=...` opens that puzzle, `/?daily=...` today's from the real GET /daily,
// the Daily button asks for the difficulty chosen, and Share copies a link that opens the
// same puzzle (or shows it in a field when the clipboard refuses).

import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import { EXAMPLES } from '../../src/http/page/board.js';
import {
  PUZZLE,
  REPO,
  baseUrl,
  browserSession,
  screenshot,
  seriousViolations,
  shownBoard,
  statusMatching,
} from './helpers.mjs';

const TEST_TIMEOUT = { timeout: 60_000 };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

const session = browserSession();
const { closeAll } = session;

/** Opens `address` in a fresh context; the test's end checks that it logged no error. */
const open = (address, options = {}) => session.open(options, address);

/** Opens `address` and waits for the GET /daily it makes; returns the page and the answer. */
async function openDaily(address, options = {}) {
  // Opened at / first, so that the wait for GET /daily is in place before the link is.
  const { page } = await session.open(options);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/daily');
  await page.goto(`${baseUrl()}${address}`);
  const response = await answered;
  assert.equal(response.status(), 200);
  return { page, response, body: await response.json() };
}

describe('share links and the daily puzzle', () => {
  test('/?puzzle= opens that puzzle, and the address goes back to /', TEST_TIMEOUT, async () => {
    const { page } = await open(`/?puzzle=${PUZZLE}`);
    await statusMatching(page, 'Shared puzzle loaded: 30 givens.');
    assert.equal(await shownBoard(page), PUZZLE);
    assert.equal(await page.textContent('#puzzle-title'), 'Shared puzzle');
    assert.equal(await page.locator('[role="gridcell"].given').count(), 30);
    assert.equal(new URL(page.url()).pathname + new URL(page.url()).search, '/');
    // Undo brings back the board the page had before the link's puzzle.
    await page.click('#undo');
    await statusMatching(page, 'Undone: back to Example puzzle.');
    await closeAll();
  });

  test('/?puzzle= of another size, with 0 for empty cells, as /solve reads it', TEST_TIMEOUT, async () => {
    const line = EXAMPLES[4].puzzle.replaceAll('.', '0');
    const { page } = await open(`/?puzzle=${line}`);
    await statusMatching(page, 'Shared puzzle loaded');
    assert.equal(await page.locator('[role="gridcell"]').count(), 16);
    assert.equal(await shownBoard(page), EXAMPLES[4].puzzle);
    await closeAll();
  });

  test('/?puzzle= that is no puzzle says why, on an empty board', TEST_TIMEOUT, async () => {
    for (const [address, why] of [
      ['/?puzzle=12345', /this has 5/],
      [`/?puzzle=${PUZZLE.replace('5', 'x')}`, /"x" at position 1/],
      ['/?puzzle=', /nothing to read/],
    ]) {
      const { page } = await open(address);
      const status = await statusMatching(page, "The link's puzzle could not be read");
      assert.match(status, why, address);
      assert.equal(await page.getAttribute('#status', 'data-kind'), 'error');
      assert.equal(await shownBoard(page), '.'.repeat(81), address);
      assert.equal(await page.textContent('#puzzle-title'), 'Your puzzle');
    }
    await closeAll();
  });

  test('/?daily=easy opens today\'s easy puzzle from the real GET /daily', TEST_TIMEOUT, async () => {
    const { page, response, body } = await openDaily('/?daily=easy');
    assert.equal(new URL(response.url()).searchParams.get('difficulty'), 'easy');
    assert.match(response.headers()['cache-control'], /^public, max-age=\d+$/);
    assert.equal(body.difficulty, 'easy');
    const givens = [...body.puzzle].filter((c) => c !== '.').length;
    await statusMatching(page, `Daily easy puzzle, ${body.date} loaded: ${givens} givens.`);
    assert.equal(await shownBoard(page), body.puzzle);
    assert.equal(await page.textContent('#puzzle-title'), `Daily easy puzzle, ${body.date}`);
    // Today's, UTC.
    assert.equal(body.date, new Date().toISOString().slice(0, 10));
    await closeAll();
  });

  test('/?daily= of no difficulty says which there are', TEST_TIMEOUT, async () => {
    const { page } = await open('/?daily=impossible');
    const status = await statusMatching(page, 'There is no daily puzzle of difficulty "impossible"');
    assert.match(status, /easy, medium, hard, expert, extreme/);
    await closeAll();
  });

  test('the Daily button asks for the difficulty chosen, and the same puzzle comes twice', TEST_TIMEOUT, async () => {
    const { page } = await open('/');
    await page.selectOption('#difficulty', 'hard');
    const bodies = [];
    for (let press = 0; press < 2; press++) {
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/daily');
      await page.click('#daily');
      const response = await answered;
      assert.equal(new URL(response.url()).searchParams.get('difficulty'), 'hard');
      bodies.push(await response.json());
      await statusMatching(page, `Daily hard puzzle, ${bodies[press].date} loaded`);
    }
    assert.equal(bodies[0].puzzle, bodies[1].puzzle);
    assert.equal(await shownBoard(page), bodies[0].puzzle);
    await closeAll();
  });

  test('Share copies a link to the clipboard that opens the same puzzle', TEST_TIMEOUT, async () => {
    const { page, context } = await open(`/?puzzle=${PUZZLE}`);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await statusMatching(page, 'Shared puzzle loaded');
    // A digit of the player's is not part of the puzzle shared.
    await page.locator('[role="gridcell"][data-row="0"][data-col="2"]').click();
    await page.keyboard.press('4');
    await page.click('#share');
    await statusMatching(page, 'Link to this puzzle copied to the clipboard.');
    assert.equal(await page.getAttribute('#status', 'aria-live'), 'polite');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(link, `${baseUrl()}/?puzzle=${PUZZLE}`);
    assert.equal(await page.isVisible('#share-box'), false);

    const { page: opened } = await open(new URL(link).pathname + new URL(link).search);
    await statusMatching(opened, 'Shared puzzle loaded: 30 givens.');
    assert.equal(await shownBoard(opened), PUZZLE);
    await closeAll();
  });

  test('Share of a variant carries its rules in the link', TEST_TIMEOUT, async () => {
    const { page, context } = await open('/');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await page.selectOption('#variant', 'killer');
    await page.click('#example');
    await statusMatching(page, `${EXAMPLES.killer.name} loaded.`);
    await page.click('#share');
    await statusMatching(page, 'copied');
    const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
    assert.deepEqual(JSON.parse(link.searchParams.get('rules')), EXAMPLES.killer.rules);

    const { page: opened } = await open(link.pathname + link.search);
    await statusMatching(opened, 'Shared puzzle loaded');
    assert.match(await opened.textContent('#rules-summary'), /Killer/);
    assert.equal(await opened.locator('#rules-layer path.cage').count(), EXAMPLES.killer.rules.cages.length);
    await closeAll();
  });

  test('when the clipboard refuses, the link is shown in a field, selected, and said so', TEST_TIMEOUT, async () => {
    const { page } = await open('/', { serviceWorkers: 'block' });
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('refused', 'NotAllowedError')) },
      });
    });
    await page.click('#share');
    await statusMatching(page, 'the link is in the field below, selected, to copy');
    assert.equal(await page.isVisible('#share-box'), true);
    assert.equal(await page.inputValue('#share-link'), `${baseUrl()}/?puzzle=${PUZZLE}`);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'share-link');
    const selected = await page.evaluate(() => {
      const field = document.getElementById('share-link');
      return field.value.slice(field.selectionStart, field.selectionEnd);
    });
    assert.equal(selected, `${baseUrl()}/?puzzle=${PUZZLE}`);
    assert.deepEqual(await seriousViolations(page), [], 'with the link field shown');
    await closeAll();
  });

  test('phone: today\'s puzzle loaded from a link, axe-clean, screenshot for the docs', TEST_TIMEOUT, async () => {
    const { page, body } = await openDaily('/?daily=medium', PHONE);
    await statusMatching(page, `Daily medium puzzle, ${body.date} loaded`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page scrolls sideways: ${width} px wide`);
    assert.deepEqual(await seriousViolations(page), [], 'with the daily puzzle loaded');
    const file = await screenshot(page, 'phone-daily');
    if (process.env.PLAYGROUND_DOCS_SCREENSHOTS === '1') {
      copyFileSync(file, path.join(REPO, 'docs', 'playground-daily-phone.png'));
    }
    await closeAll();
  });
});
