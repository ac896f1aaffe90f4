// The search box: every keystroke is a POST of the whole query with an increasing `seq`
// (the server applies the newest only), so typing never reloads the page. Without
// JavaScript the same form filters by GET `?q=`.
//
// A keystroke that fails is shown next to the box (role=alert) and the box keeps what was
// typed; one that may work a moment later (no answer, 503) is sent again with backoff, until
// a newer keystroke replaces it. The box also shows the list's query when a script searched
// (`showQuery`), but never while the person is typing in it.

import { postAction } from "./post.js";
import { nextSeq } from "./seq.js";
import { showFailure, clearFailure, describe } from "./failures.js";

const RETRY_DELAYS_MS = [300, 800, 2000, 5000];
/** How long after a keystroke the box counts as being typed in. */
const TYPING_MS = 1500;

/** Per box: the newest keystroke, requests in flight, when the person last typed. */
const boxes = new WeakMap();

/**
 * Binds the live inputs of `form[data-demo-form]`: an input whose `data-action` and
 * `data-parameter` name the list's action and its parameter (Mountains: `search`, `query`) runs
 * that action with its value on every keystroke. The page's template names them; this file
 * names no action.
 * @param {string} demo the demo name
 * @param {ParentNode} [root]
 */
export function bindSearch(demo, root = document) {
  for (const form of root.querySelectorAll("form[data-demo-form]")) {
    const input = form.querySelector("input[data-action][data-parameter]");
    if (!input) continue;
    const url = `/demos/${encodeURIComponent(demo)}/actions/${encodeURIComponent(input.dataset.action)}`;
    const parameter = input.dataset.parameter;
    const box = { keystroke: 0, inFlight: 0, typedAt: -Infinity, retries: 0, listQuery: input.value };
    boxes.set(input, box);
    const send = async (keystroke, query, attempt = 0) => {
      box.inFlight += 1;
      const outcome = await postAction(url, { [parameter]: query, seq: nextSeq() }).finally(() => { box.inFlight -= 1; });
      if (keystroke !== box.keystroke) return; // a newer keystroke decides what shows
      if (outcome.ok) {
        clearFailure(input);
        return;
      }
      if (outcome.retryable && attempt < RETRY_DELAYS_MS.length) {
        box.retries += 1;
        showFailure(input, `${describe(outcome, "Searching")} Trying again…`);
        setTimeout(() => { if (keystroke === box.keystroke) send(keystroke, query, attempt + 1); }, RETRY_DELAYS_MS[attempt]);
        return;
      }
      showFailure(input, `${describe(outcome, "Searching")} The list does not show “${query}”.`);
    };
    const keystroke = () => {
      box.keystroke += 1;
      box.typedAt = performance.now();
      send(box.keystroke, input.value);
    };
    input.addEventListener("input", keystroke);
    form.addEventListener("submit", (event) => {
      event.preventDefault(); // the list already follows the input; no GET reload
      keystroke();
    });
  }
}

/**
 * Shows the list's query in its box (a script searched, or the page loaded), unless the person
 * is typing there: the box has focus and a keystroke is in flight or just made (then the query
 * is an echo of an earlier keystroke, and the newest one decides). Only a change of the list's
 * query is shown.
 * @param {HTMLInputElement} input
 * @param {string} query
 */
export function showQuery(input, query) {
  const box = boxes.get(input);
  // Only a new query of the list is news: other events repeat it, and must not undo what the
  // person typed in a keystroke the server refused.
  if (box) {
    if (box.listQuery === query) return;
    box.listQuery = query;
  }
  if (input.value === query) return;
  const focused = document.activeElement === input;
  if (focused && box && (box.inFlight > 0 || performance.now() - box.typedAt < TYPING_MS)) return;
  input.value = query;
  clearFailure(input);
}

/** Searches retried after a failure (for tests and the script panel). */
export function searchRetries(input) {
  return boxes.get(input)?.retries ?? 0;
}
