// The board and its geometry, with no DOM and no network: what a client needs to read a
// puzzle a person pasted and to write the board the API expects.
//
// A board here is an array of 81 numbers, row by row, 0 for an empty cell. The API takes
// three forms of it (see openapi.yaml): an 81-character string, a 9x9 array of
// one-character strings, and a 9x9 array of integers. The page sends the string form.

/** Cells on a side, and in all. */
export const SIZE = 9;
export const CELLS = SIZE * SIZE;

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

/** An empty board. */
export function emptyBoard() {
  return new Array(CELLS).fill(0);
}

/**
 * Reads a board from text in any of the API's three forms. Whitespace between cells is
 * ignored, so a puzzle copied as nine lines of nine works too.
 * @param {string} text
 * @returns {number[]} 81 cells, 0 for empty
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
  if (chars.length !== CELLS) {
    throw new BoardFormatError(`a puzzle has ${CELLS} cells, this has ${chars.length}`);
  }
  return chars.map((char, index) => {
    if (char === '.' || char === '0') return 0;
    if (char >= '1' && char <= '9') return Number(char);
    throw new BoardFormatError(
      `"${char}" at position ${index + 1} is not a digit 1-9, "." or "0"`,
    );
  });
}

function parseRows(json) {
  let rows;
  try {
    rows = JSON.parse(json);
  } catch {
    throw new BoardFormatError('it starts with "[" but is not valid JSON');
  }
  if (!Array.isArray(rows)) {
    throw new BoardFormatError(`a board is a list of ${SIZE} rows`);
  }
  if (rows.length !== SIZE) {
    throw new BoardFormatError(`a board has ${SIZE} rows, this has ${rows.length}`);
  }
  const kinds = new Set();
  const cells = [];
  rows.forEach((row, r) => {
    if (!Array.isArray(row) || row.length !== SIZE) {
      throw new BoardFormatError(`row ${r + 1} should be a list of ${SIZE} cells`);
    }
    row.forEach((cell, c) => {
      const where = `row ${r + 1}, column ${c + 1}`;
      if (typeof cell === 'string') {
        kinds.add('string');
        if (cell === '.' || cell === '0') cells.push(0);
        else if (/^[1-9]$/.test(cell)) cells.push(Number(cell));
        else throw new BoardFormatError(`${where} is "${cell}", not "1"-"9" or "."`);
      } else if (cell === null || typeof cell === 'number') {
        kinds.add('number');
        if (cell === null || cell === 0) cells.push(0);
        else if (Number.isInteger(cell) && cell >= 1 && cell <= 9) cells.push(cell);
        else throw new BoardFormatError(`${where} is ${cell}, not 0-9`);
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

/** The 81-character form, "." for empty: what the page sends to the API. */
export function toLine(cells) {
  return cells.map((digit) => (digit ? String(digit) : '.')).join('');
}

/** Row, column and box (0-8, row-major) of a cell index. */
export const rowOf = (index) => Math.floor(index / SIZE);
export const colOf = (index) => index % SIZE;
export const boxOf = (index) => Math.floor(rowOf(index) / 3) * 3 + Math.floor(colOf(index) / 3);
export const indexOf = (row, col) => row * SIZE + col;

/**
 * The cells of one unit, as the API names units: `row`, `column` or `box`, index 0-8.
 * @returns {number[]} cell indexes
 */
export function unitCells(unit, index) {
  const all = Array.from({ length: CELLS }, (_, i) => i);
  switch (unit) {
    case 'row':
      return all.filter((i) => rowOf(i) === index);
    case 'column':
      return all.filter((i) => colOf(i) === index);
    case 'box':
      return all.filter((i) => boxOf(i) === index);
    default:
      return [];
  }
}

/** Whether two cells share a row, column or box (a cell is not its own peer). */
export function arePeers(a, b) {
  return a !== b && (rowOf(a) === rowOf(b) || colOf(a) === colOf(b) || boxOf(a) === boxOf(b));
}

/** A cell as a person counts it: "row 5, column 3". */
export function cellName(index) {
  return `row ${rowOf(index) + 1}, column ${colOf(index) + 1}`;
}

/** A unit as a person counts it: "row 1", "column 4", "box 9". */
export function unitName(unit, index) {
  return `${unit} ${index + 1}`;
}

/**
 * The clashes of a board, shaped as the API's `conflicts`: each digit that appears more
 * than once in a unit, with the cells that hold it. The page checks with this when the
 * server cannot be reached.
 * @returns {{unit: string, index: number, digit: number, cells: {row: number, col: number}[]}[]}
 */
export function findConflicts(cells) {
  const conflicts = [];
  for (const unit of ['row', 'column', 'box']) {
    for (let index = 0; index < SIZE; index++) {
      const holders = new Map();
      for (const cell of unitCells(unit, index)) {
        const digit = cells[cell];
        if (digit) holders.set(digit, [...(holders.get(digit) ?? []), cell]);
      }
      for (const [digit, found] of holders) {
        if (found.length > 1) {
          conflicts.push({
            unit,
            index,
            digit,
            cells: found.map((cell) => ({ row: rowOf(cell), col: colOf(cell) })),
          });
        }
      }
    }
  }
  return conflicts;
}
