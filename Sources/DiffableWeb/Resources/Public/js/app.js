// Wires the client for any demo page from what the page says: `body[data-demo]` names the
// demo, `#list` holds the server-rendered cells, `#status` announces the count. No
// demo-specific code lives here.

import { openEventStream } from "./events.js";
import { ListModel } from "./changeset.js";
import { Animator } from "./animate.js";
import { ListView } from "./virtualize.js";
import { bindSearch } from "./search.js";
import { bindActions, reportViewport } from "./actions.js";
import { bindReordering } from "./reorder.js";
import { postJSON } from "./post.js";
import { nextSeq } from "./seq.js";
import { bindTree } from "./tree.js";
import { showState, syncMoveButtons, syncPositionFields } from "./controls.js";
import { bindScriptPanel, showDetails } from "./script-panel.js";
import { connectionIndicator } from "./connection.js";
import { Measurer, anchorScroll } from "./measure.js";
import { bindSelection } from "./selection.js";
import { bindDetailAccessories } from "./accessories.js";
import { bindSwipeActions } from "./swipe.js";
import { bindContextMenu } from "./context-menu.js";
import { bindEditing } from "./editing.js";
import { bindSelectionActions } from "./selection-actions.js";

/**
 * A page whose URL asked for a view of the list (`?q=` of the search form) shows it without
 * the server writing anything on a GET; the client makes it real with its own POST, before it
 * follows the stream, so the stream's first snapshot is already that view.
 */
async function applyPreview(demo, container) {
  const action = container.dataset.previewAction;
  if (!action) return;
  let parameters = {};
  try {
    parameters = JSON.parse(container.dataset.previewBody || "{}");
  } catch {
    return;
  }
  await postJSON(`/demos/${encodeURIComponent(demo)}/actions/${encodeURIComponent(action)}`, { ...parameters, seq: nextSeq() });
}

async function start() {
  const demo = document.body.dataset.demo;
  const container = document.getElementById("list");
  if (!demo || !container) return;
  const statusElement = document.getElementById("status");

  const stats = { events: 0, animations: 0, domCells: 0, reconnects: 0 };
  /** @type {Record<string, string> | null} the list's view state, as the last event stated it */
  let listState = null;
  const model = new ListModel();
  const animator = new Animator(() => { stats.animations += 1; });
  const measurer = new Measurer(demo, model, postJSON);
  /** @type {ReturnType<typeof bindSelection>} set once the view exists (a selectable list only) */
  let selection = null;
  /** @type {ReturnType<typeof bindSwipeActions>} set once the view exists (a list with swipe actions only) */
  let swipe = null;
  /** @type {ReturnType<typeof bindEditing>} set once the selection exists */
  let editing = null;
  const view = new ListView(container, model, {
    animator,
    measurer,
    onRender: (count) => {
      stats.domCells = count;
      syncMoveButtons(container, model); // ↑ off on the first row, ↓ on the last
      syncPositionFields(model); // the script panel's positions: 1 … the item count
      selection?.decorate(); // options and aria-selected on the cells just made
      swipe?.decorate(); // each row's Actions button
      editing?.decorate(); // the multiselect circles of the cells just made
    },
  });
  selection = bindSelection(container, view);
  bindSelectionActions();
  editing = bindEditing(demo, container, view, selection);
  swipe = bindSwipeActions(container, view);
  swipe?.decorate();
  bindContextMenu(container);
  bindDetailAccessories(container);

  const measure = () => ({
    width: Math.round(container.clientWidth),
    height: Math.round(window.innerHeight),
    // How far the viewport's top is below the list's top (0 while the list starts below it).
    top: Math.max(0, Math.round(-container.getBoundingClientRect().top)),
  });

  model.seed(view.adopt(), { w: container.clientWidth, h: container.offsetHeight }, Number(container.dataset.itemCount) || 0);
  stats.domCells = view.elements.size;
  syncMoveButtons(container, model);
  const tree = bindTree(container, view, model, demo); // null unless the page is an outline
  await applyPreview(demo, container);

  const reporter = reportViewport(demo, measure, model, container);
  // The indicator comes first (the stream reports "connecting" as it opens); its button is
  // pressed only once the stream exists.
  const indicator = connectionIndicator(document.getElementById("connection"), () => stream.goLive());
  const stream = openEventStream({
    demo,
    viewport() {
      const size = measure();
      reporter.opened(size); // the stream's window starts here
      return size;
    },
    onEvent(type, data) {
      stats.events += 1;
      // Cells above what the person looks at changed height: it stays where it is on screen.
      const anchored = type === "window" && data.measured ? anchorScroll(model, measure().top) : null;
      const change = model.apply(type, data);
      if (change) selection?.show(type, data);
      if (!change) return;
      view.render(change);
      anchored?.();
      if (type === "snapshot" || data.reset) measurer.flush(); // sizes measured before the stream's id was known
      if (statusElement && typeof data.status === "string" && statusElement.textContent !== data.status) {
        statusElement.textContent = data.status; // text, never HTML
      }
      if (data.state) listState = data.state;
      showState(data.state); // segmented controls, the search box: the list's real state
      showDetails(data.details);
    },
    onState(state, detail) {
      document.body.dataset.connection = state;
      indicator.show(state, detail);
      if (state === "reconnecting") stats.reconnects += 1;
    },
  });

  bindSearch(demo);
  bindScriptPanel();
  const actions = bindActions();
  bindReordering(demo, view, model, actions);

  window.diffableWeb = {
    stats, model, view, stream, measure, tree,
    reportedViewport: () => reporter.reported,
    /** The list's view state the last event stated (e.g. `{query: "ab"}`). */
    state: () => listState,
    /** The selection the last event or answer stated (a selectable list), or null. */
    selection: () => selection?.selection ?? null,
    viewportSettled: () => reporter.settled() && measurer.settled(view.elements.values()),
  };
}

start();
