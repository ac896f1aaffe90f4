// Which cells live in the DOM: only those whose frame meets the viewport plus a margin of
// one screen above and below (UIKit's cell reuse and prefetching). Cells are keyed by
// `data-id`, absolutely positioned at the server's frames, and keyboard-navigable (roving
// tabindex, arrow keys). The network is not its business.

import { Animator, place, stop } from "./animate.js";
import { meetsRange, pinnedFrame } from "./pinned.js";

const NAVIGATION_KEYS = new Set(["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "Home", "End", "PageDown", "PageUp"]);

export class ListView {
  /** @type {Map<string, HTMLElement>} live cells by id (cells fading out are not in it) */
  elements = new Map();

  /**
   * @param {HTMLElement} container the `role="list"` element; its content box is the frames' origin
   * @param {import("./changeset.js").ListModel} model
   * @param {object} [options]
   * @param {Animator} [options.animator]
   * @param {number} [options.margin] how many screens to keep above and below the viewport
   * @param {(count: number) => void} [options.onRender] told the live cell count after each render
   * @param {import("./measure.js").Measurer | null} [options.measurer] watches self-sizing cells
   */
  constructor(container, model, { animator = new Animator(), margin = 1, onRender = () => {}, measurer = null } = {}) {
    this.container = container;
    this.model = model;
    this.animator = animator;
    this.measurer = measurer;
    this.margin = margin;
    this.onRender = onRender;
    this.activeID = null;
    this.pendingFocus = null;
    this.frameRequested = false;
    this.container.setAttribute("role", "list");
    this.container.addEventListener("keydown", (event) => this.#onKeyDown(event));
    this.container.addEventListener("focusin", (event) => {
      const cell = event.target.closest?.(".cell[data-id]");
      if (cell && this.container.contains(cell)) this.#activate(cell.dataset.id);
    });
    const schedule = () => this.scheduleRender();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
  }

  /**
   * Takes over the cells the server rendered into the container, so the first paint is
   * not replaced; returns them as model cells.
   */
  adopt() {
    const cells = [];
    for (const element of this.container.querySelectorAll(":scope > [data-id]")) {
      const [x, y, w, h] = (element.dataset.frame ?? "").split(",").map(Number);
      if (![x, y, w, h].every(Number.isFinite)) {
        element.remove();
        continue;
      }
      const id = element.dataset.id;
      const cell = { id, kind: element.dataset.kind || "item", frame: { x, y, w, h }, html: element.innerHTML };
      if (element.dataset.section) cell.section = element.dataset.section;
      if (element.dataset.decoration) cell.decoration = element.dataset.decoration;
      if (element.dataset.fit !== undefined) cell.fit = 1;
      element.classList.add("cell");
      this.#decorate(element, cell);
      place(element, cell.frame);
      this.elements.set(id, element);
      cells.push(cell);
    }
    return cells;
  }

  /** Re-renders on the next animation frame (scroll, resize); many calls, one render. */
  scheduleRender() {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.render(null);
    });
  }

  /**
   * Brings the DOM up to date with the model after `change` (or after scrolling when null),
   * animating when the change asks for it and motion is allowed.
   * - Complexity: O(n) to find the cells in range, O(cells in the DOM) DOM work.
   * @param {import("./changeset.js").Change | null} change
   */
  render(change) {
    const model = this.model;
    this.container.style.height = `${model.contentSize.h}px`;
    this.#syncScrollers();
    const animated = change ? this.animator.allows(change.animated) : false;
    const focusWasInside = this.container.contains(document.activeElement);
    const range = this.#range();
    /** The change's slides, run together once every cell is known (the animator keeps them apart). */
    const moves = [];

    if (change) {
      for (const { id } of change.deleted) {
        const element = this.elements.get(id);
        if (!element) continue;
        this.elements.delete(id);
        this.#retire(element, animated);
      }
      // Cells that left the server's window: slide to where they went, then go.
      for (const { id, from, to } of change.left) {
        const element = this.elements.get(id);
        if (!element) continue;
        this.elements.delete(id);
        // One still appearing was never seen: it goes at once (sliding, it would show).
        const gone = () => {
          if (element === document.activeElement) element.blur();
          element.remove();
        };
        if (animated && to && !this.animator.isAppearing(element)) {
          const cell = { id, section: element.dataset.section, kind: element.dataset.kind };
          const then = (animation) => (animation ? animation.finished.then(gone, gone) : gone());
          moves.push({ element, from: this.#local(cell, from), to: this.#local(cell, to), then });
          continue;
        }
        gone();
      }
      for (const { id, reload } of change.updated) {
        const element = this.elements.get(id);
        const cell = model.cells.get(id);
        if (!element || !cell) continue;
        if (reload) this.#replace(element, cell, animated);
        else reconfigure(element, cell.html);
      }
    }

    const moved = new Map();
    if (change) for (const move of change.moved) moved.set(move.id, move.from);
    const inserted = new Set(change ? change.inserted : []);

    // Cells that belong in the DOM now, and those of them that stay where they are.
    const wanted = new Set();
    const stays = [];
    for (const cell of model.cells.values()) {
      if (!meetsRange(cell.frame, model.pinned.get(cell.id), range.top, range.bottom)) continue;
      wanted.add(cell.id);
      let element = this.elements.get(cell.id);
      const frame = this.#local(cell, cell.frame);
      if (!element) {
        element = this.#create(cell);
        const from = moved.get(cell.id);
        if (animated && inserted.has(cell.id)) this.animator.appear(element, frame);
        else if (animated && from) moves.push({ element, from: this.#local(cell, from), to: frame });
        else {
          place(element, frame); // entered the window: shown at once, where it is
          if (cell.kind !== "decoration") stays.push({ element, frame });
        }
        continue;
      }
      const parent = this.#parentFor(cell);
      if (element.parentElement !== parent) {
        // Its section began (or stopped) scrolling sideways: it moves into (out of) the scroller.
        stop(element);
        parent.append(element);
        place(element, frame);
      }
      const from = moved.get(cell.id);
      if (!from) {
        // Not moved by this change, yet not at the model's frame (it was moved while it slid
        // or faded): placed there now.
        if (element.dataset.frame !== frameAttribute(cell.frame) && element.getAnimations().length === 0) {
          place(element, frame);
          element.dataset.frame = frameAttribute(cell.frame);
        }
        if (cell.kind !== "decoration" && !this.animator.isAppearing(element)) stays.push({ element, frame });
        continue;
      }
      // A self-sizing cell given another frame: its own size is reported afresh.
      if (cell.fit && (from.w !== cell.frame.w || from.h !== cell.frame.h)) this.measurer?.recheck(element);
      // Still appearing (inserted by the change before): it appears at its new place instead.
      if (animated && this.animator.isAppearing(element)) this.animator.appear(element, frame);
      else if (animated) moves.push({ element, from: this.#local(cell, from), to: frame });
      else if (!this.animator.retarget(element, frame)) {
        // Not animated (measured sizes, a reset): placed at once; but a cell still on its way
        // goes on to the new frame with the cells around it (jumping ahead, it would stand
        // where they are still passing).
        stop(element);
        place(element, frame);
      }
      element.dataset.frame = frameAttribute(cell.frame);
    }

    // Cells out of range: gone now, or once they have slid out of view.
    for (const [id, element] of this.elements) {
      if (wanted.has(id)) continue;
      const cell = model.cells.get(id);
      if (!cell) {
        this.elements.delete(id);
        this.#retire(element, false);
        continue;
      }
      if (animated && moved.has(id) && !this.animator.isAppearing(element)) {
        const then = (animation) => animation?.finished.then(() => this.scheduleRender(), () => {});
        moves.push({ element, from: this.#local(cell, moved.get(id)), to: this.#local(cell, cell.frame), then });
        continue;
      }
      // Never seen (still waiting to fade in where it no longer belongs): gone at once.
      if (this.animator.isAppearing(element) && element !== document.activeElement) {
        stop(element);
        this.elements.delete(id);
        element.remove();
        continue;
      }
      // Sliding (a change just now): gone once that is over, or cancelled (a later change
      // stopped it where it was: it must not stay there).
      const running = element.getAnimations();
      if (running.length > 0) {
        const again = () => this.scheduleRender();
        running[0].finished.then(again, again);
        continue;
      }
      if (element === document.activeElement) continue;
      this.elements.delete(id);
      element.remove();
    }

    if (moves.length > 0) {
      const animations = this.animator.move(moves, stays);
      moves.forEach(({ then }, index) => then?.(animations[index]));
    }
    if (moved.size > 0) this.#rewindBands(moved);
    this.#stick();

    this.#updateAccessibility(focusWasInside);
    if (this.pendingFocus && this.elements.has(this.pendingFocus)) {
      const id = this.pendingFocus;
      this.pendingFocus = null;
      this.focusItem(id);
    }
    this.onRender(this.elements.size);
  }

  /** The visible part of the list in its own coordinates, widened by the margin. */
  #range() {
    const box = this.container.getBoundingClientRect();
    const viewportHeight = window.innerHeight || document.documentElement.clientHeight;
    const top = -box.top; // how far the list's top is above the viewport's top
    const extra = viewportHeight * this.margin;
    this.viewport = { top, height: viewportHeight };
    return { top: top - extra, bottom: top + viewportHeight + extra };
  }

  #create(cell) {
    const element = document.createElement("div");
    element.className = "cell";
    this.#decorate(element, cell);
    element.innerHTML = cell.html;
    place(element, this.#local(cell, cell.frame));
    this.#parentFor(cell).append(element);
    this.elements.set(cell.id, element);
    return element;
  }

  /**
   * The scroller of each orthogonal section (a section that scrolls sideways on its own):
   * a horizontally scrolling band at its groups' place, as wide as the list, holding the
   * section's item cells at their frames (relative to the band). `groupPaging` and the other
   * paging behaviours snap with CSS scroll-snap. Scrollers of sections gone are removed and
   * their cells return to the list.
   */
  #syncScrollers() {
    if (!this.scrollers) this.scrollers = new Map();
    for (const [id, scroller] of this.scrollers) {
      if (this.model.orthogonal.has(id)) continue;
      for (const element of scroller.querySelectorAll(":scope > .cell[data-id]")) this.container.append(element);
      scroller.remove();
      this.scrollers.delete(id);
    }
    for (const [id, section] of this.model.orthogonal) {
      let scroller = this.scrollers.get(id);
      if (!scroller) {
        scroller = document.createElement("div");
        scroller.className = "orthogonal-section";
        scroller.dataset.section = id;
        scroller.setAttribute("role", "none"); // its cells stay the list's items
        const spacer = document.createElement("div");
        spacer.className = "orthogonal-spacer";
        scroller.append(spacer);
        this.container.append(scroller);
        this.scrollers.set(id, scroller);
      }
      scroller.dataset.behavior = section.behavior;
      scroller.style.transform = `translateY(${section.y}px)`;
      scroller.style.height = `${section.h}px`;
      scroller.style.scrollPaddingLeft = `${section.x ?? 0}px`; // snap a group to the leading inset
      scroller.firstElementChild.style.width = `${section.w}px`;
    }
  }

  /**
   * A change that moved a band's cells (Explore's Shuffle) scrolls the band back to its start,
   * so that its new first cards show; smoothly, unless the user asks for reduced motion (the
   * scroller's CSS `scroll-behavior` says which).
   */
  #rewindBands(moved) {
    if (!this.scrollers) return;
    for (const [section, scroller] of this.scrollers) {
      if (scroller.scrollLeft === 0) continue;
      for (const id of moved.keys()) {
        if (this.model.cells.get(id)?.section !== section) continue;
        scroller.scrollTo({ left: 0 });
        break;
      }
    }
  }

  /** Where a cell's element lives: its section's scroller, or the list. */
  #parentFor(cell) {
    const section = cell.section ?? this.model.cells.get(cell.id)?.section;
    if (cell.kind === "item" && section && this.model.orthogonal.has(section)) {
      this.#syncScrollers();
      return this.scrollers.get(section) ?? this.container;
    }
    return this.container;
  }

  /**
   * Pinned headers and footers at the place the scroll offset gives them (pinned.js), marked
   * `data-pinned` (drawn above the items) and `data-stuck` while away from their resting frame.
   * Runs on every scroll frame: a transform per pinned cell, no layout. A cell in an animation
   * is left to it, and placed again when it ends.
   */
  #stick() {
    for (const [id, element] of this.elements) {
      const pin = this.model.pinned.get(id);
      const cell = this.model.cells.get(id);
      if (!pin || !cell) {
        if (element.dataset.pinned) {
          delete element.dataset.pinned;
          delete element.dataset.stuck;
          if (cell && element.getAnimations().length === 0) place(element, this.#local(cell, cell.frame));
        }
        continue;
      }
      element.dataset.pinned = pin.edge;
      const frame = this.#local(cell, cell.frame);
      if (frame.y !== cell.frame.y) element.dataset.stuck = "";
      else delete element.dataset.stuck;
      const running = element.getAnimations();
      // Scrolled while it slid: it sticks again once the slide is over.
      if (running.length > 0) running[0].finished.then(() => this.scheduleRender(), () => {});
      else place(element, frame);
    }
  }

  /**
   * A frame in its element's parent's coordinates: a scroller's band starts at its `y`; a
   * pinned header or footer is where the scroll offset puts it.
   */
  #local(cell, frame) {
    if (!frame) return frame;
    const pin = this.model.pinned.get(cell.id);
    if (pin && this.viewport) return pinnedFrame(frame, pin, this.viewport.top, this.viewport.height);
    const section = cell.section ?? this.model.cells.get(cell.id)?.section;
    const band = cell.kind === "item" && section ? this.model.orthogonal.get(section) : null;
    return band ? { x: frame.x, y: frame.y - band.y, w: frame.w, h: frame.h } : frame;
  }

  #decorate(element, cell) {
    element.dataset.id = cell.id;
    element.dataset.kind = cell.kind;
    if (cell.fit) {
      element.dataset.fit = "";
      this.measurer?.observe(element);
    }
    if (cell.section) element.dataset.section = cell.section;
    element.dataset.frame = frameAttribute(cell.frame);
    if (cell.kind === "decoration") {
      // A section background: drawn behind the items, nothing to read or focus.
      if (cell.decoration) element.dataset.decoration = cell.decoration;
      element.setAttribute("aria-hidden", "true");
      element.removeAttribute("role");
      return;
    }
    element.setAttribute("role", "listitem");
    if (cell.kind === "item") element.tabIndex = -1;
  }

  /** reloadItems: a new element takes the old one's place (and its focus). */
  #replace(old, cell, animated) {
    const hadFocus = old === document.activeElement;
    this.elements.delete(cell.id);
    const element = this.#create(cell);
    old.replaceWith(element);
    if (animated) this.animator.appear(element, this.#local(cell, cell.frame), { immediately: true });
    if (hadFocus) element.focus({ preventScroll: true });
  }

  /** A deleted cell stops being a cell (no id, hidden from assistive tech) and fades out. */
  #retire(element, animated) {
    delete element.dataset.id;
    element.classList.add("leaving");
    element.setAttribute("aria-hidden", "true");
    element.removeAttribute("role");
    element.removeAttribute("tabindex");
    if (element === document.activeElement) element.blur();
    if (animated) this.animator.disappear(element);
    else element.remove();
  }

  /** `aria-setsize`/`aria-posinset` and the roving tabindex for the cells in the DOM. */
  #updateAccessibility(focusWasInside) {
    const setSize = this.model.itemCount;
    let first = null;
    for (const [id, element] of this.elements) {
      if (element.dataset.kind !== "item") continue;
      const position = this.model.positionOf(id);
      element.setAttribute("aria-setsize", String(setSize));
      element.setAttribute("aria-posinset", String(position));
      if (!first || position < first.position) first = { id, position };
    }
    if (!this.activeID || !this.elements.has(this.activeID)) {
      if (first) this.#activate(first.id);
      if (focusWasInside && first && !this.container.contains(document.activeElement)) {
        this.elements.get(first.id).focus({ preventScroll: true });
      }
    } else {
      this.#activate(this.activeID);
    }
  }

  #activate(id) {
    if (this.activeID && this.activeID !== id) {
      const previous = this.elements.get(this.activeID);
      if (previous) previous.tabIndex = -1;
    }
    this.activeID = id;
    const element = this.elements.get(id);
    if (element) element.tabIndex = 0;
  }

  #onKeyDown(event) {
    if (!NAVIGATION_KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
    const current = event.target.closest?.(".cell[data-id]");
    if (!current) return;
    const target = this.#neighbour(current.dataset.id, event.key);
    if (!target) return;
    event.preventDefault();
    this.focusItem(target);
  }

  /**
   * Scrolls an item into view, renders it if needed, and focuses it. An item outside the
   * server's window (Home, End) is scrolled towards and focused when its cell arrives.
   */
  focusItem(id) {
    const cell = this.model.cells.get(id);
    if (!cell) {
      const order = this.model.itemOrder();
      const box = this.container.getBoundingClientRect();
      const listTop = box.top + window.scrollY;
      if (id === order[0]) window.scrollTo(0, listTop);
      else if (id === order[order.length - 1]) window.scrollTo(0, listTop + this.model.contentSize.h - window.innerHeight);
      else return;
      this.pendingFocus = id;
      return;
    }
    const box = this.container.getBoundingClientRect();
    const top = box.top + cell.frame.y;
    const bottom = top + cell.frame.h;
    const viewportHeight = window.innerHeight;
    const pad = 8;
    // A bar fixed over the viewport's bottom (an opened post, a card: `--overlay-bottom` on the
    // body, app.css) is no place to leave the focused item.
    const overlay = parseFloat(getComputedStyle(document.body).getPropertyValue("--overlay-bottom")) || 0;
    if (top < pad) window.scrollBy(0, top - pad);
    else if (bottom > viewportHeight - pad - overlay) window.scrollBy(0, bottom - viewportHeight + pad + overlay);
    this.render(null);
    const element = this.elements.get(id);
    if (!element) return;
    this.#activate(id);
    element.focus({ preventScroll: true });
    // In a section that scrolls sideways, bring the cell into its scroller's view too.
    const scroller = element.parentElement;
    if (scroller && scroller !== this.container) {
      const left = cell.frame.x, right = left + cell.frame.w;
      if (left < scroller.scrollLeft) scroller.scrollLeft = left - 8;
      else if (right > scroller.scrollLeft + scroller.clientWidth) scroller.scrollLeft = right - scroller.clientWidth + 8;
    }
  }

  /**
   * The item an arrow key leads to, from the frames of the window's cells: a grid moves by
   * rows and columns; Home and End go to the list's first and last item, wherever they are.
   */
  #neighbour(id, key) {
    if (key === "Home" || key === "End") {
      const all = this.model.itemOrder();
      return all.length ? all[key === "Home" ? 0 : all.length - 1] : null;
    }
    // The window's items in list order (the window spans a screen above and below).
    const order = [...this.model.cells.values()]
      .filter((cell) => cell.kind === "item")
      .map((cell) => cell.id)
      .sort((a, b) => this.model.positionOf(a) - this.model.positionOf(b));
    const index = order.indexOf(id);
    if (index < 0 || order.length === 0) return null;
    const frameOf = (i) => this.model.cells.get(order[i]).frame;
    switch (key) {
      case "ArrowRight": return order[Math.min(index + 1, order.length - 1)];
      case "ArrowLeft": return order[Math.max(index - 1, 0)];
      case "ArrowDown":
      case "ArrowUp": {
        const step = key === "ArrowDown" ? 1 : -1;
        const here = frameOf(index);
        let i = index + step;
        while (i >= 0 && i < order.length && frameOf(i).y === here.y) i += step;
        if (i < 0 || i >= order.length) return order[index];
        const rowY = frameOf(i).y;
        const centre = here.x + here.w / 2;
        let best = i;
        for (let j = i; j >= 0 && j < order.length && frameOf(j).y === rowY; j += step) {
          const f = frameOf(j);
          const bestFrame = frameOf(best);
          if (Math.abs(f.x + f.w / 2 - centre) < Math.abs(bestFrame.x + bestFrame.w / 2 - centre)) best = j;
        }
        return order[best];
      }
      case "PageDown":
      case "PageUp": {
        const here = frameOf(index);
        const targetY = here.y + (key === "PageDown" ? 1 : -1) * window.innerHeight * 0.9;
        let i = index;
        const step = key === "PageDown" ? 1 : -1;
        while (i + step >= 0 && i + step < order.length && (step > 0 ? frameOf(i + step).y <= targetY : frameOf(i + step).y >= targetY)) i += step;
        return order[i];
      }
      default: return null;
    }
  }
}

function frameAttribute(frame) {
  return `${frame.x},${frame.y},${frame.w},${frame.h}`;
}

const FOCUSABLE = "button, a[href], input, select, textarea, [tabindex]";

/**
 * reconfigureItems: the same element, new content. A control inside that had the focus (a
 * switch a person toggled with the keyboard) hands it to its counterpart in the new content,
 * the control at the same place among the cell's focusable ones, so the next key press works.
 * @param {HTMLElement} element
 * @param {string} html
 */
function reconfigure(element, html) {
  const focused = document.activeElement;
  const index = focused && focused !== element && element.contains(focused) ? [...element.querySelectorAll(FOCUSABLE)].indexOf(focused) : -1;
  element.innerHTML = html;
  if (index >= 0) element.querySelectorAll(FOCUSABLE)[index]?.focus({ preventScroll: true });
}
