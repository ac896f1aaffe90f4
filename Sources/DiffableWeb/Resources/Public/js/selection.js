// Selection, for lists whose page says `#list[data-select-url]` (Numbers): the WAI-ARIA
// listbox pattern over the cells the view keeps (`role="listbox"`, items `role="option"` with
// `aria-selected`, `aria-multiselectable` in multiple selection). The view's arrow keys move the
// focus only (its roving tabindex); Space (or Return) is a tap on the focused item, Shift+↑/↓
// moves and extends, Ctrl/Cmd+A selects all; a click is a tap, a Shift-click extends. The server
// decides (UIKit's rules, the list's shouldSelect): the page shows the selection that the answer
// and the events state, in version order, so every tab shows the same one. While the list is in
// editing mode (editing.js), it is a plain list again: its rows then hold buttons.

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
  /** @type {{items: string[], editing: boolean, multiple: boolean, allowed?: boolean} | null} */
  let selection = null;
  let selected = new Set();
  let version = -1;
  let queue = Promise.resolve();

  const active = () => selection !== null && selection.allowed !== false && !document.body.classList.contains("editing");

  /** Roles and `aria-selected` on the list and the cells in the DOM (after every render). */
  function decorate() {
    const on = active();
    container.setAttribute("role", on ? "listbox" : "list");
    if (on && selection.multiple) container.setAttribute("aria-multiselectable", "true");
    else container.removeAttribute("aria-multiselectable");
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
