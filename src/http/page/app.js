// The playground: the grid of any side the page plays, its input (keyboard, pointer, digit
// pad, paste, a photo), the puzzle's rules drawn over it, undo, staged hints, and the calls
// to the API. State lives in plain arrays; render() redraws every cell from it after every
// change, which is cheap and leaves no half-updated view.

import * as api from './api.js';
import {
  EXAMPLES,
  BoardFormatError,
  Layout,
  emptyBoard,
  isClassic,
  parseBoard,
  parsePuzzle,
  readRules,
  sideOf,
  sizeName,
  symbol,
  digitOf,
  toLine,
  unitName,
} from './board.js';
import { drawRules } from './overlay.js';
import { ScanReview } from './scan.js';

const STORAGE_KEY = 'sudoku-playground/v1';
const HISTORY_LIMIT = 1000;

// --- State ---------------------------------------------------------------------------

/** Per cell: the digit (0 empty), pencil marks (bit d set for digit d), and who put it. */
const board = {
  values: emptyBoard(),
  marks: emptyBoard(),
  /** '' empty, 'given' part of the puzzle, 'user' typed, 'solver' filled by /solve */
  origin: new Array(81).fill(''),
};
/** The empty cell of each list of `board`. */
const EMPTY_CELL = { values: 0, marks: 0, origin: '' };
/**
 * The puzzle's name, its solution (N*N digits) when known, its side and its rules (an API
 * `rules` object, null for none): see `puzzle()`.
 */
let title = '';
let solution = null;
let size = 9;
let rules = null;
/** The geometry of the board under its rules: board.js's Layout. */
let layout = new Layout(size, rules);
let selected = 0;
let pencilMode = false;
/**
 * Undo steps: `cells`, a list of {index, before, after} cell snapshots, and the puzzle
 * (title and solution) `before` and `after` the step, so that undoing a new puzzle brings
 * back the old one's name too.
 */
const history = [];
/** What the last check or hint pointed at; cleared by the next change. */
let feedback = emptyFeedback();

function emptyFeedback() {
  return {
    conflicts: new Set(),
    hintCells: new Set(),
    hintUnitCells: new Set(),
    placements: new Map(),
    eliminations: new Map(),
    /** The /hint answer shown, and how many of its stages the player has seen. */
    hint: null,
    stagesShown: 0,
  };
}

/** What the board is a game of, beside its cells. */
function puzzle() {
  return { title, solution, size, rules };
}

function samePuzzle(a, b) {
  return a.title === b.title && a.solution === b.solution && a.size === b.size &&
    JSON.stringify(a.rules) === JSON.stringify(b.rules);
}

function setPuzzle(next) {
  const layoutChanged = next.size !== size || JSON.stringify(next.rules) !== JSON.stringify(rules);
  ({ title, solution, size, rules } = next);
  if (layoutChanged) layout = new Layout(size, rules);
  selected = Math.min(selected, layout.cells - 1);
}

/**
 * Makes every list of `board` `count` cells long: a step that changes the side applies its
 * edits over the larger of the two boards, then cuts the board to its new side.
 */
function fitBoard(count) {
  for (const [key, empty] of Object.entries(EMPTY_CELL)) {
    const list = board[key];
    const had = list.length;
    list.length = count;
    if (count > had) list.fill(empty, had);
  }
}

// The board's geometry, for the many places that need one piece of it.
const indexOf = (row, col) => layout.indexOf(row, col);
const cellName = (index) => layout.cellName(index);

function snapshot(index) {
  return { value: board.values[index], marks: board.marks[index], origin: board.origin[index] };
}

function restore(index, cell) {
  board.values[index] = cell.value;
  board.marks[index] = cell.marks;
  board.origin[index] = cell.origin;
}

/**
 * Applies `edits` (index -> new cell), and `next` (a new title, solution, side and rules)
 * when given, as one undo step. Returns whether anything changed.
 */
function commit(edits, next = puzzle()) {
  fitBoard(Math.max(board.values.length, next.size * next.size));
  const cells = [];
  for (const [index, after] of edits) {
    const before = snapshot(index);
    if (before.value === after.value && before.marks === after.marks && before.origin === after.origin) {
      continue;
    }
    cells.push({ index, before, after });
    restore(index, after);
  }
  fitBoard(next.size * next.size);
  const before = puzzle();
  if (cells.length === 0 && samePuzzle(next, before)) {
    return false;
  }
  setPuzzle(next);
  history.push({ cells, before, after: next });
  if (history.length > HISTORY_LIMIT) history.shift();
  feedback = emptyFeedback();
  hideHint();
  save();
  render();
  return true;
}

function undo() {
  const step = history.pop();
  if (!step) {
    say('Nothing to undo.');
    return;
  }
  fitBoard(Math.max(board.values.length, step.before.size * step.before.size));
  for (const { index, before } of step.cells.slice().reverse()) restore(index, before);
  fitBoard(step.before.size * step.before.size);
  setPuzzle(step.before);
  feedback = emptyFeedback();
  hideHint();
  save();
  render();
  if (step.after.title !== step.before.title) say(`Undone: back to ${title || 'your puzzle'}.`);
  else if (step.cells.length === 1) say(`Undone: ${cellName(step.cells[0].index)}.`);
  else say(`Undone: ${step.cells.length} cells.`);
}

// --- Moves -----------------------------------------------------------------------------

function place(index, digit) {
  if (board.origin[index] === 'given') {
    say(`${capitalize(cellName(index))} is part of the puzzle and cannot change.`);
    return;
  }
  const edits = new Map([[index, { value: digit, marks: 0, origin: 'user' }]]);
  // A placed digit can no longer be a candidate of its peers: their pencil marks go.
  for (const peer of layout.peers[index]) {
    if (board.marks[peer] & (1 << digit)) {
      edits.set(peer, { ...snapshot(peer), marks: board.marks[peer] & ~(1 << digit) });
    }
  }
  const foundHint = hintLeadsTo(index, digit) && !hintAnswerShown();
  if (!commit(edits)) return;
  if (board.values.every((value) => value !== 0)) {
    announceFullBoard();
  } else if (foundHint) {
    say(`You found it: ${symbol(digit)} in ${cellName(index)}, where the hint was leading.`, 'success');
  }
}

/** Says whether a full board is solved: a full grid that breaks no rule solves its puzzle. */
function announceFullBoard() {
  const conflicts = layout.findConflicts(board.values);
  if (conflicts.length === 0) {
    say(solvedText(), 'success');
  } else {
    say(`Every cell is filled, but not right yet: ${describeConflicts(conflicts)}`, 'error');
  }
}

/** "Solved! Every row, column and box holds 1 to 9.", in the words of the puzzle's rules. */
function solvedText() {
  const groups = layout.jigsaw ? 'region' : 'box';
  const kept = rules ? ', and every rule of the puzzle is kept' : '';
  return `Solved! Every row, column and ${groups} holds 1 to ${symbol(size)}${kept}.`;
}

function erase(index) {
  if (board.origin[index] === 'given') {
    say(`${capitalize(cellName(index))} is part of the puzzle and cannot change.`);
    return;
  }
  commit(new Map([[index, { value: 0, marks: 0, origin: '' }]]));
}

function toggleMark(index, digit) {
  if (board.values[index] !== 0) {
    say(`${capitalize(cellName(index))} holds a digit; erase it to pencil in marks.`);
    return;
  }
  commit(new Map([[index, { ...snapshot(index), marks: board.marks[index] ^ (1 << digit) }]]));
}

function enter(index, digit) {
  if (pencilMode) toggleMark(index, digit);
  else place(index, digit);
}

/**
 * Replaces the whole board by a puzzle of any side, with its solution and rules when known;
 * undoable like any move. Its digits are givens unless `origins` says whose each one is.
 */
function loadPuzzle(cells, newTitle, newSolution = null, newRules = null, origins = null) {
  const edits = new Map();
  // Cells past the new board's end are emptied, so that undo has them to bring back.
  const count = Math.max(cells.length, board.values.length);
  for (let index = 0; index < count; index++) {
    const digit = cells[index] ?? 0;
    edits.set(index, { value: digit, marks: 0, origin: digit ? origins?.[index] ?? 'given' : '' });
  }
  const next = { title: newTitle, solution: newSolution, size: sideOf(cells.length), rules: newRules };
  // A link shown for the puzzle before would now lead elsewhere.
  byId('share-box').hidden = true;
  if (!commit(edits, next)) {
    feedback = emptyFeedback();
    hideHint();
    render();
  }
}

// --- Scanning a photo --------------------------------------------------------------------

/** The scan under review (scan.js's ScanReview) and its photo's object URL, or null. */
let review = null;
let reviewPhotoUrl = null;

/** Sends the chosen photo to POST /scan and shows what was read, for the player to check. */
async function scanPhoto(file) {
  const offline = () =>
    say('Photos are read by the server, which cannot be reached (offline?). Type the puzzle in instead.', 'error');
  await withServer('Reading the photo…', 'Could not read the photo', async () => {
    const answer = await api.scan(file, { solve: true });
    closeReview();
    review = new ScanReview(answer);
    reviewPhotoUrl = URL.createObjectURL(file);
    showReview();
  }, offline);
}

function showReview() {
  const image = byId('scan-image');
  image.onload = () => review?.draw(byId('scan-layer'), image.naturalWidth, image.naturalHeight);
  image.src = reviewPhotoUrl;
  const unsure = review.unsure.length;
  byId('scan-summary').textContent =
    `Read ${review.count('given')} printed digits and ${review.count('user')} written by hand. ` +
    (unsure === 0
      ? 'Every cell was read with confidence.'
      : `${unsure} ${unsure === 1 ? 'cell is' : 'cells are'} doubtful, ringed on the photo: ` +
        'check each below against the photo, correct it if need be, then load the puzzle.');
  const list = byId('scan-unsure');
  list.replaceChildren(...review.unsure.map(unsureItem));
  byId('scan-panel').hidden = false;
  byId('scan-panel').scrollIntoView({ block: 'nearest' });
  byId('scan-load').focus();
  say(`Photo read: ${unsure} doubtful ${unsure === 1 ? 'cell' : 'cells'} to check.`, 'success');
}

/** A doubtful cell of the review: its name, its digit and its kind, both changeable. */
function unsureItem(cell) {
  const name = `Row ${cell.row + 1}, col. ${cell.col + 1}`;
  const item = document.createElement('li');
  const label = document.createElement('span');
  label.textContent = `${name} · ${Math.round(cell.confidence * 100)}% sure`;
  const digit = choice(`${name}: digit`, [['0', 'empty'], ...Array.from({ length: 9 }, (_, i) => [String(i + 1), String(i + 1)])],
    String(cell.value));
  const kind = choice(`${name}: printed or by hand`, [['given', 'printed'], ['user', 'by hand']],
    cell.origin === 'user' ? 'user' : 'given');
  const update = () => {
    review.correct(cell, Number(digit.value), kind.value);
    kind.disabled = cell.value === 0;
    const image = byId('scan-image');
    review.draw(byId('scan-layer'), image.naturalWidth, image.naturalHeight);
  };
  kind.disabled = cell.value === 0;
  digit.addEventListener('change', update);
  kind.addEventListener('change', update);
  item.append(label, digit, kind);
  return item;
}

function choice(accessibleName, options, value) {
  const select = document.createElement('select');
  select.setAttribute('aria-label', accessibleName);
  for (const [optionValue, text] of options) select.append(new Option(text, optionValue));
  select.value = value;
  return select;
}

/** Loads the reviewed reading: the printed digits as givens, the handwritten as the player's. */
function loadReview() {
  if (!review) return;
  const { values, origins } = review.reading();
  const givens = values.map((digit, index) => (origins[index] === 'given' ? digit : 0));
  const solved = review.answer.solution?.solution;
  // The server's solution is of the givens it read; a corrected given makes it another puzzle.
  const sameGivens = typeof review.answer.board === 'string' &&
    givens.every((digit, index) => digit === (Number(review.answer.board[index]) || 0));
  const entries = origins.filter((origin) => origin === 'user').length;
  closeReview();
  loadPuzzle(values, 'Scanned puzzle', sameGivens ? readSolution(solved, 9) : null, null, origins);
  say(`Scanned puzzle loaded: ${countGivens()} givens and ${entries} of your digits.`, 'success');
  select(selected);
}

function closeReview() {
  review = null;
  if (reviewPhotoUrl) URL.revokeObjectURL(reviewPhotoUrl);
  reviewPhotoUrl = null;
  byId('scan-panel').hidden = true;
  byId('scan-layer').replaceChildren();
  byId('scan-image').removeAttribute('src');
}

function setPencilMode(on) {
  pencilMode = on;
  render();
}

// --- The API ---------------------------------------------------------------------------

const actionButtons = () => document.querySelectorAll('[data-calls-api]');

/**
 * Runs one API call with the buttons that call the API disabled, and reports failures.
 * When the server cannot be reached, `unreachable` (if given) does what the page can
 * without it. Focus comes back to where it was: a disabled button loses it to the body.
 */
async function withServer(busyText, failurePrefix, work, unreachable) {
  const focused = document.activeElement;
  for (const button of actionButtons()) button.disabled = true;
  document.body.setAttribute('aria-busy', 'true');
  say(busyText);
  try {
    await work();
  } catch (error) {
    if (unreachable && error instanceof api.ApiError && error.status === 0) {
      unreachable(error);
    } else if (error instanceof api.ApiError) {
      reportApiError(failurePrefix, error);
    } else {
      say(`${failurePrefix}: ${error.message}`, 'error');
      throw error;
    }
  } finally {
    for (const button of actionButtons()) button.disabled = false;
    document.body.removeAttribute('aria-busy');
    showHintAvailability();
    keepFocus(focused);
  }
}

/**
 * Puts focus back on `previous` when it fell to the body or sits on a control just hidden or
 * disabled (the browser moves it to the body a moment later), or on the grid if `previous`
 * cannot take it either.
 */
function keepFocus(previous) {
  const usable = (element) =>
    element instanceof HTMLElement && element !== document.body && element.isConnected &&
    !element.disabled && element.offsetParent !== null;
  if (usable(document.activeElement)) return;
  (usable(previous) ? previous : cellElements[selected]).focus();
}

function reportApiError(prefix, error) {
  const conflicts = error.problem?.conflicts;
  if (Array.isArray(conflicts) && conflicts.length > 0) {
    feedback = emptyFeedback();
    for (const conflict of conflicts) {
      for (const { row, col } of conflict.cells ?? []) feedback.conflicts.add(indexOf(row, col));
    }
    render();
    say(`${prefix}: ${error.detail}. ${describeConflicts(conflicts)}`, 'error');
  } else {
    say(`${prefix}: ${error.detail}.`, 'error');
  }
}

/** The units where a conflict is a repeated digit; the others come with a `message`. */
const GROUPS = new Set(['row', 'column', 'box', 'region', 'diagonal', 'extra_region', 'cage']);

function describeConflicts(conflicts) {
  const times = (count) => (count === 2 ? 'twice' : `${count} times`);
  const clashes = conflicts.map((c) =>
    GROUPS.has(c.unit) && c.digit
      ? `${symbol(c.digit)} ${times(c.cells?.length ?? 2)} in ${unitName(c.unit, c.index)}`
      : c.message ?? unitName(c.unit, c.index),
  );
  return `${capitalize(clashes.join('; '))}.`;
}

/** What New puzzle asks for, from the size, variant and difficulty chosen. */
function chosenKind() {
  const chosenSize = Number(byId('size').value);
  const variant = chosenSize === 9 ? byId('variant').value : 'classic';
  if (chosenSize !== 9) return { query: { size: chosenSize }, name: sizeName(chosenSize), example: chosenSize };
  if (variant !== 'classic') return { query: { variant }, name: variant, example: variant };
  const difficulty = byId('difficulty').value;
  return { query: { difficulty }, name: difficulty, example: 'classic' };
}

async function newPuzzle() {
  const kind = chosenKind();
  const offline = () =>
    say(
      'New puzzles come from the server, which cannot be reached (offline?). ' +
        'Restart this one, or paste or type a puzzle in.',
      'error',
    );
  await withServer(`Asking for a new ${kind.name} puzzle…`, 'No new puzzle', async () => {
    let answer;
    try {
      answer = await api.generate(kind.query);
    } catch (error) {
      if (error instanceof api.ApiError && error.isMissingRoute) {
        say(
          `New puzzles are not available on this server yet (${error.detail}). ` +
            'Load the example or paste a puzzle instead.',
          'error',
        );
        return;
      }
      throw error;
    }
    const cells = parseBoard(answer.puzzle);
    const newSize = sideOf(cells.length);
    const label = answer.difficulty ?? kind.name;
    const rating = typeof answer.rating === 'number' ? `, rating ${answer.rating}` : '';
    loadPuzzle(cells, `New ${label} puzzle${rating}`, readSolution(answer.solution, newSize),
      readRules(answer.rules, newSize));
    say(`New ${label} puzzle loaded: ${countGivens()} givens.`, 'success');
  }, offline);
}

/** The difficulties of /daily and /generate, as the difficulty selector lists them. */
const DIFFICULTIES = ['easy', 'medium', 'hard', 'expert', 'extreme'];

/** Loads the day's puzzle (today, UTC) at `difficulty`, with its solution. */
async function dailyPuzzle(difficulty = byId('difficulty').value) {
  if (!DIFFICULTIES.includes(difficulty)) {
    say(`There is no daily puzzle of difficulty "${difficulty}": ` +
      `the difficulties are ${DIFFICULTIES.join(', ')}.`, 'error');
    return;
  }
  const offline = () =>
    say(
      "The daily puzzle comes from the server, which cannot be reached (offline?). " +
        'Restart this one, or paste or type a puzzle in.',
      'error',
    );
  await withServer(`Asking for today's ${difficulty} puzzle…`, 'No daily puzzle', async () => {
    const answer = await api.daily({ difficulty });
    const cells = parseBoard(answer.puzzle);
    const label = `Daily ${answer.difficulty ?? difficulty} puzzle, ${answer.date}`;
    loadPuzzle(cells, label, readSolution(answer.solution, sideOf(cells.length)));
    say(`${label} loaded: ${countGivens()} givens.`, 'success');
  }, offline);
}

/**
 * The address that opens this puzzle: `/?puzzle=` and the puzzle's givens (the board as it
 * stands when it has none), and `&rules=` with its rules as JSON when it has any.
 */
function shareLink() {
  const line = givensLine() ?? toLine(board.values);
  const query = new URLSearchParams({ puzzle: line });
  if (rules) query.set('rules', JSON.stringify(rules));
  return `${location.origin}/?${query}`;
}

/**
 * Copies the share link to the clipboard; where the browser refuses (no permission, no
 * secure context), shows it in a field, selected, for the person to copy.
 */
async function share() {
  const link = shareLink();
  const field = byId('share-link');
  field.value = link;
  try {
    await navigator.clipboard.writeText(link);
    byId('share-box').hidden = true;
    say('Link to this puzzle copied to the clipboard.', 'success');
  } catch {
    byId('share-box').hidden = false;
    field.focus();
    field.select();
    say('Copying was not allowed here: the link is in the field below, selected, to copy.');
  }
}

/**
 * A puzzle named in the page's address, loaded in place of the saved game: `?puzzle=` (a
 * board in any form the paste box takes, with `&rules=` as JSON for a variant) or
 * `?daily=DIFFICULTY` (today's), undoably like any new puzzle. The address is then put back
 * to `/`, so that a reload goes on with the game rather than starting the puzzle again.
 */
function loadFromAddress() {
  const params = new URLSearchParams(location.search);
  const shared = params.get('puzzle');
  const daily = params.get('daily');
  if (shared === null && daily === null) return false;
  window.history.replaceState(null, '', '/');
  if (daily !== null) {
    dailyPuzzle(daily.trim().toLowerCase());
    return true;
  }
  const rulesText = params.get('rules');
  const text = rulesText === null ? shared : `{"board": ${JSON.stringify(shared)}, "rules": ${rulesText}}`;
  try {
    const { cells, rules: sharedRules } = parsePuzzle(text);
    loadPuzzle(cells, 'Shared puzzle', null, sharedRules);
    say(`Shared puzzle loaded: ${countGivens()} givens.`, 'success');
  } catch (error) {
    if (!(error instanceof BoardFormatError)) throw error;
    loadPuzzle(emptyBoard(), 'Your puzzle');
    say(`The link's puzzle could not be read: ${error.message}. The board is empty instead.`, 'error');
  }
  return true;
}

/** A solution the server sent, if it is one: `size`*`size` digits, none empty; null otherwise. */
function readSolution(text, ofSize) {
  try {
    const cells = parseBoard(String(text ?? ''));
    return cells.length === ofSize * ofSize && cells.every((digit) => digit !== 0) ? cells : null;
  } catch (error) {
    if (error instanceof BoardFormatError) return null;
    throw error;
  }
}

/** Marks cells as wrong, as a check does. */
function markConflicts(cells) {
  const kept = feedback.hint ? feedback : emptyFeedback();
  kept.conflicts = new Set(cells);
  feedback = kept;
  render();
}

async function check() {
  await withServer('Checking…', 'Could not check', async () => {
    const report = await api.validate(toLine(board.values), rules);
    markConflicts(report.conflicts.flatMap((c) => c.cells.map(({ row, col }) => indexOf(row, col))));
    const empty = board.values.filter((digit) => digit === 0).length;
    if (report.solved) {
      say(solvedText(), 'success');
    } else if (!report.valid) {
      say(`Not right: ${describeConflicts(report.conflicts)} The clashing cells are marked.`, 'error');
    } else if (!report.solvable) {
      say('No clashes, but the board cannot be finished from here: a digit is wrong.', 'error');
    } else if (!report.unique) {
      say(`No mistakes so far, ${empty} cells to go, but this puzzle has more than one solution.`);
    } else {
      say(`No mistakes so far: ${empty} cells to go.`, 'success');
    }
  }, checkOnThisDevice);
}

/**
 * Check without the server: clashes are found here, and wrong digits too when the page has
 * the puzzle's solution (a puzzle from New puzzle or Solve); it says which it could do.
 */
function checkOnThisDevice() {
  const offline = 'Checked on this device (the server cannot be reached)';
  const conflicts = layout.findConflicts(board.values);
  const empty = board.values.filter((digit) => digit === 0).length;
  if (conflicts.length > 0) {
    markConflicts(conflicts.flatMap((c) => c.cells.map(({ row, col }) => indexOf(row, col))));
    say(`Not right: ${describeConflicts(conflicts)} ${offline}.`, 'error');
    return;
  }
  if (!solution) {
    markConflicts([]);
    say(
      `${offline}: no clashes, ${empty} cells to go. Whether every digit fits the solution ` +
        'needs the server, as this puzzle came without one.',
    );
    return;
  }
  const wrong = board.values.flatMap((digit, index) =>
    digit !== 0 && digit !== solution[index] ? [index] : [],
  );
  markConflicts(wrong);
  if (wrong.length > 0) {
    const count = wrong.length === 1 ? 'One digit does' : `${wrong.length} digits do`;
    say(`Not right: ${count} not fit the solution; marked. ${offline}.`, 'error');
  } else if (empty === 0) {
    say(`${solvedText()} ${offline}.`, 'success');
  } else {
    say(`No mistakes so far: ${empty} cells to go. ${offline}.`, 'success');
  }
}

/** The puzzle as loaded (its givens), or undefined for a board typed in by hand. */
function givensLine() {
  const givens = board.values.map((digit, index) => (board.origin[index] === 'given' ? digit : 0));
  return givens.some((digit) => digit !== 0) ? toLine(givens) : undefined;
}

/**
 * The player's pencil marks as /hint's `candidates`, or undefined when there are none: a
 * list of digits for each pencilled cell, null for the others (which the server reads as
 * not pencilled, so a player who marks a few cells is not told the rest are wrong).
 */
function pencilledCandidates() {
  if (!board.marks.some((marks, index) => marks !== 0 && board.values[index] === 0)) return undefined;
  return board.marks.map((marks, index) => {
    if (board.values[index] !== 0 || marks === 0) return null;
    const digits = [];
    for (let d = 1; d <= size; d++) if (marks & (1 << d)) digits.push(d);
    return digits;
  });
}

async function askHint() {
  const offline = () =>
    say(
      'Hints come from the server, which cannot be reached (offline?). Check still works ' +
        (solution ? "here, against this puzzle's solution." : 'here, for clashes.'),
      'error',
    );
  if (!isClassic(size, rules)) {
    say(hintUnavailableText(), 'error');
    return;
  }
  await withServer('Asking for a hint…', 'No hint', async () => {
    const answer = await api.hint(toLine(board.values), {
      givens: givensLine(),
      candidates: pencilledCandidates(),
    });
    showHint(answer);
  }, offline);
}

async function solve() {
  // Solve the puzzle as given, so a wrong digit of the player's cannot make it unsolvable;
  // a board typed in by hand has no givens and is solved as it stands.
  const givens = board.values.map((digit, index) => (board.origin[index] === 'given' ? digit : 0));
  const source = givens.some((digit) => digit !== 0) ? givens : board.values;
  const fill = (solved, unique, by) => {
    let corrected = 0;
    const edits = new Map();
    solved.forEach((digit, index) => {
      if (board.origin[index] === 'given') return;
      const kept = board.values[index] === digit && board.origin[index] === 'user';
      if (board.values[index] !== 0 && !kept) corrected += 1;
      edits.set(index, { value: digit, marks: 0, origin: kept ? 'user' : 'solver' });
    });
    commit(edits, { ...puzzle(), solution: unique ? solved : solution });
    const parts = [by];
    if (!unique) parts.push('The puzzle has more than one solution; this is one of them.');
    if (corrected > 0) parts.push(`${corrected} of your digits differed and were replaced.`);
    say(parts.join(' '), 'success');
  };
  const offline = (error) => {
    if (solution) fill(solution, true, "Solved from this puzzle's solution (the server cannot be reached).");
    else reportApiError('Could not solve', error);
  };
  await withServer('Solving…', 'Could not solve', async () => {
    const answer = await api.solve(toLine(source), rules);
    fill(parseBoard(answer.solution), answer.unique, 'Solved by the server.');
  }, offline);
}

// --- Hints -----------------------------------------------------------------------------
//
// A hint comes in stages (where to look, the technique, the cells that matter, the answer),
// shown one press of More at a time, so that a player can stop as soon as they see it.

/** The stages of a /hint answer; an answer without them is one stage, its explanation. */
function stagesOf(answer) {
  if (Array.isArray(answer.stages) && answer.stages.length > 0) return answer.stages;
  return [{ kind: 'answer', text: answer.explanation ?? '', highlights: answer.highlights ?? {} }];
}

function showHint(answer) {
  const conflicts = feedback.conflicts;
  feedback = emptyFeedback();
  feedback.conflicts = conflicts; // a hint says nothing about Check's marks: they stay
  feedback.hint = answer;
  const list = byId('hint-stages');
  list.replaceChildren();
  list.lang = answer.language || '';
  // Nothing of the previous hint may show for the frame before the first stage.
  byId('hint-title').textContent = 'Hint';
  byId('hint-steps').textContent = '';
  byId('hint-apply').hidden = true;
  byId('hint-more').hidden = true;
  byId('hint-panel').hidden = false;
  // The list is a live region: it must be in the page before its first item arrives for
  // screen readers to announce that item.
  requestAnimationFrame(() => showNextStage());
}

function hintAnswerShown() {
  return feedback.hint !== null && feedback.stagesShown >= stagesOf(feedback.hint).length;
}

/** Whether the hint shown places `digit` in the cell `index`. */
function hintLeadsTo(index, digit) {
  return (feedback.hint?.placements ?? []).some(
    (p) => indexOf(p.row, p.col) === index && p.digit === digit,
  );
}

/** Reveals one more stage of the hint shown: its words, and the cells and units it marks. */
function showNextStage() {
  const answer = feedback.hint;
  if (!answer) return;
  const stages = stagesOf(answer);
  const shown = Math.min(feedback.stagesShown + 1, stages.length);
  feedback.stagesShown = shown;
  const stage = stages[shown - 1];
  const last = shown === stages.length;

  feedback.hintCells = new Set();
  feedback.hintUnitCells = new Set();
  feedback.placements = new Map();
  feedback.eliminations = new Map();
  for (const { row, col } of stage.highlights?.cells ?? []) feedback.hintCells.add(indexOf(row, col));
  for (const { unit, index } of stage.highlights?.units ?? []) {
    for (const cell of layout.unitCells(unit, index)) feedback.hintUnitCells.add(cell);
  }
  if (last) {
    for (const { row, col, digit } of answer.placements ?? []) {
      feedback.placements.set(indexOf(row, col), digit);
      feedback.hintCells.add(indexOf(row, col));
    }
    for (const { row, col, digit } of answer.eliminations ?? []) {
      const index = indexOf(row, col);
      feedback.eliminations.set(index, (feedback.eliminations.get(index) ?? 0) | (1 << digit));
    }
  }

  // The technique's name waits for its stage: before it, the title would give it away.
  const namedAt = stages.findIndex((s) => s.kind === 'technique');
  const named = namedAt < 0 || shown > namedAt;
  byId('hint-title').textContent = named
    ? `Hint: ${hintTitle(answer)}` + (typeof answer.rating === 'number' ? ` (rating ${answer.rating})` : '')
    : 'Hint';
  const item = document.createElement('li');
  item.dataset.kind = stage.kind;
  item.textContent = stage.text;
  byId('hint-stages').append(item);

  const steps = last ? applicableSteps(answer) : [];
  byId('hint-steps').textContent = steps.length ? `Apply will ${steps.join('; ')}.` : '';
  byId('hint-apply').hidden = steps.length === 0;
  byId('hint-more').hidden = last;
  say(last ? `Hint, part ${shown} of ${stages.length}.` :
    `Hint, part ${shown} of ${stages.length}: More shows the next part.`);

  if (last && answer.kind === 'mistake' && feedback.hintCells.size > 0) {
    // The cell at fault becomes the selected one, ready to be erased.
    select([...feedback.hintCells][0], { focus: false });
  } else {
    render();
  }
  keepFocus(byId(last ? (steps.length ? 'hint-apply' : 'hint-dismiss') : 'hint-more'));
  // On a phone the panel is below the board: bring its buttons into view.
  byId('hint-buttons').scrollIntoView({ block: 'nearest' });
}

/** What Apply would do with this board, in words: placements, and pencil marks it removes. */
function applicableSteps(answer) {
  return [
    ...(answer.placements ?? []).map((p) => `place ${p.digit} in ${cellName(indexOf(p.row, p.col))}`),
    ...(answer.eliminations ?? []).map(
      (e) => `remove ${e.digit} from ${cellName(indexOf(e.row, e.col))}`,
    ),
  ];
}

function applyHint() {
  const answer = feedback.hint;
  if (!answer) return;
  const edits = new Map();
  let removed = 0;
  for (const { row, col, digit } of answer.eliminations ?? []) {
    const index = indexOf(row, col);
    const cell = edits.get(index) ?? snapshot(index);
    if (cell.marks & (1 << digit)) removed += 1;
    edits.set(index, { ...cell, marks: cell.marks & ~(1 << digit) });
  }
  let placed = 0;
  let placedAt;
  for (const { row, col, digit } of answer.placements ?? []) {
    const index = indexOf(row, col);
    if (board.origin[index] === 'given') continue;
    edits.set(index, { value: digit, marks: 0, origin: 'user' });
    placed += 1;
    placedAt ??= index;
  }
  if (!commit(edits)) {
    clearHint();
    say('Nothing to apply: the board already shows what the hint would change.');
    cellElements[selected].focus();
    return;
  }
  select(placedAt ?? selected);
  if (board.values.every((value) => value !== 0)) {
    announceFullBoard();
    return;
  }
  const parts = [];
  if (placed) parts.push(`${placed} digit${placed > 1 ? 's' : ''} placed`);
  if (removed) parts.push(`${removed} pencil mark${removed > 1 ? 's' : ''} removed`);
  say(`Hint applied: ${parts.join(', ')}.`, 'success');
}

/** Takes the hint away, leaving Check's marks. */
function clearHint() {
  const conflicts = feedback.conflicts;
  feedback = emptyFeedback();
  feedback.conflicts = conflicts;
  hideHint();
  render();
}

function hideHint() {
  byId('hint-panel').hidden = true;
}

/** What a hint is about, in a few words: its technique, or its kind. */
function hintTitle(answer) {
  if (answer.technique_name) return answer.technique_name;
  const kinds = {
    mistake: 'a mistake',
    pencil_marks: 'pencil marks',
    solved: 'solved',
    stuck: 'one digit',
  };
  return capitalize(kinds[answer.kind] ?? 'next step');
}

// --- View ------------------------------------------------------------------------------

const byId = (id) => document.getElementById(id);
const cellElements = [];
/** The layout the grid, the digit pad and the rules drawn were last built for. */
let builtFor = null;
/** Per cell, the rules it is under, in words. */
let ruleNotes = [];

/** Columns of the digit pad, beside the board and (phone) under it. */
const PAD_COLUMNS = { 4: [4, 4], 6: [3, 6], 9: [3, 9], 16: [4, 8] };

/**
 * Builds the grid, the digit pad and the drawing of the rules for the puzzle's side and
 * rules. Keyboard focus on the grid stays on the grid.
 */
function buildBoard() {
  const grid = byId('grid');
  const focusWasOnGrid = grid.contains(document.activeElement);
  const { size: side, box } = layout;
  grid.style.setProperty('--size', String(side));
  grid.style.setProperty('--box-rows', String(box.rows));
  grid.style.setProperty('--box-cols', String(box.cols));
  grid.setAttribute('aria-rowcount', String(side));
  grid.setAttribute('aria-colcount', String(side));
  grid.closest('.layout').dataset.size = String(side);
  ruleNotes = describeRules();
  const sums = new Map(
    (layout.rules.cages ?? [])
      .filter((cage) => cage.sum !== undefined)
      .map((cage) => [Math.min(...layout.indexesOf(cage.cells)), cage.sum]),
  );

  cellElements.length = 0;
  const rows = [];
  for (let row = 0; row < side; row++) {
    const rowElement = document.createElement('div');
    rowElement.setAttribute('role', 'row');
    rowElement.setAttribute('aria-rowindex', String(row + 1));
    rowElement.className = 'grid-row';
    for (let col = 0; col < side; col++) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.setAttribute('aria-colindex', String(col + 1));
      cell.className = 'cell';
      cell.dataset.row = String(row);
      cell.dataset.col = String(col);
      cell.tabIndex = -1;
      const value = document.createElement('span');
      value.className = 'value';
      value.setAttribute('aria-hidden', 'true');
      const marks = document.createElement('span');
      marks.className = 'marks';
      marks.setAttribute('aria-hidden', 'true');
      // The digit is drawn by CSS from data-digit, not held as text: the cell's name
      // (aria-label) already reads the marks out, and text here would not match it.
      for (let digit = 1; digit <= side; digit++) {
        const mark = document.createElement('span');
        mark.className = 'mark';
        mark.dataset.digit = symbol(digit);
        marks.append(mark);
      }
      cell.append(value);
      const sum = sums.get(layout.indexOf(row, col));
      if (sum !== undefined) {
        const label = document.createElement('span');
        label.className = 'cage-sum';
        label.setAttribute('aria-hidden', 'true');
        // Drawn by CSS, as the marks are: the cell's name says the sum already.
        label.dataset.sum = String(sum);
        cell.append(label);
      }
      cell.append(marks);
      rowElement.append(cell);
      cellElements.push(cell);
    }
    rows.push(rowElement);
  }
  grid.replaceChildren(...rows);
  drawRules(byId('rules-layer'), layout);
  buildPad();
  showRulesSummary();
  showHintAvailability();
  builtFor = layout;
  if (focusWasOnGrid) cellElements[selected].focus();
}

/** One pad key per digit of the side, 1-9 then letters. */
function buildPad() {
  const pad = byId('pad-digits');
  const [columns, phoneColumns] = PAD_COLUMNS[size];
  pad.style.setProperty('--pad-columns', String(columns));
  pad.style.setProperty('--pad-columns-phone', String(phoneColumns));
  pad.replaceChildren(
    ...Array.from({ length: size }, (_, i) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'pad-digit';
      button.dataset.digit = String(i + 1);
      button.textContent = symbol(i + 1);
      return button;
    }),
  );
}

/** Per cell, the rules it is under, in words, for its name: "cage 3, sum 15". */
function describeRules() {
  const notes = Array.from({ length: layout.cells }, () => []);
  const note = (cells, text) => {
    for (const index of layout.indexesOf(cells)) notes[index].push(text);
  };
  if (layout.jigsaw) {
    layout.regionOf.forEach((region, index) => notes[index].push(`region ${region + 1}`));
  }
  const { rules: shown } = layout;
  for (const diagonal of shown.diagonals ?? []) {
    note(layout.unitCells('diagonal', shown.diagonals.indexOf(diagonal)).map((i) => layout.cellOf(i)),
      diagonal === 'main' ? 'on the main diagonal' : 'on the anti-diagonal');
  }
  (shown.extra_regions ?? []).forEach((region, i) => note(region, `shaded region ${i + 1}`));
  (shown.cages ?? []).forEach((cage, i) =>
    note(cage.cells, cage.sum === undefined ? `cage ${i + 1}` : `cage ${i + 1}, sum ${cage.sum}`));
  note(shown.odd ?? [], 'odd');
  note(shown.even ?? [], 'even');
  (shown.thermometers ?? []).forEach((thermometer, i) =>
    thermometer.forEach((cell, step) =>
      note([cell], step === 0 ? `thermometer ${i + 1} bulb` : `thermometer ${i + 1}, step ${step + 1}`)));
  return notes;
}

/** The puzzle's rules beyond the classic ones, in a sentence each, above the board. */
function showRulesSummary() {
  const shown = layout.rules;
  const sentences = [
    [layout.jigsaw, 'Jigsaw: each region inside thick borders holds every digit once, instead of boxes.'],
    [shown.cages, 'Killer: the digits of each dashed cage differ and add up to its small number.'],
    [shown.diagonals, 'Diagonal: each line drawn corner to corner holds every digit once.'],
    [shown.extra_regions, 'Windoku: each shaded square holds every digit once.'],
    [shown.thermometers, 'Thermometers: digits rise from the bulb along the tube.'],
    [shown.odd, 'Cells with a circle hold odd digits.'],
    [shown.even, 'Cells with a square hold even digits.'],
    [shown.anti_knight, "Anti-knight: equal digits are never a chess knight's move apart."],
    [shown.anti_king, "Anti-king: equal digits never touch, not even diagonally."],
  ];
  const summary = byId('rules-summary');
  summary.textContent = sentences.filter(([on]) => on).map(([, text]) => text).join(' ');
  summary.hidden = summary.textContent === '';
}

function hintUnavailableText() {
  return `Hints know classic 9×9 puzzles only, not this ${rules ? 'variant' : sizeName(size)} yet; ` +
    'Check and Solve work on it.';
}

/** Hint is for classic 9x9 puzzles (the server answers nothing else yet); it says so. */
function showHintAvailability() {
  const classic = isClassic(size, rules);
  // While a call is under way every button that calls the server stays off.
  byId('hint').disabled = !classic || document.body.hasAttribute('aria-busy');
  byId('hint-note').hidden = classic;
  byId('hint-note').textContent = classic ? '' : hintUnavailableText();
}

/** The New puzzle choices that do not fit the size chosen are switched off. */
function showKindChoices() {
  const nine = byId('size').value === '9';
  byId('variant').disabled = !nine;
  byId('difficulty').disabled = !nine || byId('variant').value !== 'classic';
}

function render() {
  if (builtFor !== layout) buildBoard();
  const focusDigit = board.values[selected];
  board.values.forEach((digit, index) => {
    const cell = cellElements[index];
    const classes = ['cell'];
    if (board.origin[index]) classes.push(board.origin[index]);
    if (index === selected) classes.push('selected');
    else if (layout.arePeers(index, selected)) classes.push('peer');
    if (focusDigit && digit === focusDigit && index !== selected) classes.push('same');
    if (feedback.conflicts.has(index)) classes.push('conflict');
    if (feedback.hintCells.has(index)) classes.push('hint-cell');
    else if (feedback.hintUnitCells.has(index)) classes.push('hint-unit');
    const suggestion = digit === 0 ? feedback.placements.get(index) : undefined;
    if (suggestion) classes.push('suggested');
    cell.className = classes.join(' ');

    cell.firstChild.textContent = digit ? symbol(digit) : suggestion ? symbol(suggestion) : '';
    const marks = digit ? 0 : board.marks[index];
    const struck = feedback.eliminations.get(index) ?? 0;
    Array.from(cell.lastChild.children).forEach((mark, i) => {
      const bit = 1 << (i + 1);
      mark.classList.toggle('on', Boolean(marks & bit) && !suggestion);
      mark.classList.toggle('struck', Boolean(marks & struck & bit));
    });

    cell.tabIndex = index === selected ? 0 : -1;
    cell.setAttribute('aria-selected', String(index === selected));
    if (board.origin[index] === 'given') cell.setAttribute('aria-readonly', 'true');
    else cell.removeAttribute('aria-readonly');
    cell.setAttribute('aria-label', describeCell(index, suggestion));
  });

  byId('puzzle-title').textContent = title || 'Your puzzle';
  const pencil = byId('pencil');
  pencil.setAttribute('aria-pressed', String(pencilMode));
  byId('undo').disabled = history.length === 0;
}

function describeCell(index, suggestion) {
  const parts = [capitalize(cellName(index))];
  const digit = board.values[index];
  if (digit) {
    parts.push(symbol(digit));
    if (board.origin[index] === 'given') parts.push('given');
    if (board.origin[index] === 'solver') parts.push('from the solver');
  } else {
    parts.push('empty');
    const marks = [];
    for (let d = 1; d <= size; d++) if (board.marks[index] & (1 << d)) marks.push(symbol(d));
    if (marks.length) parts.push(`pencil marks ${marks.join(' ')}`);
  }
  parts.push(...ruleNotes[index]);
  if (feedback.conflicts.has(index)) parts.push('conflict');
  if (suggestion) parts.push(`hint: ${suggestion}`);
  else if (feedback.hintCells.has(index)) parts.push('hint cell');
  return parts.join(', ');
}

/** Shows a message; `kind` is 'info', 'success' or 'error'. */
function say(text, kind = 'info') {
  const status = byId('status');
  status.textContent = text;
  status.dataset.kind = kind;
}

function select(index, { focus = true } = {}) {
  selected = Math.max(0, Math.min(layout.cells - 1, index));
  render();
  if (focus) cellElements[selected].focus();
}

function countGivens() {
  return board.origin.filter((origin) => origin === 'given').length;
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// --- Input -----------------------------------------------------------------------------

/** Keys on the grid, after the ARIA grid pattern: one tab stop, arrows inside it. */
function onGridKey(event) {
  if (event.altKey) return;
  const command = event.ctrlKey || event.metaKey;
  const row = layout.rowOf(selected);
  const col = layout.colOf(selected);
  const last = size - 1;
  const moves = {
    ArrowUp: () => indexOf(Math.max(0, row - 1), col),
    ArrowDown: () => indexOf(Math.min(last, row + 1), col),
    ArrowLeft: () => indexOf(row, Math.max(0, col - 1)),
    ArrowRight: () => indexOf(row, Math.min(last, col + 1)),
    Home: () => (command ? 0 : indexOf(row, 0)),
    End: () => (command ? layout.cells - 1 : indexOf(row, last)),
  };
  // Shift+digit pencils: read from the key's place (Shift+1 types "!"), letters past 9 too.
  const shifted = /^(Digit|Numpad|Key)([1-9A-Z])$/.exec(event.code);
  const typed = event.key.length === 1 ? digitOf(event.key) : 0;
  if (moves[event.key]) {
    select(moves[event.key]());
  } else if (command) {
    return; // Ctrl+Z and Ctrl+V are handled for the whole page.
  } else if (event.shiftKey && shifted && fitsBoard(digitOf(shifted[2]))) {
    toggleMark(selected, digitOf(shifted[2]));
  } else if (fitsBoard(typed)) {
    enter(selected, typed);
  } else if (/^[1-9]$/.test(event.key)) {
    say(`A ${sizeName(size)} puzzle has digits 1 to ${symbol(size)}.`);
  } else if (['0', 'Backspace', 'Delete', '.'].includes(event.key)) {
    erase(selected);
  } else if (event.key === 'p' || event.key === 'P') {
    setPencilMode(!pencilMode);
    say(pencilMode ? 'Pencil marks on: digits toggle marks.' : 'Pencil marks off: digits fill cells.');
  } else {
    return;
  }
  event.preventDefault();
}

/** Whether a digit is one of the board's: 1 to N. */
function fitsBoard(digit) {
  return digit >= 1 && digit <= size;
}

function isTextField(element) {
  return element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement ||
    element instanceof HTMLSelectElement;
}

function onPageKey(event) {
  const command = event.ctrlKey || event.metaKey;
  if (command && !event.shiftKey && event.key.toLowerCase() === 'z' && !isTextField(event.target)) {
    event.preventDefault();
    undo();
  }
}

function onPaste(event) {
  if (isTextField(event.target)) return;
  const text = event.clipboardData?.getData('text/plain') ?? '';
  event.preventDefault();
  loadFromText(text, 'Pasted puzzle');
}

function loadFromText(text, newTitle) {
  try {
    const { cells, rules: pastedRules } = parsePuzzle(text);
    loadPuzzle(cells, newTitle, null, pastedRules);
    say(`Puzzle loaded: ${countGivens()} givens.`, 'success');
    return true;
  } catch (error) {
    if (!(error instanceof BoardFormatError)) throw error;
    say(`Could not read that puzzle: ${error.message}.`, 'error');
    return false;
  }
}

function wire() {
  const grid = byId('grid');
  grid.addEventListener('keydown', onGridKey);
  grid.addEventListener('click', (event) => {
    const cell = event.target.closest('.cell');
    if (cell) select(indexOf(Number(cell.dataset.row), Number(cell.dataset.col)));
  });
  document.addEventListener('keydown', onPageKey);
  document.addEventListener('paste', onPaste);

  // A tap or click on the pad leaves the keyboard on the grid, so that typing goes on
  // where it was; Enter or Space on a pad key (detail 0) leaves focus on the key.
  const onPad = (button, action) =>
    button.addEventListener('click', (event) => {
      action();
      if (event.detail > 0) cellElements[selected].focus();
    });
  // The keys come and go with the side: one listener on their row serves them all.
  byId('pad-digits').addEventListener('click', (event) => {
    const button = event.target.closest('.pad-digit');
    if (!button) return;
    enter(selected, Number(button.dataset.digit));
    if (event.detail > 0) cellElements[selected].focus();
  });
  onPad(byId('erase'), () => erase(selected));
  onPad(byId('pencil'), () => setPencilMode(!pencilMode));
  onPad(byId('undo'), undo);

  for (const id of ['check', 'hint', 'solve', 'new', 'daily', 'scan']) byId(id).dataset.callsApi = '';
  byId('scan').addEventListener('click', () => byId('scan-file').click());
  byId('scan-file').addEventListener('change', async (event) => {
    const [file] = event.target.files;
    // Cleared, so that choosing the same photo again reads it again.
    event.target.value = '';
    if (file) await scanPhoto(file);
  });
  byId('scan-load').addEventListener('click', loadReview);
  byId('scan-cancel').addEventListener('click', () => {
    closeReview();
    say('Scan put aside; the board is as it was.');
    byId('scan').focus();
  });
  byId('check').addEventListener('click', check);
  byId('hint').addEventListener('click', askHint);
  byId('solve').addEventListener('click', solve);
  byId('new').addEventListener('click', newPuzzle);
  byId('daily').addEventListener('click', () => dailyPuzzle());
  byId('share').addEventListener('click', share);
  byId('hint-more').addEventListener('click', showNextStage);
  byId('hint-apply').addEventListener('click', applyHint);
  byId('hint-dismiss').addEventListener('click', () => {
    clearHint();
    cellElements[selected].focus();
  });

  byId('size').addEventListener('change', showKindChoices);
  byId('variant').addEventListener('change', showKindChoices);
  byId('example').addEventListener('click', () => {
    const example = EXAMPLES[chosenKind().example];
    loadPuzzle(parseBoard(example.puzzle), example.name, null, example.rules);
    say(`${example.name} loaded.`, 'success');
  });
  byId('empty').addEventListener('click', () => {
    loadPuzzle(emptyBoard(Number(byId('size').value)), 'Your puzzle');
    say('Empty grid: type a puzzle in, then check or solve it.');
    select(0);
  });
  byId('restart').addEventListener('click', () => {
    const givens = board.values.map((digit, i) => (board.origin[i] === 'given' ? digit : 0));
    loadPuzzle(givens, title, solution, rules);
    say('Back to the start of this puzzle.');
  });
  byId('paste-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (loadFromText(byId('paste').value, 'Pasted puzzle')) select(0);
  });
}

// --- Saving and offline ----------------------------------------------------------------

function save() {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...board, title, solution, size, rules }));
  } catch {
    // Storage can be full or switched off; the game goes on without it.
  }
}

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    // A save from before other sides has 81 cells and no rules: a classic 9x9.
    const side = sideOf(saved?.values?.length);
    const fits = (list) => Array.isArray(list) && list.length === side * side;
    if (side && fits(saved.values) && fits(saved.marks) && fits(saved.origin)) {
      board.values = saved.values.map(Number);
      board.marks = saved.marks.map(Number);
      board.origin = saved.origin.map(String);
      setPuzzle({
        title: String(saved.title ?? ''),
        solution: fits(saved.solution) && saved.solution.every((d) => Number.isInteger(d) && d >= 1 && d <= side)
          ? saved.solution
          : null,
        size: side,
        rules: readRules(saved.rules, side),
      });
      return true;
    }
  } catch {
    // A damaged save is ignored: the example loads instead.
  }
  return false;
}

/**
 * The page's CSP requires Trusted Types for script URLs; this policy (`trusted-types
 * playground` in the CSP) lets exactly one through: the service worker's.
 */
function workerUrl() {
  const url = '/sw.js';
  if (!globalThis.trustedTypes) return url;
  const policy = trustedTypes.createPolicy('playground', {
    createScriptURL: (candidate) => {
      if (candidate !== url) throw new TypeError(`script URL ${candidate} is not allowed`);
      return candidate;
    },
  });
  return policy.createScriptURL(url);
}

async function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  try {
    await navigator.serviceWorker.register(workerUrl());
    await navigator.serviceWorker.ready;
    byId('offline-note').textContent =
      'Once loaded, this page opens without a network, and Check works on this device; ' +
      'hints and new puzzles need the server.';
  } catch (error) {
    // Not an API error: the page works without it, only not offline.
    console.warn('service worker not registered:', error);
  }
}

// --- Start -----------------------------------------------------------------------------

wire();
if (!load()) {
  board.values = parseBoard(EXAMPLES.classic.puzzle);
  board.origin = board.values.map((digit) => (digit ? 'given' : ''));
  title = EXAMPLES.classic.name;
}
showKindChoices();
render();
// After the saved game, so that Undo brings it back.
loadFromAddress();
document.documentElement.dataset.ready = 'true';
registerServiceWorker();
