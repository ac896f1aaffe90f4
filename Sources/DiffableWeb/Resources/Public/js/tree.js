// The WAI-ARIA tree pattern for an outline (a page whose body has `data-tree`: the Outline
// demo). Rows are ordinary cells from the server; each cell's `.outline-row` states its level,
// its position among its siblings, its parent, and whether it is expanded (data attributes).
//
// After every render this module makes the list a tree for assistive technology (`role=tree`;
// each cell a `treeitem` with `aria-level`, `aria-setsize`/`aria-posinset` among its siblings,
// and `aria-expanded` on parents) and keeps the cells in the DOM in the list's order (the
// virtualizer appends new cells at the end; a tree is read in DOM order). It adds the tree's
// keys: → expands, or moves to the first child of an expanded row; ← collapses, or moves to
// the parent; Enter and Space toggle (↑ ↓ Home End PageUp PageDown are the list's own). In a
// selectable outline, Enter, Space and a click on a row are selection.js's taps instead.
//
// Expanding and collapsing are the list's actions, named by the page (`data-expand-action`,
// `data-collapse-action` and their `data-item-parameter` on the body: this file names no
// action), posted to the server, which streams the children in and out (animated by the generic path, reduced motion respected there). Each parent's
// disclosure is a form that posts and redirects without JavaScript; cells are created after
// the page loaded, so their submits are handled here, by delegation on the list.

import { postAction } from "./post.js";
import { showFailure, clearFailure, describe } from "./failures.js";

const TREE_KEYS = new Set(["ArrowLeft", "ArrowRight", "Enter", " "]);

/**
 * @param {HTMLElement} container the list
 * @param {import("./virtualize.js").ListView} view
 * @param {import("./changeset.js").ListModel} model
 * @param {string} demo
 * @returns {{decorate: () => void, send: (action: string, item: string) => Promise<unknown>} | null}
 *   null when the page is not a tree
 */
export function bindTree(container, view, model, demo) {
  if (!document.body.hasAttribute("data-tree")) return null;
  const { expandAction, collapseAction, itemParameter } = document.body.dataset;
  if (!expandAction || !collapseAction || !itemParameter) return null;

  // Requests go out one at a time, in the order of the user's gestures.
  let queue = Promise.resolve();
  const send = (action, item) => {
    const url = `/demos/${encodeURIComponent(demo)}/actions/${encodeURIComponent(action)}`;
    // A refusal (a 422, a 503) is shown above the tree: the row may be re-rendered any time.
    queue = queue.then(() => postAction(url, { [itemParameter]: item })).then((outcome) => {
      if (outcome.ok) {
        clearFailure(container);
        return outcome.answer;
      }
      showFailure(container, describe(outcome, action === collapseAction ? "Collapsing" : "Expanding"));
      return null;
    });
    return queue;
  };

  const rowOf = (cell) => cell?.querySelector(":scope > .outline-row") ?? null;
  const cellOf = (target) => {
    const cell = target?.closest?.(".cell[data-id]");
    return cell && container.contains(cell) ? cell : null;
  };
  const isExpanded = (row) => row?.dataset.expanded === "true";
  const isParent = (row) => row?.dataset.expanded === "true" || row?.dataset.expanded === "false";
  const toggle = (cell) => {
    const row = rowOf(cell);
    if (isParent(row)) send(isExpanded(row) ? collapseAction : expandAction, cell.dataset.id);
  };

  /** ARIA from each row's data, and the DOM in the list's order. */
  const decorate = () => {
    container.setAttribute("role", "tree");
    const hint = document.getElementById("outline-hint");
    if (hint) container.setAttribute("aria-describedby", hint.id);
    for (const cell of container.querySelectorAll(":scope > .cell[data-id]")) {
      const row = rowOf(cell);
      if (!row) continue;
      cell.setAttribute("role", "treeitem");
      cell.setAttribute("aria-level", row.dataset.level ?? "1");
      cell.setAttribute("aria-setsize", row.dataset.siblings ?? "1");
      cell.setAttribute("aria-posinset", row.dataset.position ?? "1");
      if (isParent(row)) cell.setAttribute("aria-expanded", row.dataset.expanded);
      else cell.removeAttribute("aria-expanded");
      const label = row.querySelector(".outline-label")?.textContent ?? "";
      const detail = row.querySelector(".outline-detail")?.textContent ?? "";
      cell.setAttribute("aria-label", detail ? `${label}, ${detail}` : label);
      // The treeitem is the one focus stop and says whether it is expanded: the disclosure
      // button is for the pointer only.
      for (const button of row.querySelectorAll("button")) {
        button.tabIndex = -1;
        button.setAttribute("aria-hidden", "true");
      }
    }
    reorder();
  };

  /** Moves cells so the DOM order is the list's order; only cells out of place move. */
  const reorder = () => {
    const live = [...container.children].filter((el) => el.dataset.id && view.elements.get(el.dataset.id) === el);
    const position = (el) => model.positionOf(el.dataset.id) || Number.MAX_SAFE_INTEGER;
    const sorted = [...live].sort((a, b) => position(a) - position(b));
    if (sorted.every((el, i) => el === live[i])) return;
    const active = document.activeElement;
    let previous = null;
    for (const el of sorted) {
      const anchor = previous ? previous.nextSibling : container.firstChild;
      if (el !== anchor) {
        if (typeof container.moveBefore === "function") container.moveBefore(el, anchor);
        else container.insertBefore(el, anchor);
      }
      previous = el;
    }
    // insertBefore blurs a moved element that had focus; moveBefore keeps it.
    if (active && active !== document.activeElement && container.contains(active)) active.focus({ preventScroll: true });
  };

  /** Focuses an item; one outside the window is scrolled to and focused when it arrives. */
  const focusItem = (id, from) => {
    if (model.cells.has(id)) {
      view.focusItem(id);
      return;
    }
    const here = model.cells.get(from);
    const distance = model.positionOf(from) - model.positionOf(id);
    if (!here || model.positionOf(id) === 0) return;
    // Rows are all one height: the item is `distance` rows away.
    const y = here.frame.y - distance * here.frame.h;
    const listTop = container.getBoundingClientRect().top + window.scrollY;
    window.scrollTo(0, Math.max(0, listTop + y - 8));
    view.pendingFocus = id;
    view.scheduleRender();
  };

  // A selectable outline (the list says `data-select-url`): Return, Space and a click are taps,
  // selection.js's, whose primary action the server turns into the toggle.
  const selectable = Boolean(container.dataset.selectUrl);

  const onKeyDown = (event) => {
    if (!TREE_KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (selectable && (event.key === "Enter" || event.key === " ")) return;
    const cell = cellOf(event.target);
    if (!cell) return;
    const row = rowOf(cell);
    if (!row) return;
    // The list's own ←/→ would move to the previous or next row: in a tree they do not.
    event.preventDefault();
    event.stopPropagation();
    const id = cell.dataset.id;
    switch (event.key) {
      case "ArrowRight":
        if (!isParent(row)) return;
        if (!isExpanded(row)) send(expandAction, id);
        else {
          const next = model.itemOrder()[model.positionOf(id)];
          if (next) focusItem(next, id);
        }
        return;
      case "ArrowLeft":
        if (isExpanded(row)) send(collapseAction, id);
        else if (row.dataset.parent) focusItem(row.dataset.parent, id);
        return;
      default: // Enter, Space
        toggle(cell);
    }
  };

  const onSubmit = (event) => {
    const form = event.target.closest?.("form[data-tree-action]");
    if (!form || !container.contains(form) || event.defaultPrevented) return;
    event.preventDefault();
    const item = new FormData(form).get("item");
    if (typeof item === "string") send(form.dataset.treeAction, item);
  };

  // A click on a parent row's label toggles it, as a sidebar's header rows do; the disclosure
  // button submits its form. Pressing the button keeps focus on the row (the treeitem).
  const onClick = (event) => {
    if (selectable || event.button !== 0 || event.target.closest?.("form")) return;
    const cell = cellOf(event.target);
    if (cell) toggle(cell);
  };
  const onPointerDown = (event) => {
    const button = event.target.closest?.(".outline-row button");
    const cell = cellOf(event.target);
    if (!button || !cell) return;
    event.preventDefault();
    cell.focus({ preventScroll: true });
  };

  const rendered = view.onRender;
  view.onRender = (count) => {
    decorate();
    rendered(count);
  };
  decorate();
  container.addEventListener("keydown", onKeyDown, true);
  container.addEventListener("submit", onSubmit);
  container.addEventListener("click", onClick);
  container.addEventListener("mousedown", onPointerDown);
  return { decorate, send };
}
