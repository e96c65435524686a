// The review of a scanned photo before it loads: the photo with what the server read drawn
// over it (the grid's outline, each digit small in its cell's corner so the printed one stays
// visible, the doubtful cells ringed), and the doubtful cells listed with their digit and
// kind for the player to confirm or correct. A misread given would lock a wrong digit into
// the puzzle, so it is caught here rather than on the board.

const SVG = 'http://www.w3.org/2000/svg';

/** Below this confidence a cell is doubtful, as openapi.yaml advises frontends. */
export const UNSURE_BELOW = 0.9;

/** A read cell's kind as the page loads it: a given, the player's digit, or nothing. */
const KINDS = { given: 'given', entry: 'user' };

function element(name, attributes) {
  const created = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) created.setAttribute(key, String(value));
  return created;
}

/**
 * The projective map of the unit square onto the quadrilateral `corners` (top-left,
 * top-right, bottom-right, bottom-left): (u, v) in [0, 1]² to a point of the photo. The
 * closed form is Heckbert's ("Fundamentals of Texture Mapping", 1989, section 2.2.3).
 */
export function squareToQuad(corners) {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = corners;
  const [dx1, dx2, dy1, dy2] = [x1 - x2, x3 - x2, y1 - y2, y3 - y2];
  const [sx, sy] = [x0 - x1 + x2 - x3, y0 - y1 + y2 - y3];
  const det = dx1 * dy2 - dx2 * dy1;
  // A parallelogram (or a degenerate outline) needs no perspective term.
  const g = det === 0 ? 0 : (sx * dy2 - dx2 * sy) / det;
  const h = det === 0 ? 0 : (dx1 * sy - sx * dy1) / det;
  const [a, b, c] = [x1 - x0 + g * x1, x3 - x0 + h * x3, x0];
  const [d, e, f] = [y1 - y0 + g * y1, y3 - y0 + h * y3, y0];
  return (u, v) => {
    const w = g * u + h * v + 1;
    return [(a * u + b * v + c) / w, (d * u + e * v + f) / w];
  };
}

/**
 * One scan under review: the answer of POST /scan, its doubtful cells, and the corrections
 * the player makes to them. `cells` are the answer's 81, each with `origin` ('given', 'user'
 * or '') and `value` as the page will load them.
 */
export class ScanReview {
  constructor(answer) {
    this.answer = answer;
    this.cells = answer.cells.map((cell) => ({
      row: cell.row,
      col: cell.col,
      value: KINDS[cell.kind] ? cell.digit : 0,
      origin: KINDS[cell.kind] ?? '',
      confidence: cell.confidence,
    }));
    /** The doubtful cells, least sure first. */
    this.unsure = this.cells
      .filter((cell) => cell.confidence < UNSURE_BELOW)
      .sort((a, b) => a.confidence - b.confidence || a.row - b.row || a.col - b.col);
  }

  /** The digits to load (row by row, 0 empty) and who put each ('given', 'user', ''). */
  reading() {
    return {
      values: this.cells.map((cell) => (cell.origin ? cell.value : 0)),
      origins: this.cells.map((cell) => (cell.value ? cell.origin : '')),
    };
  }

  /** How many cells are read as each origin. */
  count(origin) {
    return this.cells.filter((cell) => cell.value && cell.origin === origin).length;
  }

  /** Sets a doubtful cell to `digit` (0: empty) of `origin` ('given' or 'user'). */
  correct(cell, digit, origin) {
    cell.value = digit;
    cell.origin = digit ? origin : '';
  }

  /**
   * Draws the reading over the photo in `svg`, in the photo's pixels (`width` by `height`):
   * the outline, the digits (givens dark, the player's blue) and rings round the doubtful.
   */
  draw(svg, width, height) {
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const corners = this.answer.corners;
    const toPhoto = squareToQuad(corners);
    svg.append(element('polygon', { class: 'scan-outline', points: corners.map((p) => p.join(',')).join(' ') }));
    const at = (row, col, du, dv) => toPhoto((col + du) / 9, (row + dv) / 9);
    for (const cell of this.cells) {
      const [left, top] = at(cell.row, cell.col, 0, 0);
      const [right, bottom] = at(cell.row, cell.col, 1, 1);
      const side = Math.max(4, Math.min(Math.abs(right - left), Math.abs(bottom - top)));
      if (this.unsure.includes(cell)) {
        const [cx, cy] = at(cell.row, cell.col, 0.5, 0.5);
        svg.append(element('circle', { class: 'scan-unsure', cx, cy, r: side * 0.48 }));
      }
      if (!cell.value) continue;
      const [x, y] = at(cell.row, cell.col, 0.2, 0.32);
      const text = element('text', {
        class: cell.origin === 'given' ? 'scan-given' : 'scan-entry',
        x,
        y,
        'font-size': side * 0.36,
      });
      text.textContent = String(cell.value);
      svg.append(text);
    }
  }
}
