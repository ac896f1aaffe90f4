// A cell's detail (info) accessory, for lists whose page says `#list[data-detail-url]`: a click
// on a row's `button[data-accessory="detail"]` (or Return or Space on it: it is a button) asks
// the server (`POST /demos/<name>/detail-accessory`), which runs the list's
// `accessoryButtonTapped(for:)` (UITableView's `accessoryButtonTappedForRowWith`); what that
// changes comes back as an event, like any change. The page also hears of the tap
// (`diffable-web:accessory` on the row), before the request goes.

import { postAction } from "./post.js";
import { nextSeq } from "./seq.js";
import { showFailure, clearFailure, describe } from "./failures.js";

/**
 * @param {HTMLElement} container `#list`
 * @returns {boolean} whether the list has detail accessories
 */
export function bindDetailAccessories(container) {
  const url = container.dataset.detailUrl;
  if (!url) return false;
  let queue = Promise.resolve();
  container.addEventListener("click", (event) => {
    const button = event.target.closest?.('button[data-accessory="detail"]');
    const row = button?.closest(".cell[data-id]");
    if (!button || !row || !container.contains(row)) return;
    event.preventDefault();
    const item = row.dataset.id;
    row.dispatchEvent(new CustomEvent("diffable-web:accessory", { bubbles: true, detail: { item, accessory: "detail" } }));
    queue = queue.then(() => postAction(url, { item, seq: nextSeq() })).then((outcome) => {
      if (outcome.ok) clearFailure(container);
      else showFailure(container, describe(outcome, "Showing the details"));
    }, () => {});
  });
  return true;
}
