// Reordering by hand, for lists whose page says `#list[data-reorder-action]` (Numbers): an Edit
// button shows each row's drag handle and ↑/↓ buttons; a row is dragged with a pointer (mouse,
// pen or touch) and dropped between others; Alt+↑/↓ moves the focused row one place. Each move is
// one `reorder` action ({item, to} or {item, direction}); the server runs it through the data
// source's reordering handlers and the changeset animates it. Pinned rows (`.pin`) have no
// handle, and Alt+↑/↓ on one is announced as refused without asking the server. Moves are
// announced in `#announcer` (aria-live).

import { translate } from "./animate.js";

/**
 * @param {string} demo
 * @param {import("./virtualize.js").ListView} view
 * @param {import("./changeset.js").ListModel} model
 * @param {{post: (url: string, body: object) => Promise<any>}} actions the page's action queue
 */
export function bindReordering(demo, view, model, actions) {
  const container = document.getElementById("list");
  const action = container?.dataset.reorderAction;
  if (!action) return;
  const url = `/demos/${encodeURIComponent(demo)}/actions/${encodeURIComponent(action)}`;
  const announcer = document.getElementById("announcer");
  const announce = (text) => { if (announcer) announcer.textContent = text; };
  const labelOf = (element) => element.querySelector(".label")?.textContent.trim() || element.dataset.id;

  // A selectable list's Edit button is the server's editing mode (editing.js); another
  // reorderable list's is the page's own.
  const toggle = document.getElementById("edit-toggle");
  if (toggle && !toggle.closest("form.edit-form")) {
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      const editing = !document.body.classList.contains("editing");
      document.body.classList.toggle("editing", editing);
      toggle.setAttribute("aria-pressed", String(editing));
      toggle.textContent = editing ? "Done" : "Edit";
      announce(editing ? "Editing: drag a row by its handle, or press Alt+Up or Alt+Down to move it" : "Done editing");
    });
  }

  const send = async (element, body) => {
    const answer = await actions.post(url, { item: element.dataset.id, ...body });
    if (answer && typeof answer.position === "number") {
      announce(`Moved ${labelOf(element)} to position ${answer.position + 1} of ${answer.count}`);
    }
    return answer;
  };

  // The keyboard: Alt+↑/↓ on a focused row (the list's own arrow keys ignore Alt).
  container.addEventListener("keydown", (event) => {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    const element = event.target.closest?.(".cell[data-id]");
    if (!element || element.dataset.kind !== "item") return;
    event.preventDefault();
    if (element.querySelector(".pin")) {
      announce(`${labelOf(element)} is pinned and cannot be moved`);
      return;
    }
    const id = element.dataset.id;
    send(element, { direction: event.key === "ArrowUp" ? "up" : "down" }).then(() => view.focusItem(id));
  });

  // A pointer drag from a row's handle.
  container.addEventListener("pointerdown", (event) => {
    const handle = event.target.closest?.(".drag-handle");
    const element = handle?.closest(".cell[data-id]");
    const cell = element && model.cells.get(element.dataset.id);
    if (!cell || !document.body.classList.contains("editing") || event.button !== 0) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    const startY = event.clientY;
    const origin = { ...cell.frame };
    const from = model.positionOf(element.dataset.id) - 1;
    const room = makeRoom(view, model, element.dataset.id, from);
    let dy = 0;
    element.classList.add("dragging");
    const move = (e) => {
      dy = e.clientY - startY;
      element.style.transform = translate({ x: origin.x, y: origin.y + dy });
      room.show(dropIndex(model, element.dataset.id, origin.y + dy + origin.h / 2));
    };
    const end = async (e) => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", end);
      handle.removeEventListener("pointercancel", end);
      element.classList.remove("dragging");
      const to = e.type === "pointerup" ? dropIndex(model, element.dataset.id, origin.y + dy + origin.h / 2) : null;
      if (to === null || to === from) {
        room.close();
        element.style.transform = translate(origin);
        return;
      }
      room.hold();
      // Hold the row where it was dropped until the changeset slides it home.
      const held = element.animate([{ transform: translate({ x: origin.x, y: origin.y + dy }) },
                                    { transform: translate({ x: origin.x, y: origin.y + dy }) }], { duration: 5000 });
      element.style.transform = translate(origin);
      await send(element, { to });
      setTimeout(() => held.cancel(), 1000);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", end);
    handle.addEventListener("pointercancel", end);
  });
}

/**
 * While a row is dragged, the rows between its place and the place it would drop into slide
 * one place towards its old one (the room it would land in opens up). `hold()` keeps them
 * there until the changeset slides them (it starts from where they are on screen, so nothing
 * jumps); `close()` sends them home.
 */
function makeRoom(view, model, draggedID, from) {
  const order = model.itemOrder();
  const frameOf = (index) => model.cells.get(order[index])?.frame;
  /** @type {Map<HTMLElement, object>} rows moved aside, and their own frames */
  const shifted = new Map();
  const home = (element, frame) => {
    element.style.transform = translate(frame);
    shifted.delete(element);
  };
  return {
    show(to) {
      const lo = Math.min(from, to ?? from), hi = Math.max(from, to ?? from);
      for (const [element, frame] of [...shifted]) {
        const index = order.indexOf(element.dataset.id);
        if (index < lo || index > hi || index === from) home(element, frame);
      }
      if (to === null || to === from) return;
      const step = to > from ? -1 : 1; // rows below move up when it goes down, and the reverse
      for (let index = lo; index <= hi; index++) {
        if (index === from) continue;
        const element = view.elements.get(order[index]);
        const own = frameOf(index), target = frameOf(index + step);
        if (!element || !own || !target) continue;
        element.classList.add("making-room");
        element.style.transform = translate({ x: own.x, y: target.y });
        shifted.set(element, own);
      }
    },
    hold() {
      for (const [element, frame] of shifted) {
        element.classList.remove("making-room");
        const aside = element.style.transform;
        const held = element.animate([{ transform: aside }, { transform: aside }], { duration: 5000 });
        element.style.transform = translate(frame);
        setTimeout(() => held.cancel(), 1000);
      }
      shifted.clear();
    },
    close() {
      for (const [element, frame] of [...shifted]) {
        home(element, frame);
        element.addEventListener("transitionend", () => element.classList.remove("making-room"), { once: true });
      }
    },
  };
}

/** The position (0-based) a row dropped with its centre at `y` takes: that of the row under it. */
function dropIndex(model, id, y) {
  let best = null;
  let bestDistance = Infinity;
  for (const cell of model.cells.values()) {
    if (cell.kind !== "item") continue;
    const distance = Math.abs(cell.frame.y + cell.frame.h / 2 - y);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = cell.id;
    }
  }
  return best === null ? null : model.positionOf(best) - 1;
}
