// A popup menu (the WAI-ARIA menu pattern) for a row's swipe actions and for context menus:
// `role="menu"` with `role="menuitem"` buttons, the first focused when it opens; ↑/↓, Home and
// End move, Enter or Space chooses, Escape or Tab closes, and the focus goes back to where it
// was. One is open at a time. Its contents are what the server sent: text only, never HTML.

/** SF Symbols names the server's actions use, drawn as text. */
const SYMBOLS = {
  "star": "☆", "star.fill": "★", "star.slash": "✩", "eye": "◉", "eye.slash": "⊘", "doc.on.doc": "⧉", "trash": "🗑",
};

/** The glyph for a symbol name, or "" for none we know. */
export function symbol(name) {
  return (name && SYMBOLS[name]) || "";
}

/** An action's symbol and title, as two spans (the symbol hidden from screen readers). */
export function symbolAndTitle(image, title, className) {
  const glyph = document.createElement("span");
  glyph.className = className;
  glyph.setAttribute("aria-hidden", "true");
  glyph.textContent = symbol(image);
  const text = document.createElement("span");
  text.textContent = title;
  return [glyph, text];
}

let open = null;

/** Closes the open menu, if any (the focus goes back to where it was, unless `restoreFocus` is false). */
export function closeMenu(restoreFocus = true) {
  if (!open) return;
  const { element, returnFocus, onClose } = open;
  open = null;
  element.remove();
  document.removeEventListener("pointerdown", outside, true);
  if (restoreFocus && returnFocus?.isConnected) returnFocus.focus({ preventScroll: true });
  onClose?.();
}

function outside(event) {
  if (open && !open.element.contains(event.target)) closeMenu(false);
}

/** Whether a menu is open. */
export function menuIsOpen() {
  return open !== null;
}

/**
 * Opens a menu at `point` (page coordinates of the viewport: clientX/clientY).
 * @param {{x: number, y: number}} point
 * @param {{title?: string, label: string, kind: string,
 *   items: {id: string, title: string, image?: string, destructive?: boolean, disabled?: boolean}[],
 *   returnFocus?: HTMLElement | null, onChoose(item: object): void, onClose?(): void}} options
 */
export function openMenu(point, options) {
  closeMenu(false);
  const element = document.createElement("div");
  element.className = "popup-menu";
  element.setAttribute("role", "menu");
  element.setAttribute("aria-label", options.label);
  element.dataset.menu = options.kind;
  if (options.title) {
    const title = document.createElement("div");
    title.className = "popup-menu-title";
    title.setAttribute("role", "presentation");
    title.textContent = options.title;
    element.append(title);
  }
  const buttons = [];
  for (const item of options.items) {
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("role", "menuitem");
    button.tabIndex = -1;
    button.dataset.action = item.id;
    if (item.destructive) button.classList.add("destructive");
    if (item.disabled) button.setAttribute("aria-disabled", "true");
    const [glyph, text] = symbolAndTitle(item.image, item.title, "popup-menu-symbol");
    button.append(text, glyph);
    button.addEventListener("click", () => {
      if (item.disabled) return;
      closeMenu();
      options.onChoose(item);
    });
    buttons.push(button);
    element.append(button);
  }
  element.addEventListener("keydown", (event) => {
    const index = buttons.indexOf(document.activeElement);
    const move = (to) => { event.preventDefault(); buttons[(to + buttons.length) % buttons.length]?.focus(); };
    switch (event.key) {
      case "ArrowDown": move(index + 1); break;
      case "ArrowUp": move(index - 1); break;
      case "Home": move(0); break;
      case "End": move(buttons.length - 1); break;
      case "Escape": event.preventDefault(); event.stopPropagation(); closeMenu(); break;
      case "Tab": event.preventDefault(); closeMenu(); break;
      default: break;
    }
  });
  document.body.append(element);
  // Inside the viewport, below and right of the point where it fits.
  const { width, height } = element.getBoundingClientRect();
  const x = Math.max(8, Math.min(point.x, window.innerWidth - width - 8));
  const y = point.y + height + 8 > window.innerHeight ? Math.max(8, point.y - height) : point.y;
  element.style.left = `${Math.round(x)}px`;
  element.style.top = `${Math.round(y)}px`;
  open = { element, returnFocus: options.returnFocus ?? null, onClose: options.onClose };
  document.addEventListener("pointerdown", outside, true);
  (buttons.find((b) => !b.hasAttribute("aria-disabled")) ?? buttons[0])?.focus({ preventScroll: true });
  return element;
}
