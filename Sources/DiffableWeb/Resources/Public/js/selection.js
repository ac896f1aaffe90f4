// Selection, for lists whose page says `#list[data-select-url]` (Numbers): the WAI-ARIA
// listbox pattern over the cells the view keeps (`role="listbox"`, items `role="option"` with
// `aria-selected`, `aria-multiselectable` in multiple selection). The view's arrow keys move the
// focus only (its roving tabindex); Space (or Return) is a tap on the focused item, Shift+↑/↓
// moves and extends, Ctrl/Cmd+A selects all; a click is a tap, a Shift-click extends. The server
// decides (UIKit's rules, the list's shouldSelect): the page shows the selection that the answer
// and the events state, in version order, so every tab shows the same one. While the list is in
// editing mode (editing.js), it is a plain list again: its rows then hold buttons.
//
// An outline (`body[data-tree]`, tree.js) keeps its tree roles: its treeitems carry
// `aria-selected`, and Return, Space and a click are taps (the server's primary action toggles a
// band). Where the selection says `followsFocus` (single selection that follows focus), an
// arrow key that moves the focus onto an item sends `{"item", "focus": true}`: the server selects
// it without the primary action, as UIKit's `selectionFollowsFocus` does.
//
// A list whose rows hold controls of their own (`#list[data-selection-pattern="grid"]`:
// Destinations' Like buttons) is the WAI-ARIA grid pattern instead of a listbox, whose options
// may hold none: `role="grid"` (`aria-multiselectable` in multiple selection), each item a `row`
// with `aria-selected` and `aria-rowindex`, each of its parts a `gridcell`. The row is the focus
// stop (↑ ↓ as in a list); → moves into its controls one by one, ← back out to the row, and
// its controls leave the Tab order, as the pattern has one stop for the whole grid.

import { postAction } from "./post.js";
import { nextSeq } from "./seq.js";
import { showFailure, clearFailure, describe } from "./failures.js";

/**
 * @param {HTMLElement} container `#list`
 * @param {import("./virtualize.js").ListView} view
 * @returns {{show(data: object): void, decorate(): void, readonly selection: object} | null}
 */
export function bindSelection(container, view) {
  const url = container.dataset.selectUrl;
  if (!url) return null;
  /** @type {{items: string[], editing: boolean, multiple: boolean, allowed?: boolean, followsFocus?: boolean} | null} */
  let selection = null;
  let selected = new Set();
  let version = -1;
  let queue = Promise.resolve();

  const active = () => selection !== null && selection.allowed !== false && !document.body.classList.contains("editing");
  const tree = document.body.hasAttribute("data-tree");
  const grid = container.dataset.selectionPattern === "grid";
  const CONTROLS = "button, a[href], input, select, textarea";

  /** A grid row's parts and controls, or a plain cell's again (`on` false). */
  function decorateRow(element, on) {
    for (const part of element.children) {
      if (on) part.setAttribute("role", "gridcell");
      else if (part.getAttribute("role") === "gridcell") part.removeAttribute("role");
    }
    for (const control of element.querySelectorAll(CONTROLS)) {
      if (on) control.tabIndex = -1;
      else control.removeAttribute("tabindex");
    }
    if (on) {
      const position = element.getAttribute("aria-posinset");
      if (position) element.setAttribute("aria-rowindex", position);
      element.removeAttribute("aria-posinset");
      element.removeAttribute("aria-setsize");
    } else {
      element.removeAttribute("aria-rowindex");
    }
  }

  /** Roles and `aria-selected` on the list and the cells in the DOM (after every render). */
  function decorate() {
    const on = active();
    if (tree) {
      // tree.js gives the roles; a treeitem says whether it is selected.
      for (const [id, element] of view.elements) {
        if (element.dataset.kind !== "item") continue;
        if (on) element.setAttribute("aria-selected", String(selected.has(id)));
        else element.removeAttribute("aria-selected");
        element.classList.toggle("selected", on && selected.has(id));
      }
      return;
    }
    container.setAttribute("role", on ? (grid ? "grid" : "listbox") : "list");
    if (on && selection.multiple) container.setAttribute("aria-multiselectable", "true");
    else container.removeAttribute("aria-multiselectable");
    if (on && grid) container.setAttribute("aria-rowcount", String(view.model.itemCount));
    else container.removeAttribute("aria-rowcount");
    for (const [id, element] of view.elements) {
      const kind = element.dataset.kind;
      if (kind === "decoration") continue;
      if (kind !== "item") {
        // A header is no option: its text stays, its role goes while the list is a listbox.
        element.setAttribute("role", on ? "none" : "listitem");
        continue;
      }
      // A row that is a control's (`data-row-control`: Settings' Wi-Fi switch) is no option
      // (an option's content is presentational: it would hide the control) but a group, the
      // listbox's other kind of child, which has no place in the set.
      if (grid) {
        element.setAttribute("role", on ? "row" : "listitem");
        decorateRow(element, on);
        if (on) element.setAttribute("aria-selected", String(selected.has(id)));
        else element.removeAttribute("aria-selected");
        element.classList.toggle("selected", on && selected.has(id));
        continue;
      }
      const option = on && !element.querySelector("[data-row-control]");
      element.setAttribute("role", option ? "option" : on ? "group" : "listitem");
      if (on && !option) {
        element.removeAttribute("aria-setsize");
        element.removeAttribute("aria-posinset");
      }
      if (option) element.setAttribute("aria-selected", String(selected.has(id)));
      else element.removeAttribute("aria-selected");
      element.classList.toggle("selected", on && selected.has(id));
    }
  }

  /**
   * Takes the selection an event or an answer states, unless a newer one was shown (a
   * `snapshot` starts again: the list may have been made anew, at a lower version).
   */
  function show(data, atVersion, restart = false) {
    if (!data || (!restart && atVersion < version)) return;
    version = atVersion;
    selection = data;
    selected = new Set(data.items);
    decorate();
    document.dispatchEvent(new CustomEvent("diffable-web:selection", { detail: { version, items: data.items, editing: data.editing } }));
  }

  /** Sends a tap (`item`, `extend`) or a select-all, in order with the others. */
  function send(body) {
    queue = queue.then(() => postAction(url, { ...body, seq: nextSeq() })).then((outcome) => {
      if (outcome.ok) {
        clearFailure(container);
        show(outcome.answer.selection, outcome.answer.version);
      } else {
        showFailure(container, describe(outcome, "Selecting"));
      }
    }, () => {});
    return queue;
  }

  const itemOf = (target) => {
    const element = target.closest?.(".cell[data-id]");
    return element && container.contains(element) && element.dataset.kind === "item" ? element : null;
  };

  // A row's own controls (its ↑/↓, a disclosure, a link, a switch) keep their clicks and keys.
  const ownControl = (target) => target.closest?.("button, a, input, select, textarea, label, form, .drag-handle");

  container.addEventListener("click", (event) => {
    if (!active() || event.button !== 0) return;
    if (ownControl(event.target)) return;
    const element = itemOf(event.target);
    if (!element) return;
    send({ item: element.dataset.id, extend: event.shiftKey });
  });
  // A Shift-click selects a range, not the text between.
  container.addEventListener("mousedown", (event) => {
    if (active() && event.shiftKey && itemOf(event.target)) event.preventDefault();
  });

  container.addEventListener("keydown", (event) => {
    if (!active() || event.altKey || ownControl(event.target)) return;
    const element = itemOf(event.target);
    if (!element) return;
    const command = event.ctrlKey || event.metaKey;
    if (command && (event.key === "a" || event.key === "A")) {
      event.preventDefault();
      if (selection.multiple) send({ all: true });
    } else if (!command && (event.key === " " || event.key === "Enter")) {
      event.preventDefault();
      send({ item: element.dataset.id, extend: false });
    } else if (!command && event.shiftKey && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      // The view moved the focus already (its listener comes first): extend to where it went.
      const focused = itemOf(document.activeElement ?? container);
      if (focused && focused !== element) send({ item: focused.dataset.id, extend: true });
    }
  });

  // The grid's ← and →: into a row's controls and back out to the row (before the view's, which
  // would move to the previous or next item).
  if (grid) {
    container.addEventListener("keydown", (event) => {
      if (!active() || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const row = itemOf(event.target);
      if (!row) return;
      const controls = [...row.querySelectorAll(CONTROLS)].filter((control) => !control.disabled && control.getClientRects().length > 0);
      const index = controls.indexOf(event.target.closest?.(CONTROLS));
      event.preventDefault();
      event.stopPropagation();
      const next = event.key === "ArrowRight" ? controls[index + 1] : index > 0 ? controls[index - 1] : index === 0 ? row : null;
      next?.focus({ preventScroll: true });
    }, true);
  }

  // Selection that follows focus: an arrow key (or Home, End, a page key, a tree's ← →) that
  // moves the focus onto an item selects it. The flag is set before the view's and the tree's
  // keys move the focus (a capture listener, added first), and a pointer clears it: a click is a
  // tap of its own.
  const NAVIGATION = new Set(["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "Home", "End", "PageDown", "PageUp"]);
  let navigating = false;
  container.addEventListener("keydown", (event) => {
    navigating = NAVIGATION.has(event.key) && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
  }, true);
  container.addEventListener("pointerdown", () => { navigating = false; });
  container.addEventListener("focusin", (event) => {
    if (!navigating) return;
    navigating = false;
    if (!active() || !selection.followsFocus) return;
    const element = itemOf(event.target);
    if (!element || element !== event.target || selected.has(element.dataset.id)) return;
    send({ item: element.dataset.id, focus: true });
  });

  // Editing mode is a class on the body (editing.js): the roles follow it.
  new MutationObserver(decorate).observe(document.body, { attributes: true, attributeFilter: ["class"] });

  return {
    /** An event's `selection`, when it states one. */
    show(type, data) {
      if (data && data.selection) show(data.selection, typeof data.version === "number" ? data.version : version, type === "snapshot");
    },
    decorate,
    /** A tap on `item` (editing.js: a row or its multiselect circle while editing). */
    tap(item) { return send({ item, extend: false }); },
    get selection() { return selection; },
  };
}
