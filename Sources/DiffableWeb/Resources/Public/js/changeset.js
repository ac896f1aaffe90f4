// The client's model of the list: every section and item identifier in order (always exact),
// the cells of the window the server shows this stream (id → {id, kind, section, index, frame,
// html}), the content size and the status line. It applies `snapshot`, `changeset` and `window`
// events (docs/protocol.md) and describes what changed, so that the renderer can animate it.
// No DOM, no network.

/**
 * @typedef {{x: number, y: number, w: number, h: number}} Frame
 * @typedef {{id: string, kind: string, section?: string, index?: number, frame: Frame, html: string}} Cell
 * @typedef {object} Change what one event did, with the old frames the animation starts from
 * @property {"snapshot" | "changeset" | "window"} type
 * @property {boolean} animated
 * @property {{id: string, frame: Frame}[]} deleted the frames the deleted cells had
 * @property {string[]} inserted cells new to the window
 * @property {{id: string, from: Frame, to: Frame}[]} moved
 * @property {{id: string, from: Frame, to: Frame | null}[]} left cells that left the window
 * @property {{id: string, reload: boolean}[]} updated
 */

export class ListModel {
  /** @type {Map<string, Cell>} the window's cells */
  cells = new Map();
  /** @type {{id: string, items: string[]}[] | null} every identifier, in order (null until the first snapshot) */
  sections = null;
  version = 0;
  contentSize = { w: 0, h: 0 };
  status = "";
  /** this stream's id on the server (for viewport reports) */
  stream = "";
  /** the window's top the server last laid out for this stream */
  windowTop = 0;
  /**
   * Sections that scroll sideways on their own (`orthogonalScrollingBehavior`), by id: the band
   * of their groups, the width of their content and how they scroll.
   * @type {Map<string, {section: string, y: number, h: number, w: number, behavior: string}>}
   */
  orthogonal = new Map();
  /**
   * The window's pinned headers and footers by cell id: the edge each sticks to and its
   * section's band (see pinned.js).
   * @type {Map<string, import("./pinned.js").Pin>}
   */
  pinned = new Map();
  /** @type {string[] | null} */
  #order = null;
  /** @type {Map<string, number> | null} */
  #positions = null;
  #seededCount = 0;

  /**
   * Seeds the model with cells rendered on the server, before the first event.
   * @param {Cell[]} cells
   * @param {{w: number, h: number}} contentSize
   * @param {number} [itemCount] the list's item count the page states
   */
  seed(cells, contentSize, itemCount = 0) {
    for (const cell of cells) this.cells.set(cell.id, cell);
    this.contentSize = contentSize;
    this.#seededCount = itemCount;
    this.#invalidate();
  }

  /**
   * Applies one event. Returns what changed, or `null` for an event that is already applied
   * (a replay after reconnecting).
   * - Complexity: O(window + change) for the cells; O(n) array work to keep the order.
   * @param {"snapshot" | "changeset" | "window"} type
   * @param {object} data the event's JSON
   * @returns {Change | null}
   */
  apply(type, data) {
    const handler = HANDLERS[type];
    if (!handler) return null;
    const change = handler(this, data);
    if (!change) return null;
    if (data.contentSize) this.contentSize = { w: data.contentSize.w, h: data.contentSize.h };
    if (typeof data.status === "string") this.status = data.status;
    if (typeof data.stream === "string") this.stream = data.stream;
    // A snapshot states them all; other events only when the layout has any.
    if (type === "snapshot" || Array.isArray(data.orthogonal)) {
      this.orthogonal = new Map((data.orthogonal ?? []).map((section) => [section.section, section]));
    }
    // Stated afresh by every event with a window part (replayed changesets have none).
    if (Array.isArray(data.cells)) this.pinned = new Map((data.pinned ?? []).map((pin) => [pin.id, pin]));
    this.#invalidate();
    return change;
  }

  /** Every item id in order (sections concatenated). */
  itemOrder() {
    if (!this.#order) {
      if (this.sections) {
        this.#order = this.sections.flatMap((section) => section.items);
      } else {
        const items = [...this.cells.values()].filter((cell) => cell.kind === "item");
        items.sort((a, b) => a.frame.y - b.frame.y || a.frame.x - b.frame.x);
        this.#order = items.map((cell) => cell.id);
      }
    }
    return this.#order;
  }

  /** The 1-based position of an item in the list (`aria-posinset`), or 0. */
  positionOf(id) {
    if (!this.#positions) {
      this.#positions = new Map(this.itemOrder().map((itemID, i) => [itemID, i + 1]));
    }
    return this.#positions.get(id) ?? 0;
  }

  get itemCount() {
    if (!this.sections && this.#seededCount > 0) return this.#seededCount;
    return this.itemOrder().length;
  }

  #invalidate() {
    this.#order = null;
    this.#positions = null;
  }
}

function emptyChange(type, animated) {
  return { type, animated, deleted: [], inserted: [], moved: [], left: [], updated: [] };
}

function copyFrame(frame) {
  return { x: +frame.x, y: +frame.y, w: +frame.w, h: +frame.h };
}

/**
 * A held cell's new frame: the server sends only the parts that changed (`{"y":64}`), the
 * others are the frame the client holds.
 */
function mergeFrame(held, partial) {
  return {
    x: +(partial.x ?? held.x),
    y: +(partial.y ?? held.y),
    w: +(partial.w ?? held.w),
    h: +(partial.h ?? held.h),
  };
}

function normalizeCell(cell) {
  return { ...cell, frame: copyFrame(cell.frame), html: cell.html ?? "" };
}

function sameFrame(a, b) {
  return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

/**
 * Rebuilds the order like a batch update: survivors keep their relative order; inserted and
 * moved ids land at their new indices, placed in ascending order.
 */
function applyOrder(model, data) {
  if (!model.sections) return;
  const inserted = expandRuns(data.inserted);
  const moved = expandRuns(data.moved);
  const leaving = new Set(data.deleted ?? []);
  for (const { id } of moved) leaving.add(id);
  let sections = model.sections.map((section) => ({
    id: section.id,
    items: leaving.size ? section.items.filter((id) => !leaving.has(id)) : section.items.slice(),
  }));
  if (Array.isArray(data.sections)) {
    const byID = new Map(sections.map((section) => [section.id, section]));
    sections = data.sections.map((id) => byID.get(id) ?? { id, items: [] });
  }
  const arrivals = [...inserted, ...moved];
  arrivals.sort((a, b) => a.index - b.index);
  const byID = new Map(sections.map((section) => [section.id, section]));
  for (const { id, section, index } of arrivals) {
    const target = byID.get(section);
    if (!target) continue;
    target.items.splice(Math.min(index, target.items.length), 0, id);
  }
  model.sections = sections;
}

/**
 * A section that is gone takes its header, footer and background with it, as it takes its
 * items (those are in `deleted`; the rest the event's `sections` implies).
 */
function dropGoneSections(model, data, change) {
  if (!Array.isArray(data.sections)) return;
  const kept = new Set(data.sections);
  for (const [id, cell] of model.cells) {
    if (cell.kind === "item" || cell.section === undefined || kept.has(cell.section)) continue;
    model.cells.delete(id);
    change.deleted.push({ id, frame: cell.frame });
  }
}

/** Runs of ids at consecutive new indices (`{section, index, ids}`), one entry per id. */
function expandRuns(runs) {
  const entries = [];
  for (const run of runs ?? []) {
    const ids = run.ids ?? [];
    for (let k = 0; k < ids.length; k += 1) entries.push({ id: ids[k], section: run.section, index: run.index + k });
  }
  return entries;
}

/** The window part of an event: cells entered or moved, cells that left. */
function applyWindow(model, data, change) {
  for (const raw of data.cells ?? []) {
    const old = model.cells.get(raw.id);
    if (typeof raw.html === "string") {
      const cell = normalizeCell(raw);
      model.cells.set(cell.id, cell);
      if (old) {
        if (!sameFrame(old.frame, cell.frame)) change.moved.push({ id: cell.id, from: old.frame, to: cell.frame });
        if (old.html !== cell.html) change.updated.push({ id: cell.id, reload: false });
      } else {
        change.inserted.push(cell.id);
      }
    } else if (old) {
      const to = mergeFrame(old.frame, raw.frame ?? {});
      change.moved.push({ id: raw.id, from: old.frame, to });
      old.frame = to;
      if (typeof raw.index === "number") old.index = raw.index;
    }
  }
  for (const { id, frame } of data.left ?? []) {
    const old = model.cells.get(id);
    if (!old) continue;
    model.cells.delete(id);
    change.left.push({ id, from: old.frame, to: frame ? mergeFrame(old.frame, frame) : null });
  }
}

const HANDLERS = {
  snapshot(model, data) {
    const change = emptyChange("snapshot", false);
    const previous = model.cells;
    model.cells = new Map();
    for (const raw of data.cells ?? []) {
      const cell = normalizeCell(raw);
      const old = previous.get(cell.id);
      model.cells.set(cell.id, cell);
      if (!old) change.inserted.push(cell.id);
      else {
        if (!sameFrame(old.frame, cell.frame)) change.moved.push({ id: cell.id, from: old.frame, to: cell.frame });
        if (old.html !== cell.html) change.updated.push({ id: cell.id, reload: false });
      }
    }
    for (const [id, old] of previous) if (!model.cells.has(id)) change.deleted.push({ id, frame: old.frame });
    model.sections = (data.sections ?? []).map((section) => ({ id: section.id, items: [...(section.items ?? [])] }));
    model.version = data.version ?? model.version;
    return change;
  },

  changeset(model, data) {
    if (typeof data.version === "number" && data.version <= model.version) return null;
    const change = emptyChange("changeset", data.animated !== false);
    for (const id of data.deleted ?? []) {
      const old = model.cells.get(id);
      if (!old) continue;
      model.cells.delete(id);
      change.deleted.push({ id, frame: old.frame });
    }
    applyOrder(model, data);
    dropGoneSections(model, data, change);
    applyWindow(model, data, change);
    for (const { id, html, reload } of data.updated ?? []) {
      const cell = model.cells.get(id);
      if (!cell) continue;
      cell.html = html ?? "";
      change.updated.push({ id, reload: reload === true });
    }
    model.version = data.version ?? model.version + 1;
    return change;
  },

  window(model, data) {
    if (typeof data.version === "number" && data.version < model.version) return null;
    const change = emptyChange("window", false);
    if (data.reset) {
      // A reconnected stream: these are all the window's cells.
      const keep = new Set((data.cells ?? []).map((cell) => cell.id));
      for (const [id, old] of model.cells) {
        if (keep.has(id)) continue;
        model.cells.delete(id);
        change.left.push({ id, from: old.frame, to: null });
      }
    }
    applyWindow(model, data, change);
    // Held cells at other frames: the viewport's size changed (a resize, a rotation) and the
    // layout adapted to it. They slide to their new frames, as a changeset's moves do. A
    // reset (a reconnected stream) places its window at once.
    // Cells moved by measurements (self-sizing) are placed at once: they settle, they do not travel.
    change.animated = !data.reset && !data.measured && change.moved.length > 0;
    if (typeof data.top === "number") model.windowTop = data.top;
    if (typeof data.version === "number") model.version = Math.max(model.version, data.version);
    return change;
  },
};
