// Which of a change's moves slide and which fade through. All the moves of one change run on
// the same clock (same delay, duration and easing), so a moving cell's frame is
// `from + e · (to − from)` for one progress `e` in [0, 1] shared by every cell; whether two cells
// ever cover each other is a question about straight lines in `e`, answered exactly. In one
// column a filter's moves keep the list's order and never cross; in a grid a cell that moves to
// another row slides across the cells between (UIKit lets them pass over each other). Here such
// a cell fades out where it was and in where it goes (animate.js), so no visible cell ever
// covers another, with one exception UIKit makes too: a cell that moves along its own row or
// column (an insertion, a reorder by hand) slides over the cells of that row or column it
// passes, drawn above them ("passing"), instead of vanishing for the whole move. Pure geometry:
// no DOM.

/** Cells may touch or share this many pixels without counting as covering each other. */
const TOLERANCE = 1;

/**
 * @typedef {{x: number, y: number, w: number, h: number}} Frame
 * @typedef {{from: Frame, to: Frame}} Path a cell's frames at `e = 0` and `e = 1` (equal: it stays)
 */

/**
 * The part of `[lo, hi]` where `a + b·e < 0`, or null when there is none.
 * @param {[number, number]} range
 * @returns {[number, number] | null}
 */
function whereNegative(a, b, [lo, hi]) {
  if (b === 0) return a < 0 ? [lo, hi] : null;
  const root = -a / b;
  if (b > 0) return root <= lo ? null : [lo, Math.min(hi, root)];
  return root >= hi ? null : [Math.max(lo, root), hi];
}

/**
 * Whether two cells moving along their paths on the same clock cover each other (by more than
 * the tolerance) for some stretch of the move. Each of the four conditions of two rectangles
 * overlapping (`A.x < B.x + B.w`, …) is linear in `e` (sizes change linearly too), so it holds on
 * an interval; the cells cover each other where the four intervals meet.
 * @param {Path} a
 * @param {Path} b
 */
export function pathsCross(a, b) {
  /** @type {[number, number] | null} */
  let range = [0, 1];
  for (const [position, size] of [["x", "w"], ["y", "h"]]) {
    for (const [p, q] of [[a, b], [b, a]]) {
      // p's leading edge is before q's trailing edge (less the tolerance): p.x − q.x − q.w + T < 0.
      const start = p.from[position] - q.from[position] - q.from[size] + TOLERANCE;
      const end = p.to[position] - q.to[position] - q.to[size] + TOLERANCE;
      range = whereNegative(start, end - start, range);
      if (!range) return false;
    }
  }
  return range[1] - range[0] > 1e-9;
}

/** Whether a path is straight along one axis (or no move at all). */
function isStraight({ from, to }) {
  return from.x === to.x || from.y === to.y;
}

function length({ from, to }) {
  return Math.hypot(to.x - from.x, to.y - from.y);
}

/**
 * Whether two moves travel one lane: both along the same row (the same top and height before and
 * after) or both along the same column (the same left and width).
 * @param {Path} a
 * @param {Path} b
 */
function sameLane(a, b) {
  // Within half a pixel: a cell caught mid-move starts from its animated frame, which is
  // computed (a row's top may come back as 46.00001).
  const near = (p, q) => Math.abs(p - q) <= 0.5;
  const alongRow = ({ from, to }) => near(from.y, to.y) && near(from.h, to.h);
  const alongColumn = ({ from, to }) => near(from.x, to.x) && near(from.w, to.w);
  return (alongRow(a) && alongRow(b) && near(a.from.y, b.from.y) && near(a.from.h, b.from.h))
    || (alongColumn(a) && alongColumn(b) && near(a.from.x, b.from.x) && near(a.from.w, b.from.w));
}

/**
 * Which moves fade through rather than slide, and which slide over others ("passing"): a move
 * slides unless its path would cross a cell (one that stays, or one that slides) outside its
 * own lane. Straight moves (along a row or a column) are kept first, then shorter ones; a move
 * that would cross fades. A move that crosses only cells of its own lane (the cells making room
 * for an insertion or a reorder, or, when several such steps arrive as one change, cells
 * between) slides too, drawn above them: it is in `passing`. Apart from those passes, the
 * moves that slide never cover each other or a cell that stays. A filter keeps the list's
 * order, so its moves never pass.
 * - Complexity: O(m · (m + s)) for m moves and s cells that stay (a window holds a few hundred).
 * A cell that this change leaves where it is but that is still on its way there (the change
 * before moved it, and its slide runs on) is `settling`: it slides on whatever this change
 * decides, so it counts as a sliding cell, not as one that stays where it ends.
 * @param {Path[]} moves
 * @param {Frame[]} stays the frames of the visible cells that do not move
 * @param {Path[]} settling the visible cells that do not move in this change but still slide
 * @returns {{fading: Set<number>, passing: Set<number>}} indices into `moves`
 */
export function choreograph(moves, stays, settling = []) {
  const order = moves.map((_, index) => index).sort((i, j) => {
    const straight = Number(isStraight(moves[j])) - Number(isStraight(moves[i]));
    return straight !== 0 ? straight : length(moves[i]) - length(moves[j]);
  });
  const still = stays.map((frame) => ({ from: frame, to: frame }));
  /** @type {Path[]} */
  const sliding = [...settling];
  const fading = new Set();
  const passing = new Set();
  for (const index of order) {
    const path = moves[index];
    // Stops at the first cell it would cross outside its lane (no array per move).
    let passes = false;
    let fades = false;
    for (const others of [still, sliding]) {
      for (const other of others) {
        if (!pathsCross(path, other)) continue;
        if (!sameLane(path, other)) { fades = true; break; }
        passes = true;
      }
      if (fades) break;
    }
    if (fades) {
      fading.add(index);
    } else {
      sliding.push(path);
      if (passes) passing.add(index);
    }
  }
  return { fading, passing };
}

/**
 * The moves that must fade through rather than slide (``choreograph``'s `fading`).
 * @param {Path[]} moves
 * @param {Frame[]} stays
 * @returns {Set<number>} indices into `moves`
 */
export function fadingMoves(moves, stays) {
  return choreograph(moves, stays).fading;
}
