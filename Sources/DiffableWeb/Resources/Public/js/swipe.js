// Swipe actions, for lists whose page says `#list[data-swipe-url]` (UIKit's leading and trailing
// swipe actions): a touch swipe or a pointer drag sideways slides the row's content (the cell's
// own element stays where the layout put it) and reveals the actions under it; released past
// half the actions' width it stays open, short of it it snaps back; past 60% of the row a full
// swipe performs the outermost action (`actions[0]`) when the configuration allows. The actions
// are the server's (`GET …/swipe?item=`), asked when a drag starts; performing one is a `POST`
// whose answer says whether the handler completed: `false` (or a refusal) puts the row back.
//
// Vertical scrolling stays the browser's (`touch-action: pan-y`): a drag that starts vertical is
// no swipe. Each row also has an "Actions" button listing the same actions in a menu, for the
// keyboard and for everyone who cannot swipe. With `prefers-reduced-motion` nothing slides: the
// row jumps to where it goes.

import { postAction } from "./post.js";
import { nextSeq } from "./seq.js";
import { showFailure, clearFailure, describe } from "./failures.js";
import { openMenu, symbolAndTitle } from "./popup-menu.js";

/** How far (px) a pointer moves before it is a swipe or a scroll. */
const SLOP = 8;
/** The width of one revealed action (px). */
const ACTION_WIDTH = 76;
/** The share of the row's width past which a release is a full swipe. */
const FULL_SWIPE = 0.6;

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * @param {HTMLElement} container `#list`
 * @param {import("./virtualize.js").ListView} view
 */
export function bindSwipeActions(container, view) {
  const url = container.dataset.swipeUrl;
  if (!url) return null;

  /** The row being swiped or left open: its cell, content, actions and offset. */
  let row = null;
  /** A pointer that went down on a row and may become a swipe. */
  let pointer = null;
  let suppressClick = false;

  const itemOf = (target) => {
    const element = target?.closest?.(".cell[data-id]");
    return element && container.contains(element) && element.dataset.kind === "item" ? element : null;
  };
  /** What slides: the cell's content, with its accessories when it has them (siblings). */
  const contentsOf = (cell) => [...cell.querySelectorAll(":scope > :not(.swipe-tray):not(.row-actions)")];
  const contentOf = (cell) => contentsOf(cell)[0] ?? null;
  const editing = () => document.body.classList.contains("editing");

  /** The item's actions: `{leading, trailing}`, each `{actions, performsFirstActionWithFullSwipe}` or null. */
  async function actionsOf(id) {
    try {
      const response = await fetch(`${url}?item=${encodeURIComponent(id)}`, { credentials: "same-origin", headers: { Accept: "application/json" } });
      return response.ok ? await response.json() : null;
    } catch {
      return null;
    }
  }

  function tray(cell, edge, configuration) {
    const element = document.createElement("div");
    element.className = `swipe-tray ${edge}`;
    element.setAttribute("role", "group");
    element.setAttribute("aria-label", edge === "leading" ? "Leading actions" : "Trailing actions");
    // actions[0] is the outermost: leftmost on the leading edge, rightmost on the trailing one.
    const actions = edge === "leading" ? configuration.actions : [...configuration.actions].reverse();
    for (const action of actions) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = `swipe-action ${action.style}`;
      button.dataset.action = action.identifier;
      if (action.backgroundColor) button.dataset.color = action.backgroundColor;
      if (action === configuration.actions[0]) button.dataset.outermost = "";
      button.append(...symbolAndTitle(action.image, action.title, "swipe-action-symbol"));
      button.addEventListener("click", (event) => {
        event.stopPropagation();
        perform(cell, action, edge, false);
      });
      element.append(button);
    }
    cell.prepend(element);
    return element;
  }

  /** Moves the row's content to `offset` (px, positive: the leading actions show). */
  function place(state, offset, animate) {
    state.offset = offset;
    const contents = contentsOf(state.cell);
    if (!contents.length) return;
    const smooth = animate && !reducedMotion();
    for (const content of contents) {
      content.classList.toggle("swipe-animating", smooth);
      content.style.transform = offset ? `translateX(${offset}px)` : "";
    }
    const width = state.cell.clientWidth;
    for (const edge of ["leading", "trailing"]) {
      const element = state.trays[edge];
      if (!element) continue;
      const shown = edge === "leading" ? Math.max(0, offset) : Math.max(0, -offset);
      element.classList.toggle("swipe-animating", smooth);
      element.style.width = `${shown}px`;
      element.classList.toggle("full", Boolean(state.config?.[edge]?.performsFirstActionWithFullSwipe) && shown > width * FULL_SWIPE);
    }
  }

  /** The widest the row opens on `edge` (its actions' width), 0 for none. */
  const openWidth = (state, edge) => (state.config?.[edge]?.actions.length ?? 0) * ACTION_WIDTH;

  function setActions(state, config) {
    state.config = config;
    for (const edge of ["leading", "trailing"]) {
      if (config?.[edge]?.actions.length && !state.trays[edge]) state.trays[edge] = tray(state.cell, edge, config[edge]);
    }
    place(state, clamp(state, state.offset), false);
  }

  /** An offset the row may take: none towards an edge without actions. */
  function clamp(state, offset) {
    if (!state.config) return offset;
    if (offset > 0 && !openWidth(state, "leading")) return 0;
    if (offset < 0 && !openWidth(state, "trailing")) return 0;
    const limit = state.cell.clientWidth;
    return Math.max(-limit, Math.min(limit, offset));
  }

  /** Puts the row back (animated) and forgets it. */
  function close(state = row, animate = true) {
    if (!state) return;
    if (row === state) row = null;
    state.cell.dataset.swipe = "closed";
    if (!state.cell.contains(state.trays.leading ?? state.trays.trailing ?? contentOf(state.cell))) return; // re-rendered already
    place(state, 0, animate);
    const done = () => {
      if (state === row) return; // opened again meanwhile
      state.cell.classList.remove("swiping");
      state.trays.leading?.remove();
      state.trays.trailing?.remove();
    };
    if (animate && !reducedMotion()) contentOf(state.cell)?.addEventListener("transitionend", done, { once: true });
    else done();
  }

  async function perform(cell, action, edge, full) {
    const state = row?.cell === cell ? row : null;
    cell.dataset.swipe = "performing";
    if (state && full) place(state, edge === "leading" ? cell.clientWidth : -cell.clientWidth, true);
    const outcome = await postAction(url, { item: cell.dataset.id, action: action.identifier, seq: nextSeq() });
    if (outcome.ok) clearFailure(container);
    else showFailure(container, describe(outcome, action.title));
    const performed = outcome.ok && outcome.answer.performed === true;
    cell.dataset.swipeResult = performed ? "performed" : "refused";
    container.dispatchEvent(new CustomEvent("diffable-web:swipe-action", { detail: { item: cell.dataset.id, action: action.identifier, performed } }));
    // Performed: the changeset shows what it did (a reconfigure re-renders the row, a delete
    // removes it); the row closes either way. Refused: it slides back, nothing changed.
    if (state) close(state);
    else cell.dataset.swipe = "closed";
  }

  container.addEventListener("pointerdown", (event) => {
    const closing = row && !row.cell.contains(event.target);
    // A tap outside the open row closes it and selects nothing (a swipe on another row still starts).
    if (closing) close();
    suppressClick = Boolean(closing);
    if (editing() || (event.pointerType === "mouse" && event.button !== 0)) return;
    if (event.target.closest?.(".swipe-tray, button, a, input, select, textarea, label, form, .drag-handle")) return;
    const cell = itemOf(event.target);
    if (!cell) return;
    const state = row?.cell === cell ? row : { cell, trays: {}, offset: 0, config: null };
    pointer = { id: event.pointerId, x: event.clientX, y: event.clientY, base: state.offset, state, swiping: false };
  });

  container.addEventListener("pointermove", (event) => {
    if (!pointer || event.pointerId !== pointer.id) return;
    const dx = event.clientX - pointer.x;
    const dy = event.clientY - pointer.y;
    const { state } = pointer;
    if (!pointer.swiping) {
      if (Math.abs(dy) > SLOP && Math.abs(dy) >= Math.abs(dx)) { pointer = null; return; } // a scroll
      if (Math.abs(dx) <= SLOP) return;
      pointer.swiping = true;
      try { container.setPointerCapture(event.pointerId); } catch { /* the pointer is gone */ }
      if (row && row !== state) close(row);
      row = state;
      state.cell.classList.add("swiping");
      state.cell.dataset.swipe = "dragging";
      // Asked once the drag is a swipe (a click asks nothing), and then kept while the row is open.
      state.actions ??= actionsOf(state.cell.dataset.id);
      state.actions.then((config) => { if (row === state && !state.config) setActions(state, config); });
    }
    event.preventDefault();
    place(state, clamp(state, pointer.base + dx), false);
  });

  const release = async (event) => {
    if (!pointer || event.pointerId !== pointer.id) return;
    const { state, swiping } = pointer;
    const cancelled = event.type === "pointercancel";
    pointer = null;
    if (!swiping) return;
    suppressClick = true;
    const config = await state.actions;
    if (row !== state) return;
    if (!state.config) setActions(state, config);
    const offset = state.offset;
    const edge = offset > 0 ? "leading" : "trailing";
    const width = openWidth(state, edge);
    const configuration = config?.[edge];
    if (!cancelled && configuration?.performsFirstActionWithFullSwipe && Math.abs(offset) > state.cell.clientWidth * FULL_SWIPE) {
      perform(state.cell, configuration.actions[0], edge, true);
    } else if (!cancelled && width && Math.abs(offset) > width / 2) {
      place(state, offset > 0 ? width : -width, true);
      state.cell.dataset.swipe = `open-${edge}`;
    } else {
      close(state);
    }
  };
  container.addEventListener("pointerup", release);
  container.addEventListener("pointercancel", release);

  // The click that ends a swipe (or a tap that closed an open row) selects nothing.
  container.addEventListener("click", (event) => {
    if (!suppressClick || event.target.closest?.(".swipe-tray")) return;
    suppressClick = false;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);

  container.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && row) close();
  });

  /** The row's "Actions" menu: its swipe actions, leading then trailing. */
  async function showActionsMenu(button, cell) {
    const config = await actionsOf(cell.dataset.id);
    const entries = [];
    for (const edge of ["leading", "trailing"]) {
      for (const action of config?.[edge]?.actions ?? []) entries.push({ action, edge });
    }
    const rect = button.getBoundingClientRect();
    button.setAttribute("aria-expanded", "true");
    openMenu({ x: rect.right - 200, y: rect.bottom + 4 }, {
      kind: "swipe-actions",
      label: button.getAttribute("aria-label") || "Actions",
      items: entries.length ? entries.map(({ action }) => ({ id: action.identifier, title: action.title, image: action.image,
                                                            destructive: action.style === "destructive" }))
                            : [{ id: "", title: "No actions", disabled: true }],
      returnFocus: button,
      onClose: () => button.setAttribute("aria-expanded", "false"),
      onChoose: (item) => {
        const entry = entries.find(({ action }) => action.identifier === item.id);
        if (entry) perform(cell, entry.action, entry.edge, false);
      },
    });
  }

  container.addEventListener("click", (event) => {
    const button = event.target.closest?.(".row-actions");
    const cell = button && itemOf(button);
    if (!cell) return;
    event.stopPropagation();
    showActionsMenu(button, cell);
  });

  // Enter or Space on the button opens its menu (before the listbox's keys take them as a tap on the row).
  container.addEventListener("keydown", (event) => {
    const button = event.target.closest?.(".row-actions");
    const cell = button && itemOf(button);
    if (!cell || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    event.stopPropagation();
    showActionsMenu(button, cell);
  }, true);

  /**
   * One Actions button in the Tab order: the one of the row that holds the list's roving
   * focus (Tab goes from the row to its button, not through every row's).
   */
  function syncTabOrder() {
    for (const element of view.elements.values()) {
      const button = element.querySelector(":scope > .row-actions");
      if (button) button.tabIndex = element.tabIndex === 0 ? 0 : -1;
    }
  }
  container.addEventListener("focusin", () => requestAnimationFrame(syncTabOrder));

  /** Gives each row its "Actions" button (after every render: a re-rendered row lost it). */
  function decorate() {
    for (const element of view.elements.values()) {
      if (element.dataset.kind !== "item") continue;
      if (row?.cell === element && !element.contains(row.trays.leading ?? row.trays.trailing ?? null) && element.dataset.swipe !== "dragging") {
        row = null; // re-rendered while open: it shows its new content, closed
        element.classList.remove("swiping");
      }
      if (element.querySelector(":scope > .row-actions") || element.querySelector("[data-no-swipe-actions]")) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "row-actions";
      button.setAttribute("aria-haspopup", "menu");
      button.setAttribute("aria-expanded", "false");
      const name = element.querySelector(".name")?.textContent?.trim() || element.dataset.id;
      button.setAttribute("aria-label", `Actions for ${name}`);
      button.textContent = "⋯";
      element.append(button);
    }
    syncTabOrder();
  }

  return { decorate, close: () => close() };
}
