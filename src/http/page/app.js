// The playground: the grid, its input (keyboard, pointer, digit pad, paste), undo, and the
// four calls to the API. State lives in plain arrays; render() redraws all 81 cells from
// it after every change, which is cheap and leaves no half-updated view.

import * as api from './api.js';
import {
  CELLS,
  CLASSIC,
  BoardFormatError,
  arePeers,
  cellName,
  colOf,
  emptyBoard,
  indexOf,
  parseBoard,
  rowOf,
  toLine,
  unitCells,
  unitName,
} from './board.js';

const STORAGE_KEY = 'sudoku-playground/v1';
const HISTORY_LIMIT = 1000;

// --- State ---------------------------------------------------------------------------

/** Per cell: the digit (0 empty), pencil marks (bit d set for digit d), and who put it. */
const board = {
  values: emptyBoard(),
  marks: emptyBoard(),
  /** '' empty, 'given' part of the puzzle, 'user' typed, 'solver' filled by /solve */
  origin: new Array(CELLS).fill(''),
};
let title = '';
let selected = 0;
let pencilMode = false;
/** Undo steps, each a list of {index, before, after} cell snapshots. */
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
    hint: null,
  };
}

function snapshot(index) {
  return { value: board.values[index], marks: board.marks[index], origin: board.origin[index] };
}

function restore(index, cell) {
  board.values[index] = cell.value;
  board.marks[index] = cell.marks;
  board.origin[index] = cell.origin;
}

/** Applies `edits` (index -> new cell) as one undo step. */
function commit(edits) {
  const step = [];
  for (const [index, after] of edits) {
    const before = snapshot(index);
    if (before.value === after.value && before.marks === after.marks && before.origin === after.origin) {
      continue;
    }
    step.push({ index, before, after });
    restore(index, after);
  }
  if (step.length === 0) return false;
  history.push(step);
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
  for (const { index, before } of step.slice().reverse()) restore(index, before);
  feedback = emptyFeedback();
  hideHint();
  save();
  render();
  say(step.length === 1 ? `Undone: ${cellName(step[0].index)}.` : `Undone: ${step.length} cells.`);
}

// --- Moves -----------------------------------------------------------------------------

function place(index, digit) {
  if (board.origin[index] === 'given') {
    say(`${capitalize(cellName(index))} is part of the puzzle and cannot change.`);
    return;
  }
  const edits = new Map([[index, { value: digit, marks: 0, origin: 'user' }]]);
  // A placed digit can no longer be a candidate of its peers: their pencil marks go.
  for (let peer = 0; peer < CELLS; peer++) {
    if (arePeers(index, peer) && board.marks[peer] & (1 << digit)) {
      edits.set(peer, { ...snapshot(peer), marks: board.marks[peer] & ~(1 << digit) });
    }
  }
  commit(edits);
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

/** Replaces the whole board by a puzzle; undoable like any move. */
function loadPuzzle(cells, newTitle) {
  const edits = new Map();
  cells.forEach((digit, index) => {
    edits.set(index, { value: digit, marks: 0, origin: digit ? 'given' : '' });
  });
  const changed = commit(edits);
  title = newTitle;
  if (!changed) {
    feedback = emptyFeedback();
    hideHint();
  }
  save();
  render();
}

function setPencilMode(on) {
  pencilMode = on;
  render();
}

// --- The API ---------------------------------------------------------------------------

const actionButtons = () => document.querySelectorAll('[data-calls-api]');

/** Runs one API call with the buttons that call the API disabled, and reports failures. */
async function withServer(busyText, failurePrefix, work) {
  for (const button of actionButtons()) button.disabled = true;
  document.body.setAttribute('aria-busy', 'true');
  say(busyText);
  try {
    await work();
  } catch (error) {
    if (error instanceof api.ApiError) {
      reportApiError(failurePrefix, error);
    } else {
      say(`${failurePrefix}: ${error.message}`, 'error');
      throw error;
    }
  } finally {
    for (const button of actionButtons()) button.disabled = false;
    document.body.removeAttribute('aria-busy');
  }
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

function describeConflicts(conflicts) {
  const times = (count) => (count === 2 ? 'twice' : `${count} times`);
  const clashes = conflicts.map(
    (c) => `${c.digit} ${times(c.cells?.length ?? 2)} in ${unitName(c.unit, c.index)}`,
  );
  return `${capitalize(clashes.join('; '))}.`;
}

async function newPuzzle() {
  const difficulty = byId('difficulty').value;
  await withServer(`Asking for a new ${difficulty} puzzle…`, 'No new puzzle', async () => {
    let answer;
    try {
      answer = await api.generate(difficulty);
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
    const rating = typeof answer.rating === 'number' ? `, rating ${answer.rating}` : '';
    loadPuzzle(cells, `New ${answer.difficulty ?? difficulty} puzzle${rating}`);
    say(`New ${answer.difficulty ?? difficulty} puzzle loaded: ${countGivens()} givens.`, 'success');
  });
}

async function check() {
  await withServer('Checking…', 'Could not check', async () => {
    const report = await api.validate(toLine(board.values));
    feedback = emptyFeedback();
    for (const conflict of report.conflicts) {
      for (const { row, col } of conflict.cells) feedback.conflicts.add(indexOf(row, col));
    }
    render();
    const empty = board.values.filter((digit) => digit === 0).length;
    if (report.solved) {
      say('Solved! Every row, column and box holds 1 to 9.', 'success');
    } else if (!report.valid) {
      say(`Not right: ${describeConflicts(report.conflicts)} The clashing cells are marked.`, 'error');
    } else if (!report.solvable) {
      say('No clashes, but the board cannot be finished from here: a digit is wrong.', 'error');
    } else if (!report.unique) {
      say(`No mistakes so far, ${empty} cells to go, but this puzzle has more than one solution.`);
    } else {
      say(`No mistakes so far: ${empty} cells to go.`, 'success');
    }
  });
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
    for (let d = 1; d <= 9; d++) if (marks & (1 << d)) digits.push(d);
    return digits;
  });
}

async function askHint() {
  await withServer('Asking for a hint…', 'No hint', async () => {
    const answer = await api.hint(toLine(board.values), {
      givens: givensLine(),
      candidates: pencilledCandidates(),
    });
    showHint(answer);
    say('');
  });
}

async function solve() {
  // Solve the puzzle as given, so a wrong digit of the player's cannot make it unsolvable;
  // a board typed in by hand has no givens and is solved as it stands.
  const givens = board.values.map((digit, index) => (board.origin[index] === 'given' ? digit : 0));
  const source = givens.some((digit) => digit !== 0) ? givens : board.values;
  await withServer('Solving…', 'Could not solve', async () => {
    const answer = await api.solve(toLine(source));
    const solution = parseBoard(answer.solution);
    let corrected = 0;
    const edits = new Map();
    solution.forEach((digit, index) => {
      if (board.origin[index] === 'given') return;
      const kept = board.values[index] === digit && board.origin[index] === 'user';
      if (board.values[index] !== 0 && !kept) corrected += 1;
      edits.set(index, { value: digit, marks: 0, origin: kept ? 'user' : 'solver' });
    });
    commit(edits);
    const parts = ['Solved by the server.'];
    if (!answer.unique) parts.push('The puzzle has more than one solution; this is one of them.');
    if (corrected > 0) parts.push(`${corrected} of your digits differed and were replaced.`);
    say(parts.join(' '), 'success');
  });
}

// --- Hints -----------------------------------------------------------------------------

function showHint(answer) {
  feedback = emptyFeedback();
  feedback.hint = answer;
  for (const { row, col } of answer.highlights?.cells ?? []) {
    feedback.hintCells.add(indexOf(row, col));
  }
  for (const { unit, index } of answer.highlights?.units ?? []) {
    for (const cell of unitCells(unit, index)) feedback.hintUnitCells.add(cell);
  }
  for (const { row, col, digit } of answer.placements ?? []) {
    feedback.placements.set(indexOf(row, col), digit);
    feedback.hintCells.add(indexOf(row, col));
  }
  for (const { row, col, digit } of answer.eliminations ?? []) {
    const index = indexOf(row, col);
    feedback.eliminations.set(index, (feedback.eliminations.get(index) ?? 0) | (1 << digit));
  }

  byId('hint-title').textContent = `Hint: ${hintTitle(answer)}` +
    (typeof answer.rating === 'number' ? ` (rating ${answer.rating})` : '');
  byId('hint-explanation').textContent = answer.explanation ?? '';
  const steps = [
    ...(answer.placements ?? []).map((p) => `place ${p.digit} in ${cellName(indexOf(p.row, p.col))}`),
    ...(answer.eliminations ?? []).map(
      (e) => `remove ${e.digit} from ${cellName(indexOf(e.row, e.col))}`,
    ),
  ];
  byId('hint-steps').textContent = steps.length ? `Apply will ${steps.join('; ')}.` : '';
  byId('hint-apply').hidden = steps.length === 0;
  byId('hint-panel').hidden = false;
  render();
}

function applyHint() {
  const answer = feedback.hint;
  if (!answer) return;
  const edits = new Map();
  for (const { row, col, digit } of answer.eliminations ?? []) {
    const index = indexOf(row, col);
    const cell = edits.get(index) ?? snapshot(index);
    edits.set(index, { ...cell, marks: cell.marks & ~(1 << digit) });
  }
  for (const { row, col, digit } of answer.placements ?? []) {
    const index = indexOf(row, col);
    if (board.origin[index] !== 'given') edits.set(index, { value: digit, marks: 0, origin: 'user' });
  }
  const placed = (answer.placements ?? []).length;
  commit(edits);
  say(placed ? `Hint applied: ${placed} digit${placed > 1 ? 's' : ''} placed.` : 'Hint applied.', 'success');
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

function buildGrid() {
  const grid = byId('grid');
  for (let row = 0; row < 9; row++) {
    const rowElement = document.createElement('div');
    rowElement.setAttribute('role', 'row');
    rowElement.setAttribute('aria-rowindex', String(row + 1));
    rowElement.className = 'grid-row';
    for (let col = 0; col < 9; col++) {
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
      for (let digit = 1; digit <= 9; digit++) {
        const mark = document.createElement('span');
        mark.className = 'mark';
        mark.dataset.digit = String(digit);
        marks.append(mark);
      }
      cell.append(value, marks);
      rowElement.append(cell);
      cellElements.push(cell);
    }
    grid.append(rowElement);
  }
}

function render() {
  const focusDigit = board.values[selected];
  board.values.forEach((digit, index) => {
    const cell = cellElements[index];
    const classes = ['cell'];
    if (board.origin[index]) classes.push(board.origin[index]);
    if (index === selected) classes.push('selected');
    else if (arePeers(index, selected)) classes.push('peer');
    if (focusDigit && digit === focusDigit && index !== selected) classes.push('same');
    if (feedback.conflicts.has(index)) classes.push('conflict');
    if (feedback.hintCells.has(index)) classes.push('hint-cell');
    else if (feedback.hintUnitCells.has(index)) classes.push('hint-unit');
    const suggestion = digit === 0 ? feedback.placements.get(index) : undefined;
    if (suggestion) classes.push('suggested');
    cell.className = classes.join(' ');

    cell.firstChild.textContent = digit ? String(digit) : suggestion ? String(suggestion) : '';
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
    parts.push(String(digit));
    if (board.origin[index] === 'given') parts.push('given');
    if (board.origin[index] === 'solver') parts.push('from the solver');
  } else {
    parts.push('empty');
    const marks = [];
    for (let d = 1; d <= 9; d++) if (board.marks[index] & (1 << d)) marks.push(d);
    if (marks.length) parts.push(`pencil marks ${marks.join(' ')}`);
  }
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
  selected = Math.max(0, Math.min(CELLS - 1, index));
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
  const row = rowOf(selected);
  const col = colOf(selected);
  const moves = {
    ArrowUp: () => indexOf(Math.max(0, row - 1), col),
    ArrowDown: () => indexOf(Math.min(8, row + 1), col),
    ArrowLeft: () => indexOf(row, Math.max(0, col - 1)),
    ArrowRight: () => indexOf(row, Math.min(8, col + 1)),
    Home: () => (command ? 0 : indexOf(row, 0)),
    End: () => (command ? CELLS - 1 : indexOf(row, 8)),
  };
  if (moves[event.key]) {
    select(moves[event.key]());
  } else if (command) {
    return; // Ctrl+Z and Ctrl+V are handled for the whole page.
  } else if (/^Digit[1-9]$|^Numpad[1-9]$/.test(event.code) && event.shiftKey) {
    toggleMark(selected, Number(event.code.slice(-1)));
  } else if (/^[1-9]$/.test(event.key)) {
    enter(selected, Number(event.key));
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
    const cells = parseBoard(text);
    loadPuzzle(cells, newTitle);
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

  for (const button of document.querySelectorAll('.pad-digit')) {
    button.addEventListener('click', () => enter(selected, Number(button.dataset.digit)));
  }
  byId('erase').addEventListener('click', () => erase(selected));
  byId('pencil').addEventListener('click', () => setPencilMode(!pencilMode));
  byId('undo').addEventListener('click', undo);

  for (const id of ['check', 'hint', 'solve', 'new']) byId(id).dataset.callsApi = '';
  byId('check').addEventListener('click', check);
  byId('hint').addEventListener('click', askHint);
  byId('solve').addEventListener('click', solve);
  byId('new').addEventListener('click', newPuzzle);
  byId('hint-apply').addEventListener('click', applyHint);
  byId('hint-dismiss').addEventListener('click', () => {
    feedback = emptyFeedback();
    hideHint();
    render();
  });

  byId('example').addEventListener('click', () => {
    loadPuzzle(parseBoard(CLASSIC), 'Example puzzle');
    say('Example puzzle loaded.', 'success');
  });
  byId('empty').addEventListener('click', () => {
    loadPuzzle(emptyBoard(), 'Your puzzle');
    say('Empty grid: type a puzzle in, then check or solve it.');
    select(0);
  });
  byId('restart').addEventListener('click', () => {
    const givens = board.values.map((digit, i) => (board.origin[i] === 'given' ? digit : 0));
    loadPuzzle(givens, title);
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
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...board, title }));
  } catch {
    // Storage can be full or switched off; the game goes on without it.
  }
}

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    const fits = (list) => Array.isArray(list) && list.length === CELLS;
    if (saved && fits(saved.values) && fits(saved.marks) && fits(saved.origin)) {
      board.values = saved.values.map(Number);
      board.marks = saved.marks.map(Number);
      board.origin = saved.origin.map(String);
      title = String(saved.title ?? '');
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
    byId('offline-note').textContent = 'This page works offline once loaded.';
  } catch (error) {
    // Not an API error: the page works without it, only not offline.
    console.warn('service worker not registered:', error);
  }
}

// --- Start -----------------------------------------------------------------------------

buildGrid();
wire();
if (!load()) {
  board.values = parseBoard(CLASSIC);
  board.origin = board.values.map((digit) => (digit ? 'given' : ''));
  title = 'Example puzzle';
}
render();
document.documentElement.dataset.ready = 'true';
registerServiceWorker();
