// The board, its geometry and its rules, with no DOM and no network: what a client needs to
// read a puzzle a person pasted, to know which cells see each other, and to write the board
// the API expects.
//
// A board here is an array of N*N numbers, row by row, 0 for an empty cell, N one of SIZES.
// The API takes three forms of it (see openapi.yaml): an N*N-character string (digits past 9
// as letters, A for 10), N rows of one-character strings, and N rows of integers. The page
// sends the string form, with the puzzle's `rules` object beside it when it has one.

/** The sides the page plays, and the boxes of each (rows by columns), as the API has them. */
export const SIZES = [4, 6, 9, 16];
const BOXES = { 4: [2, 2], 6: [2, 3], 9: [3, 3], 16: [4, 4] };

/** The classic puzzle from Wikipedia's Sudoku article. */
export const CLASSIC =
  '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';

/** Thrown when text cannot be read as a board; `message` says why, in words. */
export class BoardFormatError extends Error {
  constructor(message) {
    super(message);
    this.name = 'BoardFormatError';
  }
}

/** An empty board of a side. */
export function emptyBoard(size = 9) {
  return new Array(size * size).fill(0);
}

/** The side of a board of `cells` cells, or 0 when no side the page plays has that many. */
export function sideOf(cells) {
  return SIZES.find((size) => size * size === cells) ?? 0;
}

/** "4×4" */
export const sizeName = (size) => `${size}×${size}`;

/** A digit as the API writes it: 1-9, then A for 10 up to G for 16. */
export function symbol(digit) {
  return digit <= 9 ? String(digit) : String.fromCharCode(55 + digit);
}

/** The digit a character stands for (either case), or 0 when it stands for none. */
export function digitOf(char) {
  if (/^[1-9]$/.test(char)) return Number(char);
  if (/^[a-z]$/i.test(char)) return char.toUpperCase().charCodeAt(0) - 55;
  return 0;
}

/** The other sides, as a sentence: what a person may paste instead. */
function otherSizes(count) {
  return SIZES.filter((size) => size !== 9)
    .map((size, i) => `${i ? 'a' : 'A'} ${sizeName(size)} ${count(size)}`)
    .join(', ');
}

/**
 * Reads a puzzle from text: a board in any of the API's three forms, or a request body of
 * the API, `{"board": ..., "rules": {...}}`. Whitespace between cells is ignored, so a
 * puzzle copied as lines works too.
 * @param {string} text
 * @returns {{cells: number[], rules: object | null}}
 * @throws {BoardFormatError}
 */
export function parsePuzzle(text) {
  const trimmed = String(text).trim();
  if (!trimmed.startsWith('{')) return { cells: parseBoard(trimmed), rules: null };
  let body;
  try {
    body = JSON.parse(trimmed);
  } catch {
    throw new BoardFormatError('it starts with "{" but is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || body.board === undefined) {
    throw new BoardFormatError('a puzzle object has a "board" member, as the API takes it');
  }
  const cells = parseBoard(typeof body.board === 'string' ? body.board : JSON.stringify(body.board));
  return { cells, rules: readRules(body.rules, sideOf(cells.length)) };
}

/**
 * Reads a board from text in any of the API's three forms.
 * @returns {number[]} N*N cells, 0 for empty
 * @throws {BoardFormatError}
 */
export function parseBoard(text) {
  const trimmed = String(text).trim();
  if (trimmed === '') {
    throw new BoardFormatError('there is nothing to read');
  }
  if (trimmed.startsWith('[')) {
    return parseRows(trimmed);
  }
  return parseLine(trimmed.replace(/\s+/g, ''));
}

function parseLine(line) {
  const chars = Array.from(line);
  const size = sideOf(chars.length);
  if (!size) {
    throw new BoardFormatError(
      `a puzzle has 81 cells, this has ${chars.length}. ${otherSizes((n) => `has ${n * n}`)}`,
    );
  }
  return chars.map((char, index) => {
    if (char === '.' || char === '0') return 0;
    const digit = digitOf(char);
    if (digit >= 1 && digit <= size) return digit;
    throw new BoardFormatError(
      `"${char}" at position ${index + 1} is not a digit ${digitRange(size)}, "." or "0"`,
    );
  });
}

/** "1-9", "1-4", "1-9 or A-G" */
function digitRange(size) {
  return size <= 9 ? `1-${size}` : `1-9 or A-${symbol(size)}`;
}

function parseRows(json) {
  let rows;
  try {
    rows = JSON.parse(json);
  } catch {
    throw new BoardFormatError('it starts with "[" but is not valid JSON');
  }
  if (!Array.isArray(rows)) {
    throw new BoardFormatError('a board is a list of rows');
  }
  const size = sideOf(rows.length * rows.length);
  if (!size) {
    throw new BoardFormatError(
      `a board has 9 rows, this has ${rows.length}. ${otherSizes((n) => `has ${n}`)}`,
    );
  }
  const kinds = new Set();
  const cells = [];
  rows.forEach((row, r) => {
    if (!Array.isArray(row) || row.length !== size) {
      throw new BoardFormatError(`row ${r + 1} should be a list of ${size} cells`);
    }
    row.forEach((cell, c) => {
      const where = `row ${r + 1}, column ${c + 1}`;
      if (typeof cell === 'string') {
        kinds.add('string');
        const digit = cell.length === 1 ? digitOf(cell) : 0;
        if (cell === '.' || cell === '0') cells.push(0);
        else if (digit >= 1 && digit <= size) cells.push(digit);
        else throw new BoardFormatError(`${where} is "${cell}", not "${digitRange(size)}" or "."`);
      } else if (cell === null || typeof cell === 'number') {
        kinds.add('number');
        if (cell === null || cell === 0) cells.push(0);
        else if (Number.isInteger(cell) && cell >= 1 && cell <= size) cells.push(cell);
        else throw new BoardFormatError(`${where} is ${cell}, not 0-${size}`);
      } else {
        throw new BoardFormatError(`${where} is neither a digit string nor a number`);
      }
    });
  });
  if (kinds.size > 1) {
    throw new BoardFormatError('the rows mix strings and numbers; use one form');
  }
  return cells;
}

/** The N*N-character form, "." for empty: what the page sends to the API. */
export function toLine(cells) {
  return cells.map((digit) => (digit ? symbol(digit) : '.')).join('');
}

// --- Rules -------------------------------------------------------------------------------

/**
 * The members of an API `rules` object the page draws and checks, kept only when they fit a
 * board of `size` (the server says what is wrong with the rest); null when none is left.
 * @throws {BoardFormatError} when `rules` is there but not an object
 */
export function readRules(rules, size) {
  if (rules === undefined || rules === null) return null;
  if (typeof rules !== 'object' || Array.isArray(rules)) {
    throw new BoardFormatError('"rules" is an object, as the API takes it');
  }
  const onBoard = (cell) =>
    cell !== null && typeof cell === 'object' &&
    [cell.row, cell.col].every((n) => Number.isInteger(n) && n >= 0 && n < size);
  const cellList = (list) =>
    Array.isArray(list) && list.every(onBoard) ? list.map(({ row, col }) => ({ row, col })) : null;
  const lists = (value) => (Array.isArray(value) ? value.map(cellList).filter(Boolean) : []);
  const kept = {};
  const { box, regions, diagonals, cages } = rules;
  if (box && Number.isInteger(box.rows) && Number.isInteger(box.cols) && box.rows * box.cols === size) {
    kept.box = { rows: box.rows, cols: box.cols };
  }
  if (Array.isArray(regions) && regions.length === size &&
      regions.every((row) => Array.isArray(row) && row.length === size &&
        row.every((n) => Number.isInteger(n) && n >= 0 && n < size))) {
    kept.regions = regions.map((row) => [...row]);
  }
  if (Array.isArray(diagonals)) {
    const known = [...new Set(diagonals.filter((d) => d === 'main' || d === 'anti'))];
    if (known.length) kept.diagonals = known;
  }
  const extra = lists(rules.extra_regions);
  if (extra.length) kept.extra_regions = extra;
  if (Array.isArray(cages)) {
    const read = cages.flatMap((cage) => {
      const cells = cellList(cage?.cells);
      if (!cells || cells.length === 0) return [];
      return [Number.isInteger(cage.sum) ? { sum: cage.sum, cells } : { cells }];
    });
    if (read.length) kept.cages = read;
  }
  for (const flag of ['anti_knight', 'anti_king']) if (rules[flag] === true) kept[flag] = true;
  for (const parity of ['odd', 'even']) {
    const cells = cellList(rules[parity]);
    if (cells?.length) kept[parity] = cells;
  }
  const thermometers = lists(rules.thermometers).filter((list) => list.length > 0);
  if (thermometers.length) kept.thermometers = thermometers;
  return Object.keys(kept).length ? kept : null;
}

/**
 * Rules from two compact maps of a square board, one character a cell, row by row:
 * `regions` (a region number or letter per cell) and `cages` (the same letter for the
 * cells of one cage, "." for none, cages numbered by first appearance) with their sums.
 */
export function rulesFromMaps({ regions, cages, sums, ...others }) {
  const rules = { ...others };
  const size = regions ? Math.sqrt(regions.length) : cages ? Math.sqrt(cages.length) : 0;
  const at = (index) => ({ row: Math.floor(index / size), col: index % size });
  if (regions) {
    const numbers = [...new Set(regions)];
    rules.regions = Array.from({ length: size }, (_, row) =>
      Array.from(regions.slice(row * size, (row + 1) * size), (char) => numbers.indexOf(char)));
  }
  if (cages) {
    const byLetter = new Map();
    Array.from(cages).forEach((char, index) => {
      if (char !== '.') byLetter.set(char, [...(byLetter.get(char) ?? []), at(index)]);
    });
    rules.cages = [...byLetter.values()].map((cells, i) => ({ sum: sums[i], cells }));
  }
  return rules;
}

/** Whether a puzzle is a classic 9x9: the only kind /hint and /explain answer. */
export const isClassic = (size, rules) => size === 9 && !rules;

/** Moves of a chess knight and king, as row and column steps. */
const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2]];
const KING = [[0, 1], [1, -1], [1, 0], [1, 1]];

/**
 * A board's geometry under its rules: rows, columns, boxes (or jigsaw regions), and every
 * other group of cells that holds each digit once (diagonals, extra regions, cages).
 */
export class Layout {
  constructor(size, rules = null) {
    this.size = size;
    this.cells = size * size;
    this.rules = rules ?? {};
    const [boxRows, boxCols] = this.rules.box ? [this.rules.box.rows, this.rules.box.cols] : BOXES[size];
    /** The pencil marks of a cell sit in a small grid shaped as a box. */
    this.box = { rows: boxRows, cols: boxCols };
    this.jigsaw = Boolean(this.rules.regions);
    /** The box or jigsaw region of every cell. */
    this.regionOf = Array.from({ length: this.cells }, (_, i) =>
      this.jigsaw
        ? this.rules.regions[this.rowOf(i)][this.colOf(i)]
        : Math.floor(this.rowOf(i) / boxRows) * (size / boxCols) + Math.floor(this.colOf(i) / boxCols));
    /** {unit, index, cells}: every group of cells that holds each digit at most once. */
    this.groups = [];
    const all = Array.from({ length: this.cells }, (_, i) => i);
    // In the API's order: rows, columns, then boxes or regions.
    const lines = [['row', (i) => this.rowOf(i)], ['column', (i) => this.colOf(i)],
      [this.jigsaw ? 'region' : 'box', (i) => this.regionOf[i]]];
    for (const [unit, unitOf] of lines) {
      for (let index = 0; index < size; index++) {
        this.groups.push({ unit, index, cells: all.filter((i) => unitOf(i) === index) });
      }
    }
    (this.rules.diagonals ?? []).forEach((diagonal, index) => {
      const cells = Array.from({ length: size }, (_, i) =>
        this.indexOf(i, diagonal === 'main' ? i : size - 1 - i));
      this.groups.push({ unit: 'diagonal', index, cells });
    });
    const groupsOf = (unit, lists) =>
      lists.forEach((list, index) => this.groups.push({ unit, index, cells: this.indexesOf(list) }));
    groupsOf('extra_region', this.rules.extra_regions ?? []);
    groupsOf('cage', (this.rules.cages ?? []).map((cage) => cage.cells));

    /** Per cell, the cells that may not hold its digit (a cell is not its own peer). */
    this.peers = all.map(() => new Set());
    for (const { cells } of this.groups) {
      for (const a of cells) for (const b of cells) if (a !== b) this.peers[a].add(b);
    }
    for (const [flag, moves] of [['anti_knight', KNIGHT], ['anti_king', KING]]) {
      if (!this.rules[flag]) continue;
      for (const [a, b] of this.movePairs(moves)) {
        this.peers[a].add(b);
        this.peers[b].add(a);
      }
    }
  }

  rowOf(index) {
    return Math.floor(index / this.size);
  }

  colOf(index) {
    return index % this.size;
  }

  indexOf(row, col) {
    return row * this.size + col;
  }

  indexesOf(cells) {
    return cells.map(({ row, col }) => this.indexOf(row, col));
  }

  cellOf(index) {
    return { row: this.rowOf(index), col: this.colOf(index) };
  }

  /** Every pair of cells one of `moves` apart, each pair once. */
  *movePairs(moves) {
    for (let a = 0; a < this.cells; a++) {
      for (const [dr, dc] of moves) {
        const [row, col] = [this.rowOf(a) + dr, this.colOf(a) + dc];
        if (row < this.size && col >= 0 && col < this.size) yield [a, this.indexOf(row, col)];
      }
    }
  }

  /** The cells of one unit, as the API names units (`row`, `column`, `box`, ...). */
  unitCells(unit, index) {
    return this.groups.find((group) => group.unit === unit && group.index === index)?.cells ?? [];
  }

  arePeers(a, b) {
    return this.peers[a].has(b);
  }

  /** A cell as a person counts it: "row 5, column 3". */
  cellName(index) {
    return `row ${this.rowOf(index) + 1}, column ${this.colOf(index) + 1}`;
  }

  /** A short label, as the server writes cells: "r5c3". */
  label(index) {
    return `r${this.rowOf(index) + 1}c${this.colOf(index) + 1}`;
  }

  /**
   * What breaks the rules on a board, shaped as the API's `conflicts` (a `message` beside
   * the rules that are not a repeated digit): the page checks with this when the server
   * cannot be reached, and when the last cell is filled.
   */
  findConflicts(values) {
    const conflicts = [];
    const add = (unit, index, digit, cells, message) =>
      conflicts.push({ unit, index, digit, cells: cells.map((i) => this.cellOf(i)), message });
    for (const { unit, index, cells } of this.groups) {
      const holders = new Map();
      for (const cell of cells) {
        const digit = values[cell];
        if (digit) holders.set(digit, [...(holders.get(digit) ?? []), cell]);
      }
      for (const [digit, found] of holders) {
        if (found.length > 1) add(unit, index, digit, found);
      }
    }
    (this.rules.cages ?? []).forEach((cage, index) => {
      const cells = this.indexesOf(cage.cells);
      const total = cells.reduce((sum, i) => sum + values[i], 0);
      if (cage.sum !== undefined && cells.every((i) => values[i]) && total !== cage.sum) {
        add('cage', index, undefined, cells, `the digits of cage ${index + 1} add up to ${total}, not ${cage.sum}`);
      }
    });
    for (const [flag, unit, moves] of [['anti_knight', 'knight', KNIGHT], ['anti_king', 'king', KING]]) {
      if (!this.rules[flag]) continue;
      for (const [a, b] of this.movePairs(moves)) {
        if (values[a] && values[a] === values[b]) {
          add(unit, 0, values[a], [a, b],
            `${symbol(values[a])} in ${this.label(a)} and ${this.label(b)}, a ${unit}'s move apart`);
        }
      }
    }
    for (const [parity, remainder] of [['odd', 1], ['even', 0]]) {
      for (const cell of this.indexesOf(this.rules[parity] ?? [])) {
        if (values[cell] && values[cell] % 2 !== remainder) {
          add('parity', 0, values[cell], [cell],
            `${this.label(cell)} must hold an ${parity} digit, not ${symbol(values[cell])}`);
        }
      }
    }
    (this.rules.thermometers ?? []).forEach((thermometer, index) => {
      const cells = this.indexesOf(thermometer).filter((i) => values[i]);
      const fall = cells.findIndex((cell, i) => i > 0 && values[cell] <= values[cells[i - 1]]);
      if (fall > 0) {
        const [a, b] = [cells[fall - 1], cells[fall]];
        add('thermometer', index, undefined, [a, b],
          `thermometer ${index + 1} does not rise from ${symbol(values[a])} in ${this.label(a)} ` +
            `to ${symbol(values[b])} in ${this.label(b)}`);
      }
    });
    return conflicts;
  }
}

/** A unit as a person counts it: "row 1", "box 9", "extra region 2". */
export function unitName(unit, index) {
  return `${unit.replace('_', ' ')} ${index + 1}`;
}

// --- Examples ------------------------------------------------------------------------------
//
// One puzzle of each kind the page offers, each with one solution (checked with /solve), for
// Load example, which works offline.

/** The cells of a square of `side` cells whose top-left cell is (row, col). */
function square(row, col, side) {
  return Array.from({ length: side * side }, (_, i) => ({ row: row + Math.floor(i / side), col: col + (i % side) }));
}

/** Examples by kind: a side ("4", "6", "16"), or for 9x9 "classic" or a variant. */
export const EXAMPLES = {
  classic: { name: 'Example puzzle', puzzle: CLASSIC, rules: null },
  4: { name: 'Example 4×4 puzzle', puzzle: '3.........1..2.4', rules: null },
  6: { name: 'Example 6×6 puzzle', puzzle: '3...566.....24......5.6..........4.3', rules: null },
  16: {
    name: 'Example 16×16 puzzle',
    puzzle: '6.A.94F.C.2.GD819.C.2...5.G.B.F.42..B.3.F7.195.6FD8.5.6.B...7...'
    + 'B..4G....2..3C..A......63...2.9B5.3.E.2.G.....1.71..354.E.A9F...'
    + 'C9.B..E.....12A.3...CF.A1E.2..582F....948A65....E..87D.24CB.6...'
    + 'G5B9F7C.6..4A1.2D.4..6...1EG.97386.A421E9F3C5.BD13.E.G...57...4F',
    rules: null,
  },
  killer: {
    name: 'Example killer puzzle',
    puzzle: '...2........................8............................8......9................',
    rules: rulesFromMaps({
      cages: [
        'abbccddee',
        'aaccfdgeh',
        'ijjkflgmh',
        'iikkklnmh',
        'iooppqnrr',
        'sotpuqnrr',
        'sotvuwxxy',
        'szvvAwxBy',
        'zzzvAABBB',
      ].join(''),
      sums: [13, 10, 14, 17, 22, 10, 5, 13, 25, 14, 17, 12, 8, 18, 19, 24, 9, 17, 15, 5, 7, 19, 9, 18, 7, 20, 18, 20],
    }),
  },
  jigsaw: {
    name: 'Example jigsaw puzzle',
    puzzle: '..3...7....9.2..5......1.6......9.......7.............26........1.9......4.5....8',
    rules: rulesFromMaps({
      regions: [
        '000111122',
        '000111222',
        '330112252',
        '300444255',
        '333474555',
        '633474585',
        '636474885',
        '666778888',
        '666777788',
      ].join(''),
    }),
  },
  diagonal: {
    name: 'Example diagonal puzzle',
    puzzle: '...7....2.8..........5..41.6.....1.3........7..738..5..6.......2...4...........24',
    rules: { diagonals: ['main', 'anti'] },
  },
  windoku: {
    name: 'Example windoku puzzle',
    puzzle: '...7....6.1.4...........9..3....5...........2.4718..5..8....4......6............3',
    rules: { extra_regions: [[1, 1], [1, 5], [5, 1], [5, 5]].map(([row, col]) => square(row, col, 3)) },
  },
};
