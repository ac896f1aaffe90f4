// The event stream: one EventSource on /demos/<name>/events, re-opened with backoff when it
// fails, resuming from the last event id. It parses each event and hands it to a handler;
// it knows nothing of cells or the DOM.
//
// A stream holds one of the browser's few connections to the server for as long as it is open
// (docs/protocol.md, "Streams, tabs and the back/forward cache"), so it is open only while the
// page can use it:
// - it closes on `pagehide` (a page in the back/forward cache keeps nothing open) and re-opens
//   on `pageshow` from that cache, resuming from its last event id: the page catches up;
// - the tabs of one browser share a budget of stream slots (stream-slots.js); a visible tab
//   takes a free slot or another tab's, and a tab whose slot was taken pauses until one is
//   free again, it is shown again, or the user asks to go live;
// - a hidden tab pauses after a short grace, and resumes when it is shown;
// - offline, it waits for the `online` event instead of retrying.

import { streamSlot } from "./stream-slots.js";

const EVENT_TYPES = ["snapshot", "changeset", "window"];
const MIN_DELAY_MS = 250;
const MAX_DELAY_MS = 10000;
/** How long a hidden tab keeps streaming (a quick look at another tab costs no reconnect). */
export const HIDDEN_GRACE_MS = 5000;

/**
 * Opens the stream and keeps it open while the page can use it.
 *
 * States given to `onState`, with their detail:
 * - `"connecting"` (first connection), `"open"` (live);
 * - `"reconnecting"` `{attempt}`: the connection failed, attempt `n` is scheduled;
 * - `"paused"` `{reason: "hidden"}` or `{reason: "busy", others}`: `others` tabs hold every slot;
 * - `"offline"`: the browser is offline.
 *
 * @param {object} options
 * @param {string} options.demo the demo name (`/demos/<demo>/events`)
 * @param {() => {width: number, height: number, top: number}} options.viewport the viewport to lay out for, asked on every (re)connect
 * @param {(type: string, data: object, id: string) => void} options.onEvent one parsed event
 * @param {(state: string, detail: object) => void} [options.onState] connection state changes
 * @param {number} [options.hiddenGraceMs]
 * @returns {{close(): void, reconnect(): void, goLive(): Promise<void>, readonly state: string,
 *            readonly lastEventId: string, readonly reconnects: number, readonly restores: number}}
 */
export function openEventStream({ demo, viewport, onEvent, onState = () => {}, hiddenGraceMs = HIDDEN_GRACE_MS }) {
  let source = null;
  let lastEventId = "";
  let attempt = 0;
  let reconnects = 0;
  let restores = 0;
  let timer = 0;
  let hiddenTimer = 0;
  let closed = false;
  let shown = true; // false between pagehide and pageshow
  let state = "";

  const setState = (next, detail = {}) => {
    state = next;
    onState(next, detail);
  };

  const slot = streamSlot({
    onGranted() {
      if (wanted()) connect();
      else slot.release();
    },
    onLost() {
      disconnect();
      if (closed || !shown) return;
      if (document.visibilityState === "hidden") {
        setState("paused", { reason: "hidden" });
      } else {
        setState("paused", { reason: "busy", others: slot.budget });
        slot.wait();
      }
    },
  });

  function wanted() {
    return !closed && shown && document.visibilityState !== "hidden";
  }

  function url() {
    const { width, height, top } = viewport();
    const params = new URLSearchParams({
      width: String(clamp(width)), height: String(clamp(height)), top: String(Math.max(0, Math.round(top) || 0)),
    });
    // A new EventSource does not send Last-Event-ID by itself; the server also reads it here.
    if (lastEventId) params.set("lastEventId", lastEventId);
    return `/demos/${encodeURIComponent(demo)}/events?${params}`;
  }

  /** Opens the EventSource now (the caller holds a slot). */
  function connect() {
    clearTimeout(timer);
    timer = 0;
    if (closed || !shown) return;
    source?.close();
    if (globalThis.navigator?.onLine === false) {
      source = null;
      setState("offline");
      return;
    }
    if (state !== "reconnecting" && state !== "open") setState("connecting");
    const current = new EventSource(url());
    source = current;
    current.addEventListener("open", () => {
      if (source === current) setState("open");
    });
    for (const type of EVENT_TYPES) {
      current.addEventListener(type, (event) => {
        if (source !== current) return; // a late event of a stream already closed
        attempt = 0; // a delivered event proves the connection works
        if (event.lastEventId) lastEventId = event.lastEventId;
        let data;
        try {
          data = JSON.parse(event.data);
        } catch (error) {
          console.warn(`diffable-web: ignored a malformed ${type} event`, error);
          return;
        }
        onEvent(type, data, event.lastEventId);
      });
    }
    // EventSource retries some failures itself and gives up on others (a non-200 answer);
    // re-opening ourselves handles both the same way, with backoff.
    current.addEventListener("error", () => {
      if (source === current) scheduleReconnect();
    });
  }

  function disconnect() {
    clearTimeout(timer);
    timer = 0;
    source?.close();
    source = null;
  }

  function scheduleReconnect() {
    if (closed || timer) return;
    source?.close();
    source = null;
    if (globalThis.navigator?.onLine === false) {
      setState("offline");
      return;
    }
    const delay = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** attempt) * (0.75 + Math.random() * 0.5);
    attempt += 1;
    reconnects += 1;
    setState("reconnecting", { attempt });
    timer = setTimeout(connect, delay);
  }

  let going = null;
  /** Takes a slot (another tab's if need be) and streams; one attempt at a time. */
  function goLive() {
    going ??= (async () => {
      if (!wanted()) return;
      if (slot.held && (source || timer)) return;
      if (await slot.take({ steal: true })) {
        if (wanted()) connect();
        else slot.release();
      }
    })().finally(() => { going = null; });
    return going;
  }

  /** Closes the stream and gives its slot back. */
  function pause(reason) {
    disconnect();
    slot.release();
    if (!closed && shown) setState("paused", { reason });
  }

  function onVisibilityChange() {
    if (closed || !shown) return;
    const visible = document.visibilityState !== "hidden";
    slot.noteVisibility(visible);
    clearTimeout(hiddenTimer);
    hiddenTimer = 0;
    if (visible) {
      goLive();
    } else if (slot.held) {
      hiddenTimer = setTimeout(() => {
        hiddenTimer = 0;
        if (document.visibilityState === "hidden") pause("hidden");
      }, hiddenGraceMs);
    } else {
      pause("hidden"); // waiting for a slot: stop waiting
    }
  }

  function onPageHide() {
    // Into the back/forward cache, or gone: hold no connection and no lock (a page holding a
    // Web Lock is not cached).
    shown = false;
    clearTimeout(hiddenTimer);
    hiddenTimer = 0;
    disconnect();
    slot.release();
  }

  function onPageShow(event) {
    if (!event.persisted || closed) return;
    shown = true;
    restores += 1;
    attempt = 0;
    start();
  }

  function onOnline() {
    if (!wanted()) return;
    attempt = 0;
    if (slot.held) connect();
    else goLive();
  }

  function onOffline() {
    if (closed || !shown) return;
    disconnect();
    setState("offline");
  }

  function start() {
    if (document.visibilityState === "hidden") {
      setState("paused", { reason: "hidden" }); // a tab opened in the background
      return;
    }
    setState("connecting");
    goLive();
  }

  document.addEventListener("visibilitychange", onVisibilityChange);
  window.addEventListener("pagehide", onPageHide);
  window.addEventListener("pageshow", onPageShow);
  window.addEventListener("online", onOnline);
  window.addEventListener("offline", onOffline);
  start();

  return {
    close() {
      closed = true;
      clearTimeout(hiddenTimer);
      disconnect();
      slot.release();
      document.removeEventListener("visibilitychange", onVisibilityChange);
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("pageshow", onPageShow);
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
    },
    /** Re-opens now (e.g. when the page comes back online). */
    reconnect() {
      if (!wanted()) return;
      attempt = 0;
      reconnects += 1;
      if (slot.held) connect();
      else goLive();
    },
    /** Streams now, taking another tab's slot if every one is taken (the "Go live" button). */
    goLive,
    get state() { return state; },
    get lastEventId() { return lastEventId; },
    get reconnects() { return reconnects; },
    /** How many times the page came back from the back/forward cache. */
    get restores() { return restores; },
  };
}

function clamp(value) {
  return Math.max(1, Math.min(10000, Math.round(value) || 1));
}
