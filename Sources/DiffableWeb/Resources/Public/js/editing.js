// Editing mode, for selectable lists (docs/protocol.md, "Editing"): the Edit/Done button asks the
// server (`POST /demos/<name>/editing`), and the page shows the editing state the events and
// answers state, in version order, so every tab of the session edits together. The state is
// `data-editing` on `#list` (the CSS shows and hides the cells' accessories by it, so no cell is
// rendered again) and the `editing` class on the body (reorder.js's handles, selection.js's
// roles). While editing, the multiselect circles (checkboxes) show the selection and a click on a
// row toggles it; a delete circle reveals its row's Delete button (Escape, or a click elsewhere,
// hides it), which deletes the row through `POST /demos/<name>/delete-item`.

import { postAction } from "./post.js";
import { nextSeq } from "./seq.js";
import { showFailure, clearFailure, describe } from "./failures.js";

/**
 * @param {string} demo
 * @param {HTMLElement} container `#list`
 * @param {import("./virtualize.js").ListView} view
 * @param {ReturnType<typeof import("./selection.js").bindSelection>} selection
 * @returns {{decorate(): void} | null}
 */
export function bindEditing(demo, container, view, selection) {
  if (!selection) return null;
  const form = document.querySelector("form.edit-form");
  const toggle = form?.querySelector("#edit-toggle");
  const announcer = document.getElementById("announcer");
  const announce = (text) => { if (announcer) announcer.textContent = text; };
  const deleteURL = `/demos/${encodeURIComponent(demo)}/delete-item`;
  let editing = container.hasAttribute("data-editing");
  let items = new Set();

  /** The state an event or an answer stated. */
  function showEditing(next) {
    const changed = next !== editing;
    editing = next;
    container.toggleAttribute("data-editing", editing);
    document.body.classList.toggle("editing", editing);
    if (toggle) {
      toggle.textContent = editing ? "Done" : "Edit";
      toggle.setAttribute("aria-pressed", String(editing));
      toggle.value = String(!editing); // what a press asks for (the form without JavaScript)
    }
    if (!editing) hideConfirmation();
    if (changed) announce(editing ? "Editing" : "Done editing");
  }

  /** The multiselect circles of the cells in the DOM (after every render and selection). */
  function decorate() {
    for (const [id, element] of view.elements) {
      const checked = items.has(id);
      element.classList.toggle("edit-selected", editing && checked);
      for (const circle of element.querySelectorAll('[data-accessory="multiselect"]')) {
        circle.setAttribute("aria-checked", String(checked));
      }
    }
  }

  // Edit and Done show at once, as UIKit's do; until the server answers, the editing state
  // events state is older than the person's press, so it is not shown.
  let pending = 0;
  /** The editing state the server stated last. */
  let confirmed = editing;

  document.addEventListener("diffable-web:selection", (event) => {
    items = new Set(event.detail.items);
    if (typeof event.detail.editing === "boolean") {
      confirmed = event.detail.editing;
      if (pending === 0) showEditing(confirmed);
    }
    decorate();
  });

  form?.addEventListener("submit", async (event) => {
    event.preventDefault();
    const wanted = !editing;
    pending += 1;
    showEditing(wanted);
    const outcome = await postAction(form.dataset.editingUrl, { editing: wanted, seq: nextSeq() });
    pending -= 1;
    if (outcome.ok) {
      clearFailure(toggle);
      selection.show("changeset", { version: outcome.answer.version, selection: outcome.answer.selection });
    } else {
      showFailure(toggle, describe(outcome, wanted ? "Edit" : "Done"));
    }
    if (pending === 0) showEditing(confirmed);
  });

  // The delete confirmation: one row at a time, as UIKit reveals one red Delete button.
  /** @type {HTMLElement | null} */
  let confirming = null;
  function hideConfirmation(focusCircle = false) {
    if (!confirming) return;
    const row = confirming;
    confirming = null;
    row.classList.remove("confirming-delete");
    row.querySelector(".delete-confirm")?.setAttribute("hidden", "");
    const circle = row.querySelector('[data-accessory="delete"]');
    circle?.setAttribute("aria-expanded", "false");
    if (focusCircle) circle?.focus();
  }
  function reveal(row) {
    hideConfirmation();
    confirming = row;
    row.classList.add("confirming-delete");
    row.querySelector('[data-accessory="delete"]')?.setAttribute("aria-expanded", "true");
    const confirm = row.querySelector(".delete-confirm");
    confirm?.removeAttribute("hidden");
    confirm?.focus();
  }

  /** Focuses the delete circle of the row after `item` (before it, for the last), or Done. */
  function focusAfter(item) {
    const order = view.model.itemOrder();
    const index = order.indexOf(item);
    const candidates = [...order.slice(index + 1), ...order.slice(0, Math.max(0, index)).reverse()];
    for (const id of candidates) {
      const circle = view.elements.get(id)?.querySelector('[data-accessory="delete"]');
      if (circle) return circle.focus();
    }
    toggle?.focus();
  }

  const rowOf = (target) => {
    const row = target.closest?.(".cell[data-id]");
    return row && container.contains(row) && row.dataset.kind === "item" ? row : null;
  };

  container.addEventListener("click", (event) => {
    const row = rowOf(event.target);
    const control = event.target.closest?.("button");
    if (control?.dataset.accessory === "delete" && row) {
      if (confirming === row) hideConfirmation(true);
      else reveal(row);
      return;
    }
    if (control?.classList.contains("delete-confirm") && row) {
      const item = row.dataset.id;
      postAction(deleteURL, { item, seq: nextSeq() }).then((outcome) => {
        if (outcome.ok) {
          clearFailure(container);
          // The focus goes on to the next row's delete circle (or Done), not with the row.
          if (row.contains(document.activeElement)) focusAfter(item);
          announce(`Deleted ${control.getAttribute("aria-label")?.replace(/^Delete /, "") ?? item}`);
        } else {
          hideConfirmation(true);
          showFailure(container, describe(outcome, "Deleting"));
        }
      });
      return;
    }
    if (control?.dataset.accessory === "detail") return; // accessories.js's
    if (confirming && confirming !== row) hideConfirmation();
    if (!editing || !row || event.button !== 0) return;
    // A tap on a row (or its circle) toggles it, when the list selects while editing.
    const current = selection.selection;
    if (!current || current.allowed === false) return;
    if (control && control.dataset.accessory !== "multiselect") return;
    if (!control && event.target.closest?.("a, input, select, textarea, label, form, .drag-handle")) return;
    selection.tap(row.dataset.id);
  });

  // A click outside the list hides a revealed Delete, as a tap elsewhere does in UIKit.
  document.addEventListener("click", (event) => {
    if (confirming && !container.contains(event.target)) hideConfirmation();
  });

  container.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && confirming) {
      event.preventDefault();
      hideConfirmation(true);
    }
  });

  showEditing(editing);
  return { decorate };
}
