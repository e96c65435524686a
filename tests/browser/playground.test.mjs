// The playground at GET /, in Debian's Chromium, against the real server that
// scripts/ci/browser-test.sh started: what a person sees and can do, by mouse, keyboard and
// touch, in light and dark mode, online and offline.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  PUZZLE,
  SOLUTION,
  cell,
  cellsWithClass,
  browserSession,
  marksShown,
  pasteIntoBox,
  screenshot,
  seriousViolations,
  shownBoard,
  startServer,
  statusMatching,
} from './helpers.mjs';

const TEST_TIMEOUT = { timeout: 60_000 };

/** Another well-known puzzle, for the stand-in /generate answer. */
const OTHER_PUZZLE =
  '..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759..';

/**
 * For tests that stub a route with page.route: a service worker may take requests before
 * page.route sees them, so these pages run without one (Playwright's advice).
 */
const STUBBING = { serviceWorkers: 'block' };

const session = browserSession();
const { closeAll } = session;

/** Opens a page of `url` (the server under test); the test's end checks that it logged no error. */
const open = (options, url) => session.open(options, '/', url);

describe('the playground', () => {
  test('loads with the example, one grid of 81 cells, and no console error', TEST_TIMEOUT, async () => {
    const { page, response } = await open();
    const headers = response.headers();
    assert.match(headers['content-security-policy'], /default-src 'self'/);
    assert.equal(headers['content-encoding'], 'gzip', 'Chromium asks for gzip and gets it');
    const sizes = await page.evaluate(() =>
      performance.getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('/app.js'))
        .map((entry) => [entry.encodedBodySize, entry.decodedBodySize]),
    );
    assert.equal(sizes.length, 1);
    assert.ok(sizes[0][0] < sizes[0][1], `app.js not compressed on the wire: ${sizes[0]}`);
    assert.equal(await page.title(), 'Sudoku playground · sudoku-service');
    assert.equal(await page.locator('[role="grid"] [role="row"]').count(), 9);
    assert.equal(await page.locator('[role="gridcell"]').count(), 81);
    assert.equal(await shownBoard(page), PUZZLE);
    assert.equal(await page.locator('[role="gridcell"].given').count(), 30);
    assert.equal(await page.textContent('#puzzle-title'), 'Example puzzle');
    await closeAll();
  });

  test('paste of an 81-character puzzle, then solve: the grid shows the solution', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await page.click('#empty');
    assert.equal(await shownBoard(page), '.'.repeat(81));
    // Nine lines of nine, as puzzles are often copied: whitespace is ignored.
    await pasteIntoBox(page, PUZZLE.match(/.{9}/g).join('\n'));
    await statusMatching(page, 'Puzzle loaded: 30 givens.');
    assert.equal(await shownBoard(page), PUZZLE);

    const request = page.waitForRequest((r) => r.url().endsWith('/solve'));
    await page.click('#solve');
    assert.deepEqual((await request).postDataJSON(), { board: PUZZLE });
    await statusMatching(page, 'Solved by the server.');
    assert.equal(await shownBoard(page), SOLUTION);
    assert.equal(await page.locator('[role="gridcell"].solver').count(), 51);
    await closeAll();
  });

  test('paste of the two JSON forms: one-character strings and integers', TEST_TIMEOUT, async () => {
    const { page } = await open();
    const rows = PUZZLE.match(/.{9}/g);
    const chars = JSON.stringify(rows.map((row) => Array.from(row)));
    const ints = JSON.stringify(rows.map((row) => Array.from(row, (c) => (c === '.' ? 0 : Number(c)))));
    for (const text of [chars, ints]) {
      await page.click('#empty');
      await pasteIntoBox(page, text);
      await statusMatching(page, 'Puzzle loaded: 30 givens.');
      assert.equal(await shownBoard(page), PUZZLE, text);
    }
    // And a paste that is no board at all says why, in words.
    await pasteIntoBox(page, '12345');
    await statusMatching(page, 'Could not read that puzzle: a puzzle has 81 cells, this has 5.');
    await pasteIntoBox(page, '[["1"], [2]]');
    await statusMatching(page, 'Could not read that puzzle: a board has 9 rows, this has 2.');
    assert.equal(await shownBoard(page), PUZZLE, 'a bad paste leaves the board alone');
    await closeAll();
  });

  test('Ctrl+V on the grid pastes a puzzle from the clipboard', TEST_TIMEOUT, async () => {
    const { page, context } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('#empty');
    await page.evaluate((text) => navigator.clipboard.writeText(text), PUZZLE);
    await cell(page, 4, 4).click();
    await page.keyboard.press('Control+V');
    await statusMatching(page, 'Puzzle loaded: 30 givens.');
    assert.equal(await shownBoard(page), PUZZLE);
    await closeAll();
  });

  test('typing a puzzle into the empty grid, then solve', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await page.click('#empty');
    await cell(page, 0, 0).click();
    for (const [index, char] of Array.from(PUZZLE).entries()) {
      if (char !== '.') await page.keyboard.press(char);
      if (index % 9 < 8) await page.keyboard.press('ArrowRight');
      else await page.keyboard.press('ArrowDown').then(() => page.keyboard.press('Home'));
    }
    assert.equal(await shownBoard(page), PUZZLE);
    assert.equal(await page.locator('[role="gridcell"].user').count(), 30);
    await page.click('#check');
    await statusMatching(page, 'No mistakes so far: 51 cells to go.');
    await page.click('#solve');
    await statusMatching(page, 'Solved by the server.');
    assert.equal(await shownBoard(page), SOLUTION);
    await page.click('#check');
    await statusMatching(page, 'Solved! Every row, column and box holds 1 to 9.');
    await closeAll();
  });

  test('a conflicting digit is highlighted, with its clash in words, after check', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await cell(page, 0, 2).click();
    await page.keyboard.press('5'); // row 1 and box 1 already hold a 5, at row 1, column 1
    assert.deepEqual(await cellsWithClass(page, 'conflict'), [], 'nothing marked before check');
    await page.click('#check');
    const status = await statusMatching(page, 'Not right');
    assert.match(status, /5 twice in row 1/);
    assert.match(status, /5 twice in box 1/);
    assert.deepEqual(await cellsWithClass(page, 'conflict'), ['0,0', '0,2']);
    assert.match(await cell(page, 0, 2).getAttribute('aria-label'), /conflict/);
    // The next change clears the marks: they described the board before it.
    await cell(page, 0, 2).click();
    await page.keyboard.press('Backspace');
    assert.deepEqual(await cellsWithClass(page, 'conflict'), []);
    await closeAll();
  });

  test('an unsolvable puzzle shows the API\'s detail and its clashing givens', TEST_TIMEOUT, async () => {
    const { page, allow } = await open();
    allow(/status of 422.*\/solve/);
    await pasteIntoBox(page, `55${PUZZLE.slice(2)}`);
    await page.click('#solve');
    const status = await statusMatching(page, 'Could not solve: the puzzle has no solution.');
    assert.match(status, /5 twice in row 1/);
    assert.deepEqual(await cellsWithClass(page, 'conflict'), ['0,0', '0,1']);
    assert.equal(await shownBoard(page), `55${PUZZLE.slice(2)}`, 'nothing filled in');
    await closeAll();
  });

  test('hint from the real POST /hint, one stage a press: where to look, the technique, the cells, the answer', TEST_TIMEOUT, async () => {
    const { page } = await open();
    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/hint');
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/hint');
    await page.click('#hint');
    // The puzzle as loaded goes along, so that the server can tell a wrong digit; no pencil
    // marks, so no candidates.
    assert.deepEqual((await request).postDataJSON(), { board: PUZZLE, givens: PUZZLE });
    const response = await answered;
    assert.equal(response.status(), 200);
    assert.equal(response.headers()['content-language'], 'en', 'an English browser gets English');
    const hint = await response.json();
    assert.equal(hint.kind, 'step');
    const placed = await walkHintStages(page, hint, 'desktop');
    assert.match(hint.explanation, /r\dc\d/, 'cells named as players name them');
    // The digit the server suggests is the solution's.
    assert.equal(SOLUTION[placed.row * 9 + placed.col], String(placed.digit));

    await page.click('#hint-apply');
    await statusMatching(page, 'Hint applied: 1 digit placed.');
    assert.equal(await page.isHidden('#hint-panel'), true);
    assert.deepEqual(await cellsWithClass(page, 'hint-cell'), []);
    assert.match(await cell(page, placed.row, placed.col).getAttribute('class'), /\buser\b/);
    assert.equal((await shownBoard(page))[placed.row * 9 + placed.col], String(placed.digit));
    assert.equal(await focusedName(page), `${placed.row},${placed.col}`, 'focus on the cell just filled');
    await closeAll();
  });

  test('a wrong digit is pointed out first by the real /hint, then selected, without its right digit', TEST_TIMEOUT, async () => {
    const { page } = await open();
    // r1c3 is 4 in the solution; 1 clashes with nothing on the board.
    await cell(page, 0, 2).click();
    await page.keyboard.press('1');
    await cell(page, 4, 4).click();
    await page.click('#hint');
    await page.locator('#hint-stages li').first().waitFor();
    assert.equal(await page.textContent('#hint-title'), 'Hint: A mistake');
    const nudge = await page.locator('#hint-stages li').first().textContent();
    assert.match(nudge, /box 1/);
    assert.doesNotMatch(nudge, /r1c3/, 'the first stage names the box, not the cell');
    assert.deepEqual(await cellsWithClass(page, 'hint-cell'), []);
    assert.equal(await page.getAttribute('[aria-selected="true"]', 'data-row'), '4', 'selection unmoved');

    const texts = await revealHint(page);
    assert.match(texts.at(-1), /^The digit in r1c3 does not fit the solution/);
    assert.equal(await page.isHidden('#hint-apply'), true, 'nothing to apply');
    assert.deepEqual(await cellsWithClass(page, 'hint-cell'), ['0,2']);
    const selected = page.locator('[role="gridcell"][aria-selected="true"]');
    assert.equal(`${await selected.getAttribute('data-row')},${await selected.getAttribute('data-col')}`, '0,2',
      'the cell at fault is selected, ready to be erased');
    // Selected and hinted, it still shows the hint's colour (with the selection's ring).
    const colours = await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.style.background = 'var(--hint-cell)';
      document.body.append(probe);
      const hinted = getComputedStyle(probe).backgroundColor;
      probe.remove();
      const selectedCell = document.querySelector('[role="gridcell"][aria-selected="true"]');
      return { hinted, shown: getComputedStyle(selectedCell).backgroundColor };
    });
    assert.equal(colours.shown, colours.hinted);
    assert.equal(await focusedName(page), 'hint-dismiss', 'focus on the button left to press');
    await page.keyboard.press('Enter');
    assert.equal(await page.isHidden('#hint-panel'), true);
    assert.equal(await focusedName(page), '0,2', 'dismissed, the keyboard is on the cell at fault');
    await page.keyboard.press('Backspace');
    assert.equal(await cell(page, 0, 2).locator('.value').textContent(), '');
    await closeAll();
  });

  test('Hint keeps the marks of Check, and a clash found by Check stays marked', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await cell(page, 0, 2).click();
    await page.keyboard.press('5'); // clashes with the 5 at r1c1
    await page.click('#check');
    await statusMatching(page, 'Not right');
    assert.deepEqual(await cellsWithClass(page, 'conflict'), ['0,0', '0,2']);
    await page.click('#hint');
    await page.locator('#hint-stages li').first().waitFor();
    assert.deepEqual(await cellsWithClass(page, 'conflict'), ['0,0', '0,2']);
    await revealHint(page);
    assert.deepEqual(await cellsWithClass(page, 'conflict'), ['0,0', '0,2']);
    await closeAll();
  });

  test('placing the hinted digit before the answer stage: the page says the player found it', TEST_TIMEOUT, async () => {
    const { page } = await open();
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/hint');
    await page.click('#hint');
    const hint = await (await answered).json();
    await page.locator('#hint-stages li').first().waitFor();
    await page.click('#hint-more'); // the technique, not yet the cell
    const [{ row, col, digit }] = hint.placements;
    assert.equal(await cell(page, row, col).locator('.value').textContent(), '', 'the digit is not shown yet');
    await cell(page, row, col).click();
    await page.keyboard.press(String(digit));
    await statusMatching(page, `You found it: ${digit} in row ${row + 1}, column ${col + 1}`);
    await closeAll();
  });

  test('with pencil marks, an elimination hint: Apply removes exactly those marks', TEST_TIMEOUT, async () => {
    const { page } = await open();
    // A diabolical puzzle, played on until no single is left (found with the real /hint).
    const givens = '.83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54.';
    const played = '.83.2..9....8.9123.293....82..6987...7...3.6...674....3....698...2.853...1..3.54.';
    const marks = fullMarks(played);
    await restoreGame(page, givens, played, marks);
    assert.equal(await shownBoard(page), played);

    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/hint');
    await page.click('#hint');
    const hint = await (await answered).json();
    assert.equal(hint.kind, 'step');
    assert.deepEqual(hint.placements, [], 'every single is placed: the step eliminates');
    assert.ok(hint.eliminations.length > 0);
    await revealHint(page);
    const struck = await page.$$eval('[role="gridcell"] .mark.struck', (found) =>
      found.map((m) => `${m.closest('[role="gridcell"]').dataset.row},${m.closest('[role="gridcell"]').dataset.col}:${m.dataset.digit}`));
    const expected = hint.eliminations.map((e) => `${e.row},${e.col}:${e.digit}`);
    assert.deepEqual(struck.sort(), [...expected].sort(), 'the marks to go are struck through');
    await page.click('#hint-apply');
    const count = hint.eliminations.length;
    await statusMatching(page, `Hint applied: ${count} pencil mark${count > 1 ? 's' : ''} removed.`);
    for (let index = 0; index < 81; index++) {
      if (played[index] !== '.') continue;
      const row = Math.floor(index / 9);
      const col = index % 9;
      const gone = hint.eliminations.filter((e) => e.row === row && e.col === col).map((e) => e.digit);
      const left = marks[index].filter((digit) => !gone.includes(digit)).map(String);
      assert.deepEqual(await marksShown(page, row, col), left, `marks of r${row + 1}c${col + 1}`);
    }
    // The next hint is another step, not the same one again.
    const next = page.waitForResponse((r) => new URL(r.url()).pathname === '/hint');
    await page.click('#hint');
    const again = await (await next).json();
    assert.notDeepEqual(again.eliminations, hint.eliminations);
    await closeAll();
  });

  test('the last correct digit says the puzzle is solved, without pressing Check', TEST_TIMEOUT, async () => {
    const { page } = await open();
    // The example with every cell filled from the solution but r9c7, whose digit is 1.
    const played = `${SOLUTION.slice(0, 78)}.${SOLUTION.slice(79)}`;
    assert.equal(PUZZLE[78], '.');
    await restoreGame(page, PUZZLE, played, fullMarks(played));
    await cell(page, 8, 6).click();
    await page.keyboard.press('8'); // the given 8 at r9c5 is in the same row
    await statusMatching(page, 'Every cell is filled, but not right yet: 8 twice in row 9');
    await page.keyboard.press('1');
    await statusMatching(page, 'Solved! Every row, column and box holds 1 to 9.');
    await closeAll();
  });

  test('focus stays on the control pressed: Check, Hint, More, New puzzle; never on the body', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await page.click('#check');
    await statusMatching(page, 'No mistakes so far');
    assert.equal(await focusedName(page), 'check');
    await page.click('#hint');
    await page.locator('#hint-stages li').first().waitFor();
    assert.equal(await focusedName(page), 'hint');
    // Keyboard only from here: More, More, More; the last stage leaves focus on Apply.
    await page.focus('#hint-more');
    for (let presses = 0; presses < 6 && (await page.isVisible('#hint-more')); presses++) {
      await page.keyboard.press('Enter');
      assert.notEqual(await focusedName(page), 'BODY');
    }
    assert.equal(await focusedName(page), 'hint-apply');
    await page.keyboard.press('Enter');
    await statusMatching(page, 'Hint applied');
    assert.match(await focusedName(page), /^\d,\d$/, 'Apply leaves the keyboard on the grid');
    await page.click('#new');
    await statusMatching(page, 'New medium puzzle loaded');
    assert.equal(await focusedName(page), 'new');
    await closeAll();
  });

  test('a click or tap on the digit pad leaves typing on the grid', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await cell(page, 0, 2).click();
    await page.click('.pad-digit[data-digit="4"]');
    assert.equal(await cell(page, 0, 2).locator('.value').textContent(), '4');
    assert.equal(await focusedName(page), '0,2');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('6');
    assert.equal(await cell(page, 0, 3).locator('.value').textContent(), '6', 'the key went to the grid');
    await page.click('#pencil');
    assert.equal(await focusedName(page), '0,3');
    // From the keyboard, a pad key keeps focus: Tab there, Enter presses it again and again.
    await page.focus('.pad-digit[data-digit="2"]');
    await page.keyboard.press('ArrowDown'); // not on the grid: nothing moves
    await page.keyboard.press('Enter');
    assert.equal(await focusedName(page), '2');
    await closeAll();
  });

  test('Undo after New puzzle brings back the old board and its title', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await cell(page, 0, 2).click();
    await page.keyboard.press('4');
    const before = await shownBoard(page);
    await page.click('#new');
    await statusMatching(page, 'New medium puzzle loaded');
    assert.match(await page.textContent('#puzzle-title'), /^New medium puzzle/);
    await page.click('#undo');
    await statusMatching(page, 'Undone: back to Example puzzle.');
    assert.equal(await shownBoard(page), before);
    assert.equal(await page.textContent('#puzzle-title'), 'Example puzzle');
    await page.click('#undo');
    assert.equal(await shownBoard(page), PUZZLE);
    await closeAll();
  });

  test('a German browser asks in German (navigator.languages) and gets German hints', TEST_TIMEOUT, async () => {
    const { page } = await open({ locale: 'de-DE' });
    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/hint');
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/hint');
    await page.click('#hint');
    assert.match((await request).headers()['accept-language'], /^de-DE\b/);
    const response = await answered;
    assert.equal(response.headers()['content-language'], 'de');
    const hint = await response.json();
    assert.equal(hint.technique_name, 'Versteckter Einer im Block');
    const texts = await revealHint(page);
    assert.match(texts[1], /Versteckter Einer im Block/);
    assert.equal(texts.at(-1), hint.explanation);
    assert.equal(await page.getAttribute('#hint-stages', 'lang'), 'de', 'marked up for screen readers');
    await closeAll();
  });

  test('phone: each hint stage, its buttons scrolled into view', TEST_TIMEOUT, async () => {
    const { page } = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/hint');
    await page.locator('#hint').tap();
    const hint = await (await answered).json();
    await walkHintStages(page, hint, 'phone', async () => {
      for (const id of ['#hint-more', '#hint-apply']) {
        if (!(await page.isVisible(id))) continue;
        const box = await page.locator(id).boundingBox();
        assert.ok(box.y >= 0 && box.y + box.height <= 844, `${id} off screen: ${JSON.stringify(box)}`);
      }
    });
    await closeAll();
  });

  test('new puzzle comes from the server\'s GET /generate, of the difficulty chosen', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await page.selectOption('#difficulty', 'hard');
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/generate');
    await page.click('#new');
    const response = await answered;
    assert.equal(response.status(), 200);
    assert.equal(new URL(response.url()).searchParams.get('difficulty'), 'hard');
    const body = await response.json();
    const givens = [...body.puzzle].filter((c) => c !== '.').length;
    await statusMatching(page, `New hard puzzle loaded: ${givens} givens.`);
    assert.equal(await shownBoard(page), body.puzzle);
    assert.equal(await page.textContent('#puzzle-title'), `New hard puzzle, rating ${body.rating}`);
    await closeAll();
  });

  test('pencil marks go to the real /hint as candidates, and a wrong mark is pointed out', TEST_TIMEOUT, async () => {
    const { page } = await open();
    // r1c3 may hold 1, 2 or 4 (4 in the solution); pencil in 1 and 2 only.
    await cell(page, 0, 2).click();
    await page.keyboard.press('Shift+Digit1');
    await page.keyboard.press('Shift+Digit2');
    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/hint');
    await page.click('#hint');
    const sent = (await request).postDataJSON();
    assert.equal(sent.candidates.length, 81);
    assert.deepEqual(sent.candidates[2], [1, 2]);
    assert.equal(sent.candidates.filter((entry) => entry !== null).length, 1, 'unmarked cells are null');
    await page.locator('#hint-panel').waitFor({ state: 'visible' });
    const texts = await revealHint(page);
    assert.equal(await page.textContent('#hint-title'), 'Hint: Pencil marks');
    assert.match(texts.at(-1), /r1c3/);
    assert.deepEqual(await cellsWithClass(page, 'hint-cell'), ['0,2']);

    // With the 4 pencilled in too, the marks are right and the hint is a step again.
    await page.click('#hint-dismiss');
    await cell(page, 0, 2).click();
    await page.keyboard.press('Shift+Digit4');
    await page.click('#hint');
    await page.locator('#hint-panel').waitFor({ state: 'visible' });
    await revealHint(page);
    assert.match(await page.textContent('#hint-title'), /\(rating \d+(\.\d)?\)$/);
    await closeAll();
  });

  test('a failing /hint shows its problem detail, with POST /hint stubbed by page.route', TEST_TIMEOUT, async () => {
    const { page, allow } = await open(STUBBING);
    allow(/status of 503.*\/hint\)$/);
    await page.route('**/hint', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: 'urn:sudoku-service:problem:overloaded',
          title: 'Service Unavailable',
          status: 503,
          detail: 'the server is busy; retry after 1 s',
          code: 'overloaded',
        }),
      }),
    );
    await page.click('#hint');
    await statusMatching(page, 'No hint: the server is busy; retry after 1 s.');
    await closeAll();
  });

  test('new puzzle rendering, with GET /generate stubbed by page.route', TEST_TIMEOUT, async () => {
    const { page } = await open(STUBBING);
    let asked;
    await page.route('**/generate?*', (route) => {
      asked = new URL(route.request().url());
      return route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ puzzle: OTHER_PUZZLE, solution: null, difficulty: 'hard', rating: 4.2 }),
      });
    });
    await page.selectOption('#difficulty', 'hard');
    await page.click('#new');
    await statusMatching(page, 'New hard puzzle loaded: 27 givens.');
    assert.equal(asked.pathname, '/generate');
    assert.equal(asked.searchParams.get('difficulty'), 'hard');
    assert.equal(await shownBoard(page), OTHER_PUZZLE);
    assert.equal(await page.textContent('#puzzle-title'), 'New hard puzzle, rating 4.2');
    await closeAll();
  });

  test('keyboard only: tab to the grid, arrows, digits, pencil marks, undo, out and back', TEST_TIMEOUT, async () => {
    const { page } = await open();
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el?.getAttribute('role') === 'gridcell' ? `${el.dataset.row},${el.dataset.col}` : el?.id || el?.textContent;
      });
    const marksOf = (row, col) => marksShown(page, row, col);

    await page.keyboard.press('Tab');
    assert.equal(await focused(), '0,0', 'the grid is the first tab stop, at its first cell');
    assert.equal(await page.locator('[role="gridcell"][tabindex="0"]').count(), 1, 'one tab stop');

    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await focused(), '0,2');
    await page.keyboard.press('4');
    assert.equal(await cell(page, 0, 2).locator('.value').textContent(), '4');

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('p');
    assert.equal(await page.getAttribute('#pencil', 'aria-pressed'), 'true');
    await page.keyboard.press('2');
    await page.keyboard.press('7');
    assert.deepEqual(await marksOf(1, 2), ['2', '7']);
    assert.match(await cell(page, 1, 2).getAttribute('aria-label'), /empty, pencil marks 2 7/);
    await page.keyboard.press('p');
    assert.equal(await page.getAttribute('#pencil', 'aria-pressed'), 'false');
    await page.keyboard.press('Shift+Digit3'); // pencils in either mode
    assert.deepEqual(await marksOf(1, 2), ['2', '3', '7']);

    await page.keyboard.press('Control+z');
    assert.deepEqual(await marksOf(1, 2), ['2', '7']);
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    assert.deepEqual(await marksOf(1, 2), []);
    await page.keyboard.press('Control+z');
    assert.equal(await cell(page, 0, 2).locator('.value').textContent(), '', 'the 4 is undone');
    assert.equal(await page.isDisabled('#undo'), true, 'nothing left to undo');

    // Givens do not change, and say so.
    await page.keyboard.press('Control+Home');
    assert.equal(await focused(), '0,0');
    await page.keyboard.press('9');
    await statusMatching(page, 'Row 1, column 1 is part of the puzzle and cannot change.');
    assert.equal(await cell(page, 0, 0).locator('.value').textContent(), '5');
    await page.keyboard.press('Control+End');
    assert.equal(await focused(), '8,8');
    await page.keyboard.press('Home');
    assert.equal(await focused(), '8,0');

    // Tab leaves the grid for the digit pad; Shift+Tab comes back to the same cell.
    await page.keyboard.press('Tab');
    assert.equal(await focused(), '1');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), '8,0');

    // Every control is reachable by Tab: walk to Check and press it.
    for (let presses = 0; presses < 30 && (await focused()) !== 'check'; presses++) {
      await page.keyboard.press('Tab');
    }
    assert.equal(await focused(), 'check');
    await page.keyboard.press('Enter');
    await statusMatching(page, 'No mistakes so far: 51 cells to go.');
    await closeAll();
  });

  test('phone: the board fits, the digit pad enters digits and marks by touch', TEST_TIMEOUT, async () => {
    const { page } = await open({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page scrolls sideways: ${width} px wide`);
    const grid = await page.locator('#grid').boundingBox();
    assert.ok(grid.width > 340 && grid.x + grid.width <= 390, `grid ${JSON.stringify(grid)}`);
    const pad = await page.locator('.pad-digit').first().boundingBox();
    assert.ok(pad.height >= 44 && pad.width >= 32, `pad key too small: ${JSON.stringify(pad)}`);
    assert.ok(pad.y + pad.height <= 844, 'the pad is on the first screen');

    await cell(page, 0, 2).tap();
    await page.locator('.pad-digit[data-digit="4"]').tap();
    assert.equal(await cell(page, 0, 2).locator('.value').textContent(), '4');
    await cell(page, 0, 3).tap();
    await page.locator('#pencil').tap();
    await page.locator('.pad-digit[data-digit="2"]').tap();
    await page.locator('.pad-digit[data-digit="6"]').tap();
    assert.deepEqual(await marksShown(page, 0, 3), ['2', '6']);
    await page.locator('#undo').tap();
    assert.deepEqual(await marksShown(page, 0, 3), ['2']);
    await cell(page, 0, 2).tap();
    await page.locator('#erase').tap();
    assert.equal(await cell(page, 0, 2).locator('.value').textContent(), '');
    await closeAll();
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`accessibility: no serious or critical axe violation, ${colorScheme} mode`, TEST_TIMEOUT, async () => {
      const { page } = await open({ ...STUBBING, colorScheme });
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [r, g, b] = background.match(/\d+/g).map(Number);
      const dark = r + g + b < 3 * 64;
      assert.equal(dark, colorScheme === 'dark', `body background ${background} in ${colorScheme} mode`);

      // Every kind of cell the page can draw: given, typed, pencilled, selected, peer,
      // conflicting (from a real check), and hinted (from the real /hint: the wrong 5).
      await cell(page, 0, 2).click();
      await page.keyboard.press('5');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Shift+Digit2');
      await page.keyboard.press('Shift+Digit7');
      await page.click('#check');
      await statusMatching(page, 'Not right');
      let violations = await seriousViolations(page);
      assert.deepEqual(violations, [], 'with conflicts shown');

      await page.click('#hint');
      await page.locator('#hint-panel').waitFor({ state: 'visible' });
      await cell(page, 4, 3).click();
      violations = await seriousViolations(page);
      assert.deepEqual(violations, [], 'with a hint shown');
      await closeAll();
    });
  }

  test('offline once loaded: the page opens from its service worker, checks on the device, and says what needs the server', TEST_TIMEOUT, async () => {
    const server = await startServer();
    try {
      const { page, allow } = await open({}, server.url);
      await page.locator('#offline-note', { hasText: 'opens without a network' }).waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      // A puzzle from the server comes with its solution, which the page keeps.
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/generate');
      await page.click('#new');
      const generated = await (await answered).json();
      await statusMatching(page, 'New medium puzzle loaded');
      await server.stop();

      allow(/ERR_CONNECTION_REFUSED.*\/(solve|validate|hint|generate)(\?[^)]*)?\)$/);
      await page.reload();
      await page.waitForSelector('html[data-ready="true"]');
      assert.equal(await page.locator('[role="gridcell"]').count(), 81);
      assert.equal(await shownBoard(page), generated.puzzle, 'the game was kept');
      const styled = await page.evaluate(() => getComputedStyle(document.querySelector('.grid')).display);
      assert.equal(styled, 'grid', 'the stylesheet came from the cache too');

      // A digit that clashes with nothing but is not the solution's: only the solution tells.
      const { index, digit } = wrongButQuiet(generated.puzzle, generated.solution);
      const [row, col] = [Math.floor(index / 9), index % 9];
      await cell(page, row, col).click();
      await page.keyboard.press(String(digit));
      await page.click('#check');
      await statusMatching(page, 'Not right: One digit does not fit the solution; marked. Checked on this device (the server cannot be reached).');
      assert.deepEqual(await cellsWithClass(page, 'conflict'), [`${row},${col}`]);
      await cell(page, row, col).click();
      await page.keyboard.press('Backspace');
      await page.click('#check');
      const empty = [...generated.puzzle].filter((c) => c === '.').length;
      await statusMatching(page, `No mistakes so far: ${empty} cells to go. Checked on this device`);

      await page.click('#hint');
      await statusMatching(page, "Hints come from the server, which cannot be reached (offline?). Check still works here, against this puzzle's solution.");
      await page.click('#new');
      await statusMatching(page, 'New puzzles come from the server, which cannot be reached (offline?).');
      assert.equal(await shownBoard(page), generated.puzzle);
      await page.click('#solve');
      await statusMatching(page, "Solved from this puzzle's solution (the server cannot be reached).");
      assert.equal(await shownBoard(page), generated.solution);

      // A puzzle typed or pasted in has no solution here: Solve and Check say so.
      await pasteIntoBox(page, PUZZLE);
      await page.click('#check');
      await statusMatching(page, 'no clashes, 51 cells to go. Whether every digit fits the solution needs the server');
      await page.click('#solve');
      await statusMatching(page, 'Could not solve: could not reach the server (offline?).');
      await closeAll();
    } finally {
      await server.stop();
    }
  });

  test('screenshots at desktop and phone sizes, light and dark', TEST_TIMEOUT, async () => {
    const sizes = {
      desktop: { viewport: { width: 1280, height: 800 } },
      phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    };
    for (const [size, options] of Object.entries(sizes)) {
      for (const colorScheme of ['light', 'dark']) {
        const { page } = await open({ ...options, colorScheme });
        // A game under way: some digits typed, one clash found by a check, pencil marks.
        for (const [row, col, key] of [[0, 2, '4'], [1, 1, '7'], [2, 0, '1'], [0, 5, '7']]) {
          await cell(page, row, col).click();
          await page.keyboard.press(key);
        }
        await cell(page, 1, 2).click();
        for (const key of ['Shift+Digit2', 'Shift+Digit3']) await page.keyboard.press(key);
        await page.click('#check');
        await statusMatching(page, 'Not right');
        await cell(page, 4, 4).click();
        await screenshot(page, `${size}-${colorScheme}`);
      }
    }
    await closeAll();
  });
});

/** The focused element: "row,col" for a cell, else its id, its text, or its tag. */
function focusedName(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (el?.getAttribute('role') === 'gridcell') return `${el.dataset.row},${el.dataset.col}`;
    return el?.id || el?.textContent?.trim() || el?.tagName;
  });
}

/** Presses More until the hint's last stage; returns the text of every stage shown. */
async function revealHint(page) {
  await page.locator('#hint-stages li').first().waitFor();
  for (let presses = 0; presses < 8 && (await page.isVisible('#hint-more')); presses++) {
    const shown = await page.locator('#hint-stages li').count();
    await page.click('#hint-more');
    await page.locator('#hint-stages li').nth(shown).waitFor();
  }
  assert.equal(await page.isVisible('#hint-more'), false, 'More is gone at the last stage');
  return page.locator('#hint-stages li').allTextContents();
}

/**
 * Walks a step hint's four stages one press of More at a time, checking what each shows,
 * and screenshots each as `${size}-hint-${kind}`. Returns the placement.
 */
async function walkHintStages(page, hint, size, eachStage = async () => {}) {
  assert.deepEqual(hint.stages.map((stage) => stage.kind), ['nudge', 'technique', 'cells', 'answer']);
  const unitsLeftOut = hint.stages[0].text.replace(/\b(row|column|box) \d\b/g, '');
  assert.doesNotMatch(unitsLeftOut, /\d/, `the nudge names units only: ${hint.stages[0].text}`);
  const [placed] = hint.placements;
  const items = page.locator('#hint-stages li');
  // Screen readers announce each stage as it is added to the list.
  assert.equal(await page.getAttribute('#hint-stages', 'aria-live'), 'polite');
  assert.equal(await page.getAttribute('#hint-stages', 'aria-relevant'), 'additions');
  for (const [n, stage] of hint.stages.entries()) {
    const last = n === hint.stages.length - 1;
    if (n > 0) await page.locator('#hint-more').click();
    await items.nth(n).waitFor();
    assert.equal(await items.count(), n + 1, 'one stage a press');
    assert.equal(await items.nth(n).textContent(), stage.text);
    assert.equal(
      await page.textContent('#hint-title'),
      n === 0 ? 'Hint' : `Hint: ${hint.technique_name} (rating ${hint.rating})`,
      'the technique is named at its stage, not before',
    );
    await statusMatching(page, `Hint, part ${n + 1} of ${hint.stages.length}`);
    const cells = stage.highlights.cells.map(({ row, col }) => `${row},${col}`);
    if (last) cells.push(`${placed.row},${placed.col}`);
    assert.deepEqual(await cellsWithClass(page, 'hint-cell'), [...new Set(cells)].sort(), `cells at ${stage.kind}`);
    const unitCells = await cellsWithClass(page, 'hint-unit');
    assert.ok(unitCells.length >= 8 - cells.length, `the unit is marked at ${stage.kind}`);
    assert.equal(
      await cell(page, placed.row, placed.col).locator('.value').textContent(),
      last ? String(placed.digit) : '',
      'the digit shows at the answer only',
    );
    assert.equal(await page.isVisible('#hint-more'), !last);
    assert.equal(await page.isVisible('#hint-apply'), last);
    await eachStage(stage);
    await screenshot(page, `${size}-hint-${stage.kind}`);
  }
  return placed;
}

/** Every candidate of every empty cell of a board line, as digit lists (null when filled). */
function fullMarks(line) {
  const digits = [...line].map((c) => (c === '.' ? 0 : Number(c)));
  return digits.map((digit, i) => {
    if (digit) return null;
    const taken = new Set(digits.filter((d, j) => d && arePeers(i, j)));
    return [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => !taken.has(d));
  });
}

/**
 * Puts a game under way in the page's own save (as if played and closed), and reloads: the
 * givens of `givens`, the player's digits of `played`, and pencil marks `marks`.
 */
async function restoreGame(page, givens, played, marks) {
  const save = {
    values: [...played].map((c) => (c === '.' ? 0 : Number(c))),
    marks: marks.map((digits) => (digits ?? []).reduce((bits, d) => bits | (1 << d), 0)),
    origin: [...played].map((c, i) => (givens[i] !== '.' ? 'given' : c !== '.' ? 'user' : '')),
    title: 'A game under way',
    solution: null,
  };
  await page.evaluate((state) => localStorage.setItem('sudoku-playground/v1', JSON.stringify(state)), save);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.textContent('#puzzle-title'), 'A game under way');
}

/** An empty cell and a digit that clashes with no given there yet is not the solution's. */
function wrongButQuiet(puzzle, solution) {
  for (let index = 0; index < 81; index++) {
    if (puzzle[index] !== '.') continue;
    for (let digit = 1; digit <= 9; digit++) {
      if (String(digit) === solution[index]) continue;
      const clashes = [...puzzle].some((c, j) => c === String(digit) && arePeers(index, j));
      if (!clashes) return { index, digit };
    }
  }
  throw new Error(`no quiet wrong digit in ${puzzle}`);
}

/** Whether two cell indexes share a row, a column or a box. */
function arePeers(a, b) {
  const box = (i) => Math.floor(i / 27) * 3 + Math.floor((i % 9) / 3);
  return a !== b && (Math.floor(a / 9) === Math.floor(b / 9) || a % 9 === b % 9 || box(a) === box(b));
}
