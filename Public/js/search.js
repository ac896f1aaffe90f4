// The search box: every keystroke is a POST of the whole query with an increasing `seq`
// (the server applies the newest only), so typing never reloads the page. Without
// JavaScript the same form filters by GET `?q=`.

import { postJSON } from "./post.js";
import { nextSeq } from "./seq.js";

/**
 * Binds the `[data-action="search"]` inputs of `form[data-demo-form]`.
 * @param {string} demo the demo name
 * @param {ParentNode} [root]
 */
export function bindSearch(demo, root = document) {
  const url = `/demos/${encodeURIComponent(demo)}/actions/search`;
  for (const form of root.querySelectorAll("form[data-demo-form]")) {
    const input = form.querySelector('input[data-action="search"]');
    if (!input) continue;
    const send = () => postJSON(url, { query: input.value, seq: nextSeq() });
    input.addEventListener("input", send);
    form.addEventListener("submit", (event) => {
      event.preventDefault(); // the list already follows the input; no GET reload
      send();
    });
  }
}
