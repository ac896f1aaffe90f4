// Controls that tell the truth: what the page's controls show follows the list's real state,
// whoever changed it (this page, another tab, a script).
//
// - Every `snapshot` and `changeset` event carries the demo's view state (`"state"`, e.g.
//   `{"layout": "grid"}`, docs/protocol.md). An option of a segmented control names the state it
//   stands for (`data-state-key="layout" data-state-value="grid"`): exactly the option equal to
//   the state is `aria-pressed="true"`. A field names its key alone (`data-state-key="query"`)
//   and shows the value (not while the person types in it: search.js decides). An element that
//   names a key in `data-shows-state` carries the value as `data-<key>` (List appearances' body:
//   `data-shows-state="appearance" data-appearance="sidebar"`), for the page's CSS: it changes
//   with the event that brings the new frames. An element that names a key in `data-state-text`
//   shows the value as its text (the Outline's pane: the row its sidebar shows).
// - A row's ↑ is disabled on the first row and ↓ on the last (`data-move="up"`/`"down"`), after
//   every render, so it stays right as rows are inserted, removed and moved live.
// No network here.

import { showQuery } from "./search.js";

/**
 * Shows the list's view state on the page's controls.
 * @param {Record<string, string> | undefined} state the event's `state`
 * @param {ParentNode} [root]
 */
export function showState(state, root = document) {
  if (!state || typeof state !== "object") return;
  for (const control of root.querySelectorAll("[data-state-key]")) {
    const key = control.dataset.stateKey;
    if (!Object.hasOwn(state, key)) continue;
    const value = String(state[key]);
    if (control.dataset.stateValue !== undefined) {
      const pressed = String(control.dataset.stateValue === value);
      if (control.getAttribute("aria-pressed") !== pressed) control.setAttribute("aria-pressed", pressed);
    } else if (control instanceof HTMLInputElement) {
      showQuery(control, value);
    }
  }
  for (const element of root.querySelectorAll("[data-state-text]")) {
    const key = element.dataset.stateText;
    if (!key || !Object.hasOwn(state, key)) continue;
    const value = String(state[key]);
    if (element.textContent !== value) element.textContent = value;
  }
  for (const element of root.querySelectorAll("[data-shows-state]")) {
    const key = element.dataset.showsState;
    if (!key || !Object.hasOwn(state, key)) continue;
    const value = String(state[key]);
    if (element.dataset[key] !== value) element.dataset[key] = value;
  }
}

/**
 * Disables ↑ on the list's first item and ↓ on its last, and enables them elsewhere.
 * - Complexity: O(buttons in the DOM).
 * @param {Element} container the list
 * @param {import("./changeset.js").ListModel} model
 */
export function syncMoveButtons(container, model) {
  const order = model.itemOrder();
  const first = order[0];
  // Before the first event the model knows only the page's first screen: its last row is the
  // list's last only when that screen holds them all.
  const last = model.sections || order.length === model.itemCount ? order[order.length - 1] : undefined;
  for (const button of container.querySelectorAll("button[data-move]")) {
    const id = button.closest(".cell[data-id]")?.dataset.id;
    const edge = button.dataset.move === "up" ? first : last;
    const disabled = id !== undefined && id === edge;
    if (button.disabled !== disabled) button.disabled = disabled;
  }
}

/**
 * Bounds the page's position fields (`input[data-one-based]`, counting from 1) by the list's
 * length, so that the browser says “at most 6” before a request is refused in the API's terms
 * (which count from 0).
 * @param {import("./changeset.js").ListModel} model
 * @param {ParentNode} [root]
 */
export function syncPositionFields(model, root = document) {
  const count = model.itemCount;
  for (const field of root.querySelectorAll("input[data-one-based]")) {
    const max = String(Math.max(1, count));
    if (field.max !== max) field.max = max;
  }
}
