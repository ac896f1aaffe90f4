// Self-sizing cells (UIKit's `preferredLayoutAttributesFitting`): a cell the layout gives an
// estimated height (`fit` on the wire, `data-fit` in the DOM) takes its content's height. A
// ResizeObserver notices each such cell's size (when it is made, when its content or width
// changes, when a web font arrives); the sizes that differ from the server's frames are sent
// to the server, batched per animation frame. The server lays the list out again at that
// width and answers with a `window` event (`measured`) that moves the cells after them.

/** A size the server already has, within this many CSS pixels, is not sent again. */
const TOLERANCE = 0.5;
/** The server takes at most this many sizes in one message. */
const BATCH = 1000;

export class Measurer {
  /** @type {Map<string, {w: number, h: number}>} measured sizes not sent yet, by cell id */
  #pending = new Map();
  #frameRequested = false;
  #inFlight = 0;

  /**
   * @param {string} demo
   * @param {import("./changeset.js").ListModel} model its `stream` names this stream; its cells hold the server's frames
   * @param {(url: string, body: object) => Promise<unknown>} post
   */
  constructor(demo, model, post) {
    this.url = `/demos/${encodeURIComponent(demo)}/measure`;
    this.model = model;
    this.post = post;
    this.observer = "ResizeObserver" in window ? new ResizeObserver((entries) => this.#observed(entries)) : null;
  }

  /** Watches a self-sizing cell's element (its first size is reported too). */
  observe(element) {
    this.observer?.observe(element, { box: "border-box" });
  }

  /**
   * Reports the element's size afresh: the server gave it another frame (a new width, a
   * layout that forgot a measurement), which its own size may not match.
   */
  recheck(element) {
    if (!this.observer) return;
    this.observer.unobserve(element);
    this.observer.observe(element, { box: "border-box" });
  }

  /**
   * Whether every measurement was sent and answered: nothing waits, and each self-sizing cell
   * among `elements` is as tall as the server's frame says (for tests and tools; it reads
   * layout).
   * @param {Iterable<HTMLElement>} elements
   */
  settled(elements) {
    if (this.#pending.size > 0 || this.#inFlight > 0 || this.#frameRequested) return false;
    for (const element of elements) {
      if (element.dataset.fit === undefined || element.getAnimations().length > 0) continue;
      const cell = this.model.cells.get(element.dataset.id);
      if (cell && Math.abs(element.offsetHeight - cell.frame.h) > 1) return false;
    }
    return true;
  }

  /** Sends what waits (a stream just opened: its id is known now). */
  flush() {
    if (this.#pending.size === 0 || !this.model.stream) return;
    const entries = [...this.#pending];
    this.#pending.clear();
    for (let start = 0; start < entries.length; start += BATCH) {
      const sizes = Object.fromEntries(entries.slice(start, start + BATCH));
      this.#inFlight += 1;
      Promise.resolve(this.post(this.url, { stream: this.model.stream, sizes })).finally(() => { this.#inFlight -= 1; });
    }
  }

  #observed(entries) {
    for (const entry of entries) {
      const element = /** @type {HTMLElement} */ (entry.target);
      const id = element.dataset.id;
      // Gone (removed, or a deleted cell fading out): nothing to report, nothing to watch.
      if (!element.isConnected || !id) {
        this.observer.unobserve(element);
        continue;
      }
      const cell = this.model.cells.get(id);
      if (!cell) continue;
      const box = entry.borderBoxSize?.[0];
      const size = {
        w: round(box ? box.inlineSize : element.offsetWidth),
        h: round(box ? box.blockSize : element.offsetHeight),
      };
      if (Math.abs(size.h - cell.frame.h) <= TOLERANCE && Math.abs(size.w - cell.frame.w) <= TOLERANCE) {
        this.#pending.delete(id);
        continue;
      }
      this.#pending.set(id, size);
    }
    if (this.#pending.size === 0 || this.#frameRequested) return;
    this.#frameRequested = true;
    requestAnimationFrame(() => {
      this.#frameRequested = false;
      this.flush();
    });
  }
}

/** Two decimals: what the wire's frames carry. */
function round(value) {
  return Math.round(value * 100) / 100;
}

/**
 * Scroll anchoring for a `window` event that follows measurements: the first cell the person
 * sees keeps its place on screen while cells above it change height (as UIKit keeps the
 * content offset's anchor). Call before the event is applied; call the result after.
 * @param {import("./changeset.js").ListModel} model
 * @param {number} top the viewport's top in the list's coordinates
 * @returns {() => void}
 */
export function anchorScroll(model, top) {
  if (top <= 0) return () => {};
  let anchor = null;
  for (const cell of model.cells.values()) {
    if (cell.kind !== "item" || cell.frame.y + cell.frame.h <= top) continue;
    if (!anchor || cell.frame.y < anchor.frame.y) anchor = cell;
  }
  if (!anchor) return () => {};
  const id = anchor.id, before = anchor.frame.y;
  return () => {
    const after = model.cells.get(id)?.frame.y;
    if (after === undefined || after === before) return;
    window.scrollBy({ top: after - before, behavior: "instant" });
  };
}
