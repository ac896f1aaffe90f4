// The page header's connection state (templates/partials/connection.mustache): live,
// connecting, reconnecting with its attempt, paused and why (with a button to go live), or
// offline. It only shows what events.js reports; it opens nothing itself.

/**
 * @param {HTMLElement | null} element `#connection`; without it every call does nothing
 * @param {() => void} goLive what the "Go live" button does
 * @returns {{show(state: string, detail?: object): void}}
 */
export function connectionIndicator(element, goLive) {
  if (!element) return { show() {} };
  const text = element.querySelector("[data-connection-text]");
  const button = element.querySelector("button[data-connection-go-live]");
  button?.addEventListener("click", () => goLive());
  element.hidden = false; // without JavaScript there is no stream to describe
  return {
    show(state, detail = {}) {
      element.dataset.state = state;
      if (text) {
        const message = describe(state, detail);
        if (text.textContent !== message) text.textContent = message;
      }
      if (button) {
        const canGoLive = state === "paused" && detail.reason === "busy";
        const hadFocus = document.activeElement === button;
        button.hidden = !canGoLive;
        // Keep keyboard focus in the header when the button it was on goes away.
        if (hadFocus && !canGoLive) text?.focus();
      }
    },
  };
}

/** The words for a state. */
export function describe(state, detail = {}) {
  switch (state) {
    case "open": return "Live";
    case "connecting": return "Connecting…";
    case "reconnecting": return `Reconnecting (attempt ${Number(detail.attempt) || 1})…`;
    case "offline": return "Offline: changes show when you are back online";
    case "paused":
      if (detail.reason === "busy") {
        const others = Number(detail.others) || 0;
        return `Paused: ${others} other ${others === 1 ? "tab is" : "tabs are"} live`;
      }
      return "Paused while the tab is hidden";
    default: return "";
  }
}
