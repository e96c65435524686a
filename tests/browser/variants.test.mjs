// The playground's other sizes (4x4, 6x6, 16x16) and 9x9 variants (jigsaw, killer, diagonal,
// windoku, and any rules pasted with a board), in Debian's Chromium against the real server:
// what is drawn where, what is typed how, and what Check, Solve and New puzzle send.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { EXAMPLES } from '../../src/http/page/board.js';
import {
  baseUrl,
  cell,
  cellsWithClass,
  browserSession,
  marksShown,
  pasteIntoBox,
  screenshot,
  seriousViolations,
  shownBoard,
  statusMatching,
} from './helpers.mjs';

const TEST_TIMEOUT = { timeout: 90_000 };
/** page.route sees every request only without a service worker (Playwright's advice). */
const STUBBING = { serviceWorkers: 'block' };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** The examples' solutions, each checked unique with the real /solve in a test below. */
const SOLUTIONS = {
  4: '3421214343121234',
  6: '324156651342246531135264413625562413',
  16: '6BA594F7C32EGD8197C32E8156GDB4FA42EGBA3DF78195C6FD815C6GB94A732EBE94G8AF72163CD5AGFCD17634582E9B5836E92BGDCF4A1771D2354CEBA9F86GC95B63E8DGF712A43467CFGA1E92DB582FGD1B948A65E73CEA187D524CB36FG9G5B9F7C368D4A1E2DC4FA6B521EG8973867A421E9F3C5GBD132E8GD9A57BC64F',
  killer: '364251789821679354759438216186524973935786421472913568543867192697142835218395647',
  jigsaw: '123456789789123456534891267856219374491675823672348915268734591315987642947562138',
};

const { open, closeAll } = browserSession();

/** Chooses a size (and a 9x9 variant) beside New puzzle, then presses Load example. */
async function loadExample(page, size, variant = 'classic') {
  await page.selectOption('#size', String(size));
  if (size === 9) await page.selectOption('#variant', variant);
  await page.click('#example');
  const name = size === 9 ? variant : size;
  await statusMatching(page, `${EXAMPLES[name].name} loaded.`);
}

/** The first empty cell of a board line, as [row, col]. */
function firstEmpty(line) {
  const size = Math.sqrt(line.length);
  const index = line.indexOf('.');
  return [Math.floor(index / size), index % size];
}

/** The centre of an element's box on the page. */
function centreOf(box) {
  return [box.x + box.width / 2, box.y + box.height / 2];
}

/** Whether `inner` lies inside `outer`, give or take a pixel. */
function inside(inner, outer) {
  return inner.x >= outer.x - 1 && inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1;
}

/** The smallest box around some cells' boxes. */
async function boxAround(page, cells) {
  const boxes = await Promise.all(cells.map(({ row, col }) => cell(page, row, col).boundingBox()));
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return {
    x,
    y,
    width: Math.max(...boxes.map((b) => b.x + b.width)) - x,
    height: Math.max(...boxes.map((b) => b.y + b.height)) - y,
  };
}

describe('other sizes and variants', () => {
  test('every example has exactly one solution under its rules, as the real /solve says', TEST_TIMEOUT, async () => {
    for (const [name, example] of Object.entries(EXAMPLES)) {
      const body = example.rules ? { board: example.puzzle, rules: example.rules } : { board: example.puzzle };
      const response = await fetch(`${baseUrl()}/solve`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200, name);
      const answer = await response.json();
      assert.equal(answer.unique, true, `${name} has more than one solution`);
      if (SOLUTIONS[name]) assert.equal(answer.solution, SOLUTIONS[name], name);
    }
  });

  test('the size selector: a 4x4 played to the end by keyboard and pad, pencil marks in a 2x2', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await page.selectOption('#size', '4');
    assert.equal(await page.isDisabled('#variant'), true, 'variants are 9x9');
    assert.equal(await page.isDisabled('#difficulty'), true);
    await loadExample(page, 4);
    const puzzle = EXAMPLES[4].puzzle;
    assert.equal(await page.locator('[role="gridcell"]').count(), 16);
    assert.equal(await page.getAttribute('#grid', 'aria-rowcount'), '4');
    assert.equal(await page.getAttribute('#grid', 'aria-colcount'), '4');
    assert.deepEqual(await page.locator('.pad-digit').allTextContents(), ['1', '2', '3', '4']);
    assert.equal(await shownBoard(page), puzzle);

    // Pencil marks sit in a 2x2 grid; a digit past 4 is refused in words.
    const [row, col] = firstEmpty(puzzle);
    await cell(page, row, col).click();
    await page.keyboard.press('Shift+Digit1');
    await page.keyboard.press('Shift+Digit4');
    assert.deepEqual(await marksShown(page, row, col), ['1', '4']);
    const tracks = await cell(page, row, col).locator('.marks').evaluate((marks) => {
      const style = getComputedStyle(marks);
      return [style.gridTemplateColumns.split(' ').length, style.gridTemplateRows.split(' ').length];
    });
    assert.deepEqual(tracks, [2, 2]);
    await page.keyboard.press('7');
    await statusMatching(page, 'A 4×4 puzzle has digits 1 to 4.');
    assert.equal(await shownBoard(page), puzzle);

    // Every empty cell from the solution, by keyboard, the last by the pad.
    const solution = SOLUTIONS[4];
    const empty = [...puzzle].flatMap((c, i) => (c === '.' ? [i] : []));
    for (const index of empty.slice(0, -1)) {
      await cell(page, Math.floor(index / 4), index % 4).click();
      await page.keyboard.press(solution[index]);
    }
    const last = empty.at(-1);
    await cell(page, Math.floor(last / 4), last % 4).click();
    await page.click(`.pad-digit[data-digit="${solution[last]}"]`);
    await statusMatching(page, 'Solved! Every row, column and box holds 1 to 4.');
    assert.equal(await shownBoard(page), solution);

    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/validate');
    await page.click('#check');
    assert.deepEqual((await request).postDataJSON(), { board: solution });
    await statusMatching(page, 'Solved! Every row, column and box holds 1 to 4.');
    await closeAll();
  });

  test('paste of other sizes: 16 and 256 characters (letters in either case), and a 6x6 as rows of integers', TEST_TIMEOUT, async () => {
    const { page } = await open();
    const givens = (line) => [...line].filter((c) => c !== '.').length;
    await pasteIntoBox(page, EXAMPLES[4].puzzle);
    await statusMatching(page, `Puzzle loaded: ${givens(EXAMPLES[4].puzzle)} givens.`);
    assert.equal(await shownBoard(page), EXAMPLES[4].puzzle);
    await pasteIntoBox(page, EXAMPLES[16].puzzle.toLowerCase().match(/.{16}/g).join('\n'));
    await statusMatching(page, `Puzzle loaded: ${givens(EXAMPLES[16].puzzle)} givens.`);
    assert.equal(await shownBoard(page), EXAMPLES[16].puzzle);
    const rows = EXAMPLES[6].puzzle.match(/.{6}/g).map((row) => Array.from(row, (c) => (c === '.' ? 0 : Number(c))));
    await pasteIntoBox(page, JSON.stringify(rows));
    await statusMatching(page, `Puzzle loaded: ${givens(EXAMPLES[6].puzzle)} givens.`);
    assert.equal(await shownBoard(page), EXAMPLES[6].puzzle);
    assert.deepEqual(await page.locator('.pad-digit').allTextContents(), [...'123456']);
    // A letter past the side is refused in words, and the board stays.
    await pasteIntoBox(page, `G${EXAMPLES[4].puzzle.slice(1)}`);
    await statusMatching(page, 'Could not read that puzzle: "G" at position 1 is not a digit 1-4, "." or "0".');
    assert.equal(await shownBoard(page), EXAMPLES[6].puzzle);
    await closeAll();
  });

  test('16x16: letters A-G from the keyboard and the pad, marks in a 4x4, Check and Solve', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await loadExample(page, 16);
    const puzzle = EXAMPLES[16].puzzle;
    const solution = SOLUTIONS[16];
    assert.equal(await page.locator('[role="gridcell"]').count(), 256);
    assert.equal(await shownBoard(page), puzzle);
    assert.deepEqual(await page.locator('.pad-digit').allTextContents(),
      [...'123456789ABCDEFG']);

    // Cells whose solution is a letter: typed in lower case and upper case, and by the pad.
    const letterCells = [...puzzle].flatMap((c, i) => (c === '.' && solution[i] >= 'A' ? [i] : []));
    const at = (index) => cell(page, Math.floor(index / 16), index % 16);
    await at(letterCells[0]).click();
    await page.keyboard.press(solution[letterCells[0]].toLowerCase());
    await at(letterCells[1]).click();
    await page.keyboard.press(`Shift+Key${solution[letterCells[1]]}`); // pencils it
    assert.deepEqual(await marksShown(page, Math.floor(letterCells[1] / 16), letterCells[1] % 16),
      [solution[letterCells[1]]]);
    const tracks = await at(letterCells[1]).locator('.marks').evaluate((marks) =>
      getComputedStyle(marks).gridTemplateColumns.split(' ').length);
    assert.equal(tracks, 4);
    await page.keyboard.press(solution[letterCells[1]].toLowerCase());
    await at(letterCells[2]).click();
    await page.click(`.pad-digit[data-digit="${parseInt(solution[letterCells[2]], 17)}"]`);
    await page.keyboard.press('h'); // no digit of a 16x16: nothing happens
    const shown = await shownBoard(page);
    for (const index of letterCells.slice(0, 3)) assert.equal(shown[index], solution[index]);
    assert.match(await at(letterCells[0]).getAttribute('aria-label'), new RegExp(`, ${solution[letterCells[0]]}$`));

    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/validate');
    await page.click('#check');
    assert.equal((await request).postDataJSON().board, shown);
    const empty = [...shown].filter((c) => c === '.').length;
    await statusMatching(page, `No mistakes so far: ${empty} cells to go.`);
    await page.click('#solve');
    await statusMatching(page, 'Solved by the server.');
    assert.equal(await shownBoard(page), solution);

    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 1280, `the page scrolls sideways: ${width} px`);
    await closeAll();
  });

  test('killer: each cage outlined on its cells, its sum in its top-left cell; Check sends the cages and marks one that does not add up', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await loadExample(page, 9, 'killer');
    const { cages } = EXAMPLES.killer.rules;
    assert.equal(await page.locator('#rules-layer path.cage').count(), cages.length);
    assert.match(await page.textContent('#rules-summary'), /Killer/);
    for (const [index, cage] of cages.entries()) {
      const around = await boxAround(page, cage.cells);
      const outline = await page.locator(`#rules-layer path.cage[data-cage="${index}"]`).boundingBox();
      assert.ok(inside(outline, around), `cage ${index + 1} outline ${JSON.stringify(outline)} outside its cells ${JSON.stringify(around)}`);
      // Drawn just inside the cells' edges: within a fifth of a cell of them.
      const cellSize = around.width / (Math.max(...cage.cells.map((c) => c.col)) - Math.min(...cage.cells.map((c) => c.col)) + 1);
      assert.ok(outline.x - around.x < cellSize / 5 && outline.y - around.y < cellSize / 5, `cage ${index + 1} inset`);

      const first = cage.cells.reduce((a, b) => (a.row * 9 + a.col <= b.row * 9 + b.col ? a : b));
      const label = cell(page, first.row, first.col).locator('.cage-sum');
      assert.equal(await label.getAttribute('data-sum'), String(cage.sum), `sum of cage ${index + 1}`);
      const cellBox = await cell(page, first.row, first.col).boundingBox();
      const labelBox = await label.boundingBox();
      assert.ok(inside(labelBox, cellBox), 'the sum is inside its cell');
      assert.ok(labelBox.x - cellBox.x < cellBox.width / 4 && labelBox.y - cellBox.y < cellBox.height / 4,
        'in its top-left corner');
      assert.match(await cell(page, first.row, first.col).getAttribute('aria-label'),
        new RegExp(`cage ${index + 1}, sum ${cage.sum}`));
    }
    assert.equal(await page.locator('.cage-sum').count(), cages.length);

    // Cage 1 (sum 13) filled with 1, 4, 5: no row, column or box clash, but 10.
    const [a, b, c] = cages[0].cells;
    assert.equal(cages[0].sum, 13);
    for (const [{ row, col }, digit] of [[a, '1'], [b, '4'], [c, '5']]) {
      await cell(page, row, col).click();
      await page.keyboard.press(digit);
    }
    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/validate');
    await page.click('#check');
    assert.deepEqual((await request).postDataJSON().rules, EXAMPLES.killer.rules);
    await statusMatching(page, 'Not right: The digits of cage 1 add up to 10, not 13.');
    assert.deepEqual(await cellsWithClass(page, 'conflict'), cages[0].cells.map((x) => `${x.row},${x.col}`).sort());
    await closeAll();
  });

  test('jigsaw: thick lines between regions, none between cells of one region', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await loadExample(page, 9, 'jigsaw');
    const { regions } = EXAMPLES.jigsaw.rules;
    const drawn = new Set((await page.getAttribute('#rules-layer path.region-edges', 'd')).match(/M[^M]+/g));
    const expected = new Set();
    let boxEdgesInsideRegions = 0;
    for (let row = 0; row < 9; row++) {
      for (let col = 0; col < 9; col++) {
        if (col < 8 && regions[row][col] !== regions[row][col + 1]) expected.add(`M${col + 1} ${row}V${row + 1}`);
        if (row < 8 && regions[row][col] !== regions[row + 1][col]) expected.add(`M${col} ${row + 1}H${col + 1}`);
        if (col % 3 === 2 && col < 8 && regions[row][col] === regions[row][col + 1]) boxEdgesInsideRegions += 1;
      }
    }
    assert.deepEqual([...drawn].sort(), [...expected].sort());
    assert.ok(boxEdgesInsideRegions > 0, 'no line where a region runs across a box edge');
    // Drawn over the cells' edges, at the scale of the grid: the first side between regions.
    const [first] = [...expected];
    const [, x, y] = /M(\d+) (\d+)/.exec(first).map(Number);
    const line = await page.evaluate((d) => {
      const path = [...document.querySelectorAll('#rules-layer path.region-edges')][0];
      const probe = path.cloneNode();
      probe.setAttribute('d', d);
      path.after(probe);
      const box = probe.getBoundingClientRect();
      probe.remove();
      return { x: box.x, y: box.y, width: box.width, height: box.height };
    }, first);
    const corner = await cell(page, y, x).boundingBox();
    assert.ok(Math.abs(line.x - corner.x) < 2 && Math.abs(line.y - corner.y) < 2, `${first} at ${JSON.stringify(line)}, cell at ${JSON.stringify(corner)}`);
    const thin = await page.$$eval('[role="gridcell"]', (cells) =>
      cells.every((c) => parseFloat(getComputedStyle(c).borderRightWidth) <= 1 && parseFloat(getComputedStyle(c).borderBottomWidth) <= 1));
    assert.ok(thin, 'cell borders stay thin: the thick lines are drawn');
    assert.match(await cell(page, 0, 0).getAttribute('aria-label'), new RegExp(`region ${regions[0][0] + 1}`));

    // Solve sends the regions and fills in the one solution.
    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/solve');
    await page.click('#solve');
    assert.deepEqual((await request).postDataJSON().rules, { regions });
    await statusMatching(page, 'Solved by the server.');
    assert.equal(await shownBoard(page), SOLUTIONS.jigsaw);
    await closeAll();
  });

  test('diagonal and windoku: lines from corner to corner, shaded windows', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await loadExample(page, 9, 'diagonal');
    const grid = await boxAround(page, [{ row: 0, col: 0 }, { row: 8, col: 8 }]);
    for (const diagonal of ['main', 'anti']) {
      const line = page.locator(`#rules-layer line.diagonal[data-diagonal="${diagonal}"]`);
      const box = await line.boundingBox();
      assert.ok(Math.abs(box.x - grid.x) < 3 && Math.abs(box.width - grid.width) < 4, `${diagonal} ${JSON.stringify(box)}`);
      assert.ok(Math.abs(box.y - grid.y) < 3 && Math.abs(box.height - grid.height) < 4);
    }
    assert.match(await cell(page, 4, 4).getAttribute('aria-label'), /on the main diagonal, on the anti-diagonal/);

    await loadExample(page, 9, 'windoku');
    const shaded = page.locator('#rules-layer rect.extra-region');
    assert.equal(await shaded.count(), 36);
    const window = await boxAround(page, [{ row: 1, col: 5 }, { row: 3, col: 7 }]);
    const drawn = await page.locator('#rules-layer rect.extra-region[data-region="1"]').evaluateAll((rects) =>
      rects.map((r) => r.getBoundingClientRect()).map((b) => ({ x: b.x, y: b.y, width: b.width, height: b.height })));
    assert.equal(drawn.length, 9);
    for (const box of drawn) assert.ok(inside(box, window), `${JSON.stringify(box)} outside window 2`);
    assert.match(await cell(page, 2, 6).getAttribute('aria-label'), /shaded region 2/);
    await closeAll();
  });

  test('a pasted request body: thermometer drawn behind the digits, odd and even marks; Check reports a knight conflict and a falling thermometer', TEST_TIMEOUT, async () => {
    const { page } = await open();
    const thermometer = [{ row: 0, col: 0 }, { row: 0, col: 1 }, { row: 0, col: 2 }, { row: 1, col: 2 }];
    const rules = {
      thermometers: [thermometer],
      odd: [{ row: 8, col: 8 }],
      even: [{ row: 8, col: 0 }],
      anti_knight: true,
    };
    await pasteIntoBox(page, JSON.stringify({ board: '.'.repeat(81), rules }));
    await statusMatching(page, 'Puzzle loaded: 0 givens.');
    assert.match(await page.textContent('#rules-summary'), /Thermometers.*odd.*even.*knight/);

    const bulb = await page.locator('#rules-layer .thermometer circle.bulb').boundingBox();
    const bulbCell = await cell(page, 0, 0).boundingBox();
    const [bx, by] = centreOf(bulb);
    const [cx, cy] = centreOf(bulbCell);
    assert.ok(Math.abs(bx - cx) < 2 && Math.abs(by - cy) < 2, 'the bulb is centred on the first cell');
    assert.ok(bulb.width > bulbCell.width * 0.6 && bulb.width < bulbCell.width, 'a bulb fills most of its cell');
    const tube = await page.locator('#rules-layer .thermometer path.tube').boundingBox();
    assert.ok(inside(tube, await boxAround(page, thermometer)), 'the tube runs over its cells');
    assert.equal(await page.locator('#rules-layer circle.odd').count(), 1);
    assert.equal(await page.locator('#rules-layer rect.even').count(), 1);
    assert.match(await cell(page, 0, 0).getAttribute('aria-label'), /thermometer 1 bulb/);
    assert.match(await cell(page, 8, 8).getAttribute('aria-label'), /, odd/);

    // Behind the digits: the digit is stacked above the drawing, which takes no clicks.
    const stacking = await page.evaluate(() => ({
      layer: getComputedStyle(document.getElementById('rules-layer')).zIndex,
      value: getComputedStyle(document.querySelector('[role="gridcell"] .value')).zIndex,
      events: getComputedStyle(document.getElementById('rules-layer')).pointerEvents,
    }));
    assert.ok(Number(stacking.value) > Number(stacking.layer), JSON.stringify(stacking));
    assert.equal(stacking.events, 'none');
    await cell(page, 0, 0).click({ position: { x: bulbCell.width / 2, y: bulbCell.height / 2 } });
    await page.keyboard.press('5');
    const digit = await cell(page, 0, 0).locator('.value').boundingBox();
    assert.ok(inside(digit, bulbCell), 'the digit shows in the bulb');

    await cell(page, 0, 1).click();
    await page.keyboard.press('3'); // falls from the 5 in the bulb
    await cell(page, 4, 4).click();
    await page.keyboard.press('7');
    await cell(page, 5, 6).click();
    await page.keyboard.press('7'); // a knight's move from r5c5
    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/validate');
    await page.click('#check');
    assert.deepEqual((await request).postDataJSON().rules, rules);
    const status = await statusMatching(page, 'Not right');
    assert.match(status, /7 in r5c5 and r6c7, a knight's move apart/);
    assert.match(status, /thermometer 1 does not rise from 5 in r1c1 to 3 in r1c2/);
    assert.deepEqual(await cellsWithClass(page, 'conflict'), ['0,0', '0,1', '4,4', '5,6']);
    await closeAll();
  });

  test('Hint is off for other sizes and rules, with the reason beside it; undo brings back the classic board and Hint', TEST_TIMEOUT, async () => {
    const { page } = await open();
    assert.equal(await page.isEnabled('#hint'), true);
    assert.equal(await page.isHidden('#hint-note'), true);
    await loadExample(page, 9, 'killer');
    assert.equal(await page.isDisabled('#hint'), true);
    assert.equal(await page.textContent('#hint-note'),
      'Hints know classic 9×9 puzzles only, not this variant yet; Check and Solve work on it.');
    assert.equal(await page.getAttribute('#hint', 'aria-describedby'), 'hint-note');
    // Still off after a call to the server, which switches the buttons back on.
    await page.click('#check');
    await statusMatching(page, 'No mistakes so far');
    assert.equal(await page.isDisabled('#hint'), true);
    await loadExample(page, 6);
    assert.match(await page.textContent('#hint-note'), /not this 6×6 yet/);

    await page.click('#undo');
    await statusMatching(page, 'Undone: back to Example killer puzzle.');
    assert.equal(await page.locator('[role="gridcell"]').count(), 81);
    assert.equal(await page.locator('#rules-layer path.cage').count(), EXAMPLES.killer.rules.cages.length);
    await page.click('#undo');
    await statusMatching(page, 'Undone: back to Example puzzle.');
    assert.equal(await page.locator('#rules-layer > :not(.region-edges)').count(), 0, 'only boxes drawn on a classic');
    assert.equal(await page.locator('.cage-sum').count(), 0);
    assert.equal(await page.isHidden('#rules-summary'), true);
    assert.equal(await page.isEnabled('#hint'), true);
    assert.equal(await page.isHidden('#hint-note'), true);
    await closeAll();
  });

  test('a game of another size and rules is saved: after a reload, the same board, rules and marks', TEST_TIMEOUT, async () => {
    const { page } = await open();
    await loadExample(page, 9, 'killer');
    await cell(page, 0, 0).click();
    await page.keyboard.press('3');
    await cell(page, 0, 1).click();
    await page.keyboard.press('Shift+Digit1');
    const board = await shownBoard(page);
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    assert.equal(await page.textContent('#puzzle-title'), 'Example killer puzzle');
    assert.equal(await shownBoard(page), board);
    assert.deepEqual(await marksShown(page, 0, 1), ['1']);
    assert.equal(await page.locator('#rules-layer path.cage').count(), EXAMPLES.killer.rules.cages.length);
    assert.equal(await page.isDisabled('#hint'), true);

    await loadExample(page, 16);
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    assert.equal(await page.locator('[role="gridcell"]').count(), 256);
    assert.equal(await shownBoard(page), EXAMPLES[16].puzzle);
    await closeAll();
  });

  test('New puzzle of another size and variant, with GET /generate stubbed to its contract; offline Check against the solution sent', TEST_TIMEOUT, async () => {
    const { page, allow } = await open(STUBBING);
    allow(/ERR_CONNECTION_REFUSED|ERR_FAILED.*\/validate/);
    const asked = [];
    await page.route('**/generate?*', (route) => {
      const query = new URL(route.request().url()).searchParams;
      asked.push(query.toString());
      const answer = query.get('size') === '6'
        ? { puzzle: EXAMPLES[6].puzzle, solution: SOLUTIONS[6], seed: 7, clues: 12, symmetry: 'none', size: 6 }
        : { puzzle: '.'.repeat(81), solution: SOLUTIONS.killer, seed: 8, clues: 0, symmetry: 'none', size: 9, rules: EXAMPLES.killer.rules };
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) });
    });
    await page.selectOption('#size', '6');
    await page.click('#new');
    await statusMatching(page, `New 6×6 puzzle loaded: ${[...EXAMPLES[6].puzzle].filter((c) => c !== '.').length} givens.`);
    assert.equal(await page.textContent('#puzzle-title'), 'New 6×6 puzzle');
    assert.equal(await page.locator('[role="gridcell"]').count(), 36);
    assert.equal(await shownBoard(page), EXAMPLES[6].puzzle);

    // Without the server, Check holds the board against the solution /generate sent.
    await page.route('**/validate', (route) => route.abort('connectionrefused'));
    const [row, col] = firstEmpty(EXAMPLES[6].puzzle);
    const right = SOLUTIONS[6][row * 6 + col];
    const wrong = [...'123456'].find((d) => d !== right &&
      ![...EXAMPLES[6].puzzle].some((c, i) => c === d && (Math.floor(i / 6) === row || i % 6 === col ||
        (Math.floor(i / 12) === Math.floor(row / 2) && Math.floor((i % 6) / 3) === Math.floor(col / 3)))));
    await cell(page, row, col).click();
    await page.keyboard.press(wrong);
    await page.click('#check');
    await statusMatching(page, 'Not right: One digit does not fit the solution; marked. Checked on this device');
    assert.deepEqual(await cellsWithClass(page, 'conflict'), [`${row},${col}`]);
    await cell(page, row, col).click();
    await page.keyboard.press(right);
    await page.click('#check');
    await statusMatching(page, 'No mistakes so far');

    await page.selectOption('#size', '9');
    await page.selectOption('#variant', 'killer');
    await page.click('#new');
    await statusMatching(page, 'New killer puzzle loaded: 0 givens.');
    assert.equal(await page.locator('#rules-layer path.cage').count(), EXAMPLES.killer.rules.cages.length);
    assert.deepEqual(asked, ['size=6', 'variant=killer'], 'no difficulty beside a size or a variant');
    await closeAll();
  });

  test('New puzzle of another size and of the variants from the real server', TEST_TIMEOUT, async () => {
    const { page } = await open();
    for (const [size, variant] of [[4], [16], [9, 'jigsaw'], [9, 'killer']]) {
      await page.selectOption('#size', String(size));
      if (variant) await page.selectOption('#variant', variant);
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/generate');
      await page.click('#new');
      const response = await answered;
      const name = variant ?? `${size}×${size}`;
      assert.equal(response.status(), 200);
      const answer = await response.json();
      await statusMatching(page, `New ${name} puzzle loaded`);
      assert.equal(answer.size, size);
      assert.equal(await page.locator('[role="gridcell"]').count(), size * size);
      assert.equal(await shownBoard(page), answer.puzzle);
      if (variant === 'killer') {
        assert.equal(await page.locator('#rules-layer path.cage').count(), answer.rules.cages.length);
      }
      if (variant === 'jigsaw') {
        assert.deepEqual(answer.rules.regions.length, 9);
      }
    }
    await closeAll();
  });

  for (const colorScheme of ['light', 'dark']) {
    test(`accessibility of the variants: no serious or critical axe violation, ${colorScheme} mode`, TEST_TIMEOUT, async () => {
      const { page } = await open({ colorScheme });
      await loadExample(page, 9, 'killer');
      await cell(page, 0, 0).click();
      await page.keyboard.press('1');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('1');
      await page.click('#check');
      await statusMatching(page, 'Not right');
      assert.deepEqual(await seriousViolations(page), [], 'killer, with conflicts shown');
      await loadExample(page, 16);
      await cell(page, 0, 1).click();
      await page.keyboard.press('Shift+KeyB');
      assert.deepEqual(await seriousViolations(page), [], '16x16, with pencil marks');
      await closeAll();
    });
  }

  test('phone: a 16x16 and a jigsaw fit, the pad keys are big enough to tap', TEST_TIMEOUT, async () => {
    const { page } = await open(PHONE);
    await loadExample(page, 16);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page scrolls sideways: ${width} px wide`);
    const key = await page.locator('.pad-digit').last().boundingBox();
    assert.ok(key.height >= 44 && key.width >= 32, `pad key too small: ${JSON.stringify(key)}`);
    await cell(page, 0, 1).tap();
    await page.locator('.pad-digit[data-digit="11"]').tap();
    assert.equal(await cell(page, 0, 1).locator('.value').textContent(), 'B');
    await loadExample(page, 9, 'jigsaw');
    await cell(page, 4, 4).tap();
    await screenshot(page, 'jigsaw-phone');
    await closeAll();
  });

  test('screenshots of the variants', TEST_TIMEOUT, async () => {
    for (const colorScheme of ['light', 'dark']) {
      const { page } = await open({ colorScheme });
      await loadExample(page, 16);
      const puzzle = EXAMPLES[16].puzzle;
      const empty = [...puzzle].flatMap((c, i) => (c === '.' ? [i] : []));
      for (const index of empty.slice(0, 5)) {
        await cell(page, Math.floor(index / 16), index % 16).click();
        await page.keyboard.press(SOLUTIONS[16][index]);
      }
      const [row, col] = [Math.floor(empty[6] / 16), empty[6] % 16];
      await cell(page, row, col).click();
      for (const key of ['Shift+Digit3', 'Shift+KeyA', 'Shift+KeyE']) await page.keyboard.press(key);
      await page.keyboard.press('ArrowDown'); // the marks show best unselected
      await screenshot(page, `16x16-desktop-${colorScheme}`);

      await loadExample(page, 9, 'killer');
      for (const [r, c, key] of [[0, 0, '3'], [1, 0, '8'], [0, 1, '6'], [4, 4, '8']]) {
        await cell(page, r, c).click();
        await page.keyboard.press(key);
      }
      await cell(page, 2, 2).click();
      for (const key of ['Shift+Digit4', 'Shift+Digit9']) await page.keyboard.press(key);
      await screenshot(page, `killer-desktop-${colorScheme}`);

      const thermo = {
        board: '.'.repeat(81),
        rules: {
          thermometers: [
            [{ row: 1, col: 1 }, { row: 1, col: 2 }, { row: 1, col: 3 }, { row: 2, col: 3 }],
            [{ row: 7, col: 7 }, { row: 6, col: 7 }, { row: 5, col: 7 }, { row: 5, col: 6 }, { row: 5, col: 5 }],
          ],
          odd: [{ row: 0, col: 8 }, { row: 4, col: 0 }],
          even: [{ row: 8, col: 0 }, { row: 3, col: 5 }],
          diagonals: ['main'],
        },
      };
      await pasteIntoBox(page, JSON.stringify(thermo));
      await cell(page, 1, 1).click();
      await page.keyboard.press('2');
      await screenshot(page, `rules-desktop-${colorScheme}`);
    }
    await closeAll();
  });
});
