// What the user does besides searching: forms with `data-action` (e.g. Numbers' Append,
// Remove last, Remove center) POST their fields as JSON instead of reloading the page, and
// the viewport size is reported when the window is resized.

import { postJSON } from "./post.js";
import { nextSeq } from "./seq.js";

const RESIZE_DEBOUNCE_MS = 150;

/**
 * Intercepts the submit of every `form[data-action]` under `root`. Requests go out one at a
 * time, in click order, so twenty fast clicks are twenty actions applied in order.
 * @param {ParentNode} [root]
 */
export function bindActions(root = document) {
  let queue = Promise.resolve();
  for (const form of root.querySelectorAll("form[data-action]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const submitter = event.submitter ?? null;
      // A button's formAction is the page URL when it has no formaction attribute.
      const url = submitter?.hasAttribute("formaction") ? submitter.formAction : form.action;
      const parameters = formParameters(new FormData(form, submitter));
      queue = queue.then(() => postJSON(url, { ...parameters, seq: nextSeq() }));
    });
  }
}

/** Form fields as JSON values: whole numbers become numbers, everything else stays text. */
function formParameters(formData) {
  const parameters = {};
  for (const [name, value] of formData) {
    if (typeof value !== "string") continue;
    parameters[name] = /^-?\d{1,15}$/.test(value) ? Number(value) : value;
  }
  return parameters;
}

/**
 * Reports the list's viewport to the server after resizes (debounced), so it lays out
 * again and streams a `layout` event. Watches the window and, when given, the list element
 * itself: its width also changes when the page's scrollbar comes or goes (a search that
 * shrinks the list), which no window resize announces.
 * @param {string} demo
 * @param {() => {width: number, height: number}} measure
 * @param {Element} [element] the list, observed with a ResizeObserver
 */
export function reportViewportOnResize(demo, measure, element) {
  const url = `/demos/${encodeURIComponent(demo)}/viewport`;
  let timer = 0;
  let reported = measure();
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const size = measure();
      if (size.width === reported.width && size.height === reported.height) return;
      reported = size;
      postJSON(url, size);
    }, RESIZE_DEBOUNCE_MS);
  };
  window.addEventListener("resize", schedule);
  // The list's height follows the content on every change; only a new size from measure()
  // (its width, the window's height) is reported.
  if (element && "ResizeObserver" in window) new ResizeObserver(schedule).observe(element);
}
