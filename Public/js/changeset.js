// The client's model of the list: every cell the server knows of (id → {id, kind, section,
// index, frame, html}), the content size and the status line. It applies `snapshot`,
// `changeset` and `layout` events and describes what changed, so that the renderer can
// animate it. No DOM, no network.

/**
 * @typedef {{x: number, y: number, w: number, h: number}} Frame
 * @typedef {{id: string, kind: string, section?: string, index?: number, frame: Frame, html: string}} Cell
 * @typedef {object} Change what one event did, with the old frames the animation starts from
 * @property {"snapshot" | "changeset" | "layout"} type
 * @property {boolean} animated
 * @property {{id: string, frame: Frame}[]} deleted the frames the deleted cells had
 * @property {string[]} inserted
 * @property {{id: string, from: Frame, to: Frame}[]} moved
 * @property {{id: string, reload: boolean}[]} updated
 */

export class ListModel {
  /** @type {Map<string, Cell>} */
  cells = new Map();
  version = 0;
  contentSize = { w: 0, h: 0 };
  status = "";
  /** @type {string[] | null} item ids in reading order, computed when asked */
  #order = null;
  /** @type {Map<string, number> | null} */
  #positions = null;

  /**
   * Seeds the model with cells rendered on the server, before the first event.
   * @param {Cell[]} cells
   * @param {{w: number, h: number}} contentSize
   */
  seed(cells, contentSize) {
    for (const cell of cells) this.cells.set(cell.id, cell);
    this.contentSize = contentSize;
    this.#invalidate();
  }

  /**
   * Applies one event. Returns what changed, or `null` for an event that is already
   * applied (a replay after reconnecting).
   * - Complexity: O(size of the change) for `changeset` and `layout`, O(n) for `snapshot`.
   * @param {"snapshot" | "changeset" | "layout"} type
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
    this.#invalidate();
    return change;
  }

  /** Item ids in reading order (top to bottom, then left to right). O(n log n) once per change. */
  itemOrder() {
    if (!this.#order) {
      const items = [];
      for (const cell of this.cells.values()) if (cell.kind === "item") items.push(cell);
      items.sort((a, b) => a.frame.y - b.frame.y || a.frame.x - b.frame.x);
      this.#order = items.map((cell) => cell.id);
    }
    return this.#order;
  }

  /** The 1-based position of an item in reading order (`aria-posinset`), or 0. */
  positionOf(id) {
    if (!this.#positions) {
      this.#positions = new Map(this.itemOrder().map((itemID, i) => [itemID, i + 1]));
    }
    return this.#positions.get(id) ?? 0;
  }

  get itemCount() {
    return this.itemOrder().length;
  }

  #invalidate() {
    this.#order = null;
    this.#positions = null;
  }
}

function emptyChange(type, animated) {
  return { type, animated, deleted: [], inserted: [], moved: [], updated: [] };
}

function copyFrame(frame) {
  return { x: +frame.x, y: +frame.y, w: +frame.w, h: +frame.h };
}

function normalizeCell(cell) {
  return { ...cell, frame: copyFrame(cell.frame), html: cell.html ?? "" };
}

/** Deletes, inserts and moves shared by `changeset` and `layout`. */
function applyStructure(model, data, change) {
  for (const id of data.deleted ?? []) {
    const old = model.cells.get(id);
    if (!old) continue;
    model.cells.delete(id);
    change.deleted.push({ id, frame: old.frame });
  }
  for (const raw of data.inserted ?? []) {
    const cell = normalizeCell(raw);
    const old = model.cells.get(cell.id);
    model.cells.set(cell.id, cell);
    if (old) change.moved.push({ id: cell.id, from: old.frame, to: cell.frame });
    else change.inserted.push(cell.id);
  }
  for (const { id, frame } of data.moved ?? []) {
    const cell = model.cells.get(id);
    if (!cell) continue;
    const to = copyFrame(frame);
    change.moved.push({ id, from: cell.frame, to });
    cell.frame = to;
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
    model.version = data.version ?? model.version;
    return change;
  },

  changeset(model, data) {
    if (typeof data.version === "number" && data.version <= model.version) return null;
    const change = emptyChange("changeset", data.animated !== false);
    applyStructure(model, data, change);
    for (const { id, html, reload } of data.updated ?? []) {
      const cell = model.cells.get(id);
      if (!cell) continue;
      cell.html = html ?? "";
      change.updated.push({ id, reload: reload === true });
    }
    model.version = data.version ?? model.version + 1;
    return change;
  },

  layout(model, data) {
    if (typeof data.version === "number" && data.version < model.version) return null;
    const change = emptyChange("layout", false);
    applyStructure(model, data, change);
    return change;
  },
};

function sameFrame(a, b) {
  return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}
