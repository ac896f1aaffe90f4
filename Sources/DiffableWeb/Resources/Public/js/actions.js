// What the user does besides searching: forms with `data-action` (e.g. Numbers' Append,
// Remove last, Remove center) POST their fields as JSON instead of reloading the page, and
// the viewport size is reported when the window is resized. A refused action shows the
// server's message next to its form (failures.js); what was typed stays.

import { postAction, postJSON } from "./post.js";
import { nextSeq } from "./seq.js";
import { showFailure, clearFailure, describe } from "./failures.js";

const RESIZE_DEBOUNCE_MS = 150;

/**
 * Intercepts the submit of every `form[data-action]` under `root`, those in the page and those
 * in cells the client adds later (one listener, by delegation; a submit another handler took
 * first — `preventDefault` — is left to it). Requests go out one at a time, in click order, so
 * twenty fast clicks are twenty actions applied in order. `onAnswer(action, answer, form)` sees
 * each action's JSON answer. A failure is shown next to the form (role=alert) until that form
 * succeeds.
 * @param {ParentNode} [root]
 * @param {(action: string, answer: any, form: HTMLFormElement) => void} [onAnswer]
 */
export function bindActions(root = document, onAnswer = () => {}) {
  let queue = Promise.resolve();
  root.addEventListener("submit", (event) => {
    const form = event.target.closest?.("form[data-action]");
    if (!form || event.defaultPrevented) return;
    event.preventDefault();
    const submitter = event.submitter ?? null;
    // A button's formAction is the page URL when it has no formaction attribute.
    const url = submitter?.hasAttribute("formaction") ? submitter.formAction : form.action;
    const parameters = formParameters(form, new FormData(form, submitter));
    const control = submitter ?? form.querySelector("textarea, input:not([type=hidden]), select, button") ?? form;
    const undo = markPressed(form, root);
    queue = queue
      .then(() => postAction(url, { ...parameters, seq: nextSeq() }))
      .then((outcome) => {
        if (outcome.ok) {
          clearFailure(control);
          onAnswer(form.dataset.action, outcome.answer, form);
        } else {
          undo();
          showFailure(control, describe(outcome, titleOf(form, submitter)));
        }
      }, () => {});
  });
  return {
    /**
     * Posts an action in order with the forms' (a drag's reorder); the answer, or null. A
     * refusal is shown above the list (the row it targeted may be re-rendered any time).
     */
    post: (url, body) => (queue = queue.then(() => postAction(url, { ...body, seq: nextSeq() }))
      .then((outcome) => {
        const list = document.getElementById("list");
        if (outcome.ok) {
          if (list) clearFailure(list);
          return outcome.answer;
        }
        if (list) showFailure(list, describe(outcome, "Moving the row"));
        return null;
      })),
  };
}

/** What a person calls the action: its button's text (“Publish”), or its name. */
function titleOf(form, submitter) {
  const button = submitter ?? form.querySelector("button[type=submit], button:not([type])");
  const text = (button?.getAttribute("aria-label") || button?.textContent || "").trim();
  return text || form.dataset.action || "The action";
}

/**
 * A form in a `data-pressed-group` (a segmented control, e.g. Photos' layouts) marks its button
 * pressed and the group's other buttons not, as soon as it is submitted; the next event shows
 * the list's real state (controls.js). Returns what undoes it, for a refused request.
 */
function markPressed(form, root) {
  const group = form.dataset.pressedGroup;
  if (!group) return () => {};
  const buttons = [...root.querySelectorAll(`form[data-pressed-group="${CSS.escape(group)}"] button[aria-pressed]`)];
  const before = buttons.map((button) => button.getAttribute("aria-pressed"));
  for (const other of buttons) other.setAttribute("aria-pressed", String(other.form === form));
  return () => buttons.forEach((button, index) => button.setAttribute("aria-pressed", before[index]));
}

/**
 * Form fields as JSON values: whole numbers become numbers, everything else stays text; an
 * empty field is left out, and a position (`data-one-based`: people count from 1) is sent
 * counting from 0, as the API does.
 */
function formParameters(form, formData) {
  const parameters = {};
  for (const [name, value] of formData) {
    if (typeof value !== "string") continue;
    const field = form.elements.namedItem(name);
    if (value.trim() === "" && field instanceof Element && !field.required) continue;
    if (/^-?\d{1,15}$/.test(value.trim())) {
      const oneBased = field instanceof Element && field.hasAttribute("data-one-based");
      parameters[name] = Number(value.trim()) - (oneBased ? 1 : 0);
    } else {
      parameters[name] = value;
    }
  }
  return parameters;
}

/**
 * Reports this stream's viewport to the server, so that its window (one screen plus one above
 * and one below) follows what the user sees: on resize (debounced), and while scrolling — at
 * most once per animation frame, when the visible part has moved more than half a screen from
 * the window the server last laid out — plus once more when scrolling stops. Each report is
 * answered by a `window` event on the stream. Watches the window and, when given, the list
 * element itself: its width also changes when the page's scrollbar comes or goes.
 * @param {string} demo
 * @param {() => {width: number, height: number, top: number}} measure
 * @param {import("./changeset.js").ListModel} model its `stream` names this stream
 * @param {Element} [element] the list, observed with a ResizeObserver
 */
export function reportViewport(demo, measure, model, element) {
  const url = `/demos/${encodeURIComponent(demo)}/viewport`;
  let reported = measure();
  let resizeTimer = 0;
  let settleTimer = 0;
  let frameRequested = false;
  let pending = 0;
  const send = (size) => {
    reported = size;
    const body = { width: size.width, height: size.height, top: size.top };
    if (model.stream) body.stream = model.stream;
    pending += 1;
    postJSON(url, body).finally(() => { pending -= 1; });
  };
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const size = measure();
      if (size.width === reported.width && size.height === reported.height) return;
      send(size);
    }, RESIZE_DEBOUNCE_MS);
  };
  const onScroll = () => {
    if (!frameRequested) {
      frameRequested = true;
      requestAnimationFrame(() => {
        frameRequested = false;
        const size = measure();
        if (Math.abs(size.top - reported.top) > size.height / 2) send(size);
      });
    }
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      const size = measure();
      if (size.top !== reported.top || size.width !== reported.width || size.height !== reported.height) send(size);
    }, RESIZE_DEBOUNCE_MS);
  };
  window.addEventListener("resize", onResize);
  window.addEventListener("scroll", onScroll, { passive: true });
  // The list's height follows the content on every change; only a new size from measure()
  // (its width, the window's height) is reported.
  if (element && "ResizeObserver" in window) new ResizeObserver(onResize).observe(element);
  return {
    /** The viewport the stream was opened with (a reconnect reports afresh). */
    opened(size) { reported = size; },
    /** The viewport the server's window was last asked for. */
    get reported() { return { ...reported }; },
    /** Whether the server's window follows what is on screen (no report due or on its way). */
    settled() {
      const size = measure();
      return pending === 0 && size.top === reported.top && size.width === reported.width && size.height === reported.height;
    },
  };
}
