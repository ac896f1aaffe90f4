// Pinned headers and footers (`pinToVisibleBounds`): where one is drawn for a scroll offset, as
// UIKit's compositional layout places it (docs/protocol.md, "Pinned headers and footers"). A
// header sticks to the viewport's top while its section scrolls by and is pushed up by the
// section's end (the next section's header then takes over); a footer sticks to the bottom.
// Pure arithmetic: no DOM, no network.

/**
 * @typedef {{id: string, edge: "top" | "bottom", band: [number, number]}} Pin
 * @typedef {{x: number, y: number, w: number, h: number}} Frame
 */

/**
 * The frame a pinned cell is drawn at.
 * @param {Frame} frame its resting frame (the server's)
 * @param {Pin} pin
 * @param {number} scrollTop the viewport's top edge in the list's coordinates
 * @param {number} viewportHeight
 * @returns {Frame}
 */
export function pinnedFrame(frame, pin, scrollTop, viewportHeight) {
  const [minY, maxY] = pin.band;
  const y = pin.edge === "bottom"
    ? Math.max(minY, Math.min(frame.y, scrollTop + viewportHeight - frame.h))
    : Math.max(frame.y, Math.min(scrollTop, maxY - frame.h));
  return { x: frame.x, y, w: frame.w, h: frame.h };
}

/**
 * Whether a cell belongs in the DOM for the vertical range `[top, bottom]` of the list: its
 * frame meets it or, pinned, its section's band does (it may be drawn anywhere in the band).
 * @param {Frame} frame
 * @param {Pin | undefined} pin
 */
export function meetsRange(frame, pin, top, bottom) {
  const [low, high] = pin ? pin.band : [frame.y, frame.y + frame.h];
  return high >= top && low <= bottom;
}
