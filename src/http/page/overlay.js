// Draws a puzzle's rules as one SVG laid over the grid, in cell units (viewBox 0 0 N N):
// shaded extra regions, odd circles and even squares, thermometers, diagonals, the thick
// lines between boxes (or jigsaw regions) and killer cages. The stylesheet stacks it above
// the cells' backgrounds and below their digits, and it is hidden from assistive technology:
// each cell's name already says its rules. Cage sums sit in their cells, not here.

const SVG = 'http://www.w3.org/2000/svg';

/** How far a cage's dashed outline sits inside its cells, in cells. */
const CAGE_INSET = 0.09;

function element(name, attributes) {
  const created = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) created.setAttribute(key, String(value));
  return created;
}

/** Replaces what `svg` shows by the rules of `layout` (a board.js Layout). */
export function drawRules(svg, layout) {
  const { size, rules } = layout;
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  const centre = (cell) => [cell.col + 0.5, cell.row + 0.5];
  const drawn = [];

  (rules.extra_regions ?? []).forEach((region, index) => {
    for (const { row, col } of region) {
      drawn.push(element('rect', { class: 'extra-region', 'data-region': index, x: col, y: row, width: 1, height: 1 }));
    }
  });
  for (const cell of rules.odd ?? []) {
    const [cx, cy] = centre(cell);
    drawn.push(element('circle', { class: 'odd', cx, cy, r: 0.36 }));
  }
  for (const cell of rules.even ?? []) {
    drawn.push(element('rect', {
      class: 'even', x: cell.col + 0.16, y: cell.row + 0.16, width: 0.68, height: 0.68, rx: 0.05,
    }));
  }
  (rules.thermometers ?? []).forEach((thermometer, index) => {
    const group = element('g', { class: 'thermometer', 'data-thermometer': index });
    const [bx, by] = centre(thermometer[0]);
    group.append(element('circle', { class: 'bulb', cx: bx, cy: by, r: 0.36 }));
    if (thermometer.length > 1) {
      const points = thermometer.map((cell) => centre(cell).join(' '));
      group.append(element('path', { class: 'tube', d: `M${points.join(' L')}` }));
    }
    drawn.push(group);
  });
  for (const diagonal of rules.diagonals ?? []) {
    const [x1, x2] = diagonal === 'main' ? [0, size] : [size, 0];
    drawn.push(element('line', { class: 'diagonal', 'data-diagonal': diagonal, x1, y1: 0, x2, y2: size }));
  }
  drawn.push(element('path', { class: 'region-edges', d: regionEdges(layout) }));
  (rules.cages ?? []).forEach((cage, index) => {
    drawn.push(element('path', { class: 'cage', 'data-cage': index, d: cageOutline(cage.cells) }));
  });
  svg.replaceChildren(...drawn);
}

/**
 * Every side two cells of different boxes (or jigsaw regions) share, as one path: drawn
 * with square ends, the sides meet at corners without a gap, which cell borders cannot do.
 */
function regionEdges({ size, regionOf }) {
  const segments = [];
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const region = regionOf[row * size + col];
      if (col < size - 1 && regionOf[row * size + col + 1] !== region) segments.push(`M${col + 1} ${row}V${row + 1}`);
      if (row < size - 1 && regionOf[(row + 1) * size + col] !== region) segments.push(`M${col} ${row + 1}H${col + 1}`);
    }
  }
  return segments.join('');
}

/**
 * The outline of a cage, drawn CAGE_INSET inside its cells: one segment per cell side on
 * the cage's edge, stretched at each end to meet the next side, around a corner going
 * in or out.
 */
function cageOutline(cells) {
  const inCage = (row, col) => cells.some((cell) => cell.row === row && cell.col === col);
  const d = CAGE_INSET;
  const segments = [];
  for (const { row, col } of cells) {
    // Each side: the step to the neighbour across it, and the steps along it to either end.
    for (const [dr, dc] of [[-1, 0], [0, 1], [1, 0], [0, -1]]) {
      if (inCage(row + dr, col + dc)) continue;
      const [ar, ac] = [dc, -dr]; // along the side, one way; the other way is its negative
      const end = (sign) => {
        const [sr, sc] = [ar * sign, ac * sign];
        const neighbour = inCage(row + sr, col + sc);
        // Stop short at an outer corner, meet the neighbour's side, or reach round an inner one.
        const reach = !neighbour ? 0.5 - d : inCage(row + sr + dr, col + sc + dc) ? 0.5 + d : 0.5;
        return [
          col + 0.5 + dc * (0.5 - d) + sc * reach,
          row + 0.5 + dr * (0.5 - d) + sr * reach,
        ];
      };
      const [from, to] = [end(-1), end(1)];
      segments.push(`M${round(from[0])} ${round(from[1])}L${round(to[0])} ${round(to[1])}`);
    }
  }
  return segments.join('');
}

const round = (n) => Math.round(n * 1000) / 1000;
