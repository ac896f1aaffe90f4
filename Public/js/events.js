// The event stream: one EventSource on /demos/<name>/events, re-opened with backoff when it
// fails, resuming from the last event id. It parses each event and hands it to a handler;
// it knows nothing of cells or the DOM.

const EVENT_TYPES = ["snapshot", "changeset", "window"];
const MIN_DELAY_MS = 250;
const MAX_DELAY_MS = 10000;

/**
 * Opens the stream and keeps it open.
 *
 * @param {object} options
 * @param {string} options.demo the demo name (`/demos/<demo>/events`)
 * @param {() => {width: number, height: number, top: number}} options.viewport the viewport to lay out for, asked on every (re)connect
 * @param {(type: string, data: object, id: string) => void} options.onEvent one parsed event
 * @param {(state: "open" | "reconnecting") => void} [options.onState] connection state changes
 * @returns {{close(): void, reconnect(): void, readonly lastEventId: string, readonly reconnects: number}}
 */
export function openEventStream({ demo, viewport, onEvent, onState = () => {} }) {
  let source = null;
  let lastEventId = "";
  let attempt = 0;
  let reconnects = 0;
  let timer = 0;
  let closed = false;

  function url() {
    const { width, height, top } = viewport();
    const params = new URLSearchParams({
      width: String(clamp(width)), height: String(clamp(height)), top: String(Math.max(0, Math.round(top) || 0)),
    });
    // A new EventSource does not send Last-Event-ID by itself; the server also reads it here.
    if (lastEventId) params.set("lastEventId", lastEventId);
    return `/demos/${encodeURIComponent(demo)}/events?${params}`;
  }

  function connect() {
    timer = 0;
    if (closed) return;
    source = new EventSource(url());
    source.addEventListener("open", () => onState("open"));
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (event) => {
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
    source.addEventListener("error", () => scheduleReconnect());
  }

  function scheduleReconnect() {
    if (closed || timer) return;
    source?.close();
    source = null;
    const delay = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** attempt) * (0.75 + Math.random() * 0.5);
    attempt += 1;
    reconnects += 1;
    onState("reconnecting");
    timer = setTimeout(connect, delay);
  }

  connect();

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      source?.close();
    },
    /** Re-opens now (e.g. when the page comes back online). */
    reconnect() {
      if (closed) return;
      clearTimeout(timer);
      timer = 0;
      source?.close();
      attempt = 0;
      reconnects += 1;
      connect();
    },
    get lastEventId() { return lastEventId; },
    get reconnects() { return reconnects; },
  };
}

function clamp(value) {
  return Math.max(1, Math.min(10000, Math.round(value) || 1));
}
