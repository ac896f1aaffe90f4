// Context menus, for lists whose page says `#list[data-menu-url]` (UIKit's
// `contextMenuConfigurationForItemsAt`): right-click, a long press on touch, or the ContextMenu
// key / Shift+F10 on a focused row opens the row's menu; on empty space, the list's. The server
// decides what the menu is for (on a row of a multiple selection: every selected item; on
// another row: that row; on empty space: none) and what it holds: `GET …/menu?item=` answers
// `{items, menu}` as the menu opens, so it is never stale. Choosing an action is a `POST` of the
// same items; one with `pasteboardText` also copies it.

import { postAction } from "./post.js";
import { nextSeq } from "./seq.js";
import { showFailure, clearFailure, describe } from "./failures.js";
import { openMenu, menuIsOpen } from "./popup-menu.js";

/** A touch held this long without moving is a long press (ms). */
const LONG_PRESS_MS = 550;
const SLOP = 8;

/**
 * @param {HTMLElement} container `#list`
 */
export function bindContextMenu(container) {
  const url = container.dataset.menuUrl;
  if (!url) return null;

  const itemOf = (target) => {
    const element = target?.closest?.(".cell[data-id]");
    return element && container.contains(element) && element.dataset.kind === "item" ? element : null;
  };

  /** A menu being asked for (a long press may also bring the browser's contextmenu event). */
  let opening = false;

  async function show(cell, point, returnFocus) {
    if (opening) return;
    opening = true;
    try {
      await fetchAndOpen(cell, point, returnFocus);
    } finally {
      opening = false;
    }
  }

  async function fetchAndOpen(cell, point, returnFocus) {
    const query = cell ? `?item=${encodeURIComponent(cell.dataset.id)}` : "";
    let answer = null;
    try {
      const response = await fetch(url + query, { credentials: "same-origin", headers: { Accept: "application/json" } });
      answer = response.ok ? await response.json() : null;
    } catch {
      answer = null;
    }
    const menu = answer?.menu;
    if (!menu || !menu.children.length) return;
    const element = openMenu(point, {
      kind: "context",
      title: menu.title,
      label: menu.title || "Menu",
      items: menu.children.map((child) => ({ ...child, id: child.identifier })),
      returnFocus,
      onChoose: async (item) => {
        if (item.pasteboardText) navigator.clipboard?.writeText(item.pasteboardText).catch(() => {});
        const outcome = await postAction(url, { items: answer.items, action: item.identifier, seq: nextSeq() });
        if (outcome.ok) clearFailure(container);
        else showFailure(container, describe(outcome, item.title));
        container.dispatchEvent(new CustomEvent("diffable-web:menu-action", { detail: { items: answer.items, action: item.identifier, ok: outcome.ok } }));
      },
    });
    element.dataset.items = answer.items.join(" ");
  }

  const editing = () => document.body.classList.contains("editing");

  container.addEventListener("contextmenu", (event) => {
    if (editing() || event.target.closest?.("input, textarea")) return;
    event.preventDefault();
    if (menuIsOpen()) return;
    const cell = itemOf(event.target);
    // A keyboard's contextmenu event has no pointer position: the menu goes under the row.
    const rect = cell?.getBoundingClientRect();
    const point = event.clientX || event.clientY ? { x: event.clientX, y: event.clientY } : { x: (rect?.left ?? 0) + 24, y: rect?.bottom ?? 0 };
    show(cell, point, cell ?? container);
  });

  container.addEventListener("keydown", (event) => {
    if (editing() || !(event.key === "ContextMenu" || (event.shiftKey && event.key === "F10"))) return;
    const cell = itemOf(event.target);
    if (!cell) return;
    event.preventDefault();
    const rect = cell.getBoundingClientRect();
    show(cell, { x: rect.left + 24, y: rect.bottom }, cell);
  });

  // A long press on touch (browsers that send no contextmenu for one).
  let press = null;
  container.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch" || editing()) return;
    const cell = itemOf(event.target);
    if (!cell) return;
    const start = { x: event.clientX, y: event.clientY };
    press = { id: event.pointerId, start, timer: setTimeout(() => {
      press = null;
      if (!menuIsOpen()) show(cell, start, cell);
    }, LONG_PRESS_MS) };
  });
  const cancel = (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (event.type === "pointermove" && Math.hypot(event.clientX - press.start.x, event.clientY - press.start.y) <= SLOP) return;
    clearTimeout(press.timer);
    press = null;
  };
  for (const type of ["pointermove", "pointerup", "pointercancel"]) container.addEventListener(type, cancel);

  return {};
}
