// The "Script this session" panel: Copy buttons for the session id and the commands, and the
// list's counters (`details` of the events: loads started, batches, reorders), which are for
// the people scripting the list, not for the page's status line. No network here.

/**
 * Binds the panel's Copy buttons (`button[data-copy]` names the element whose text it copies).
 * @param {ParentNode} [root]
 */
export function bindScriptPanel(root = document) {
  const status = root.querySelector(".session-panel .copy-status");
  root.addEventListener("click", async (event) => {
    const button = event.target.closest?.("button[data-copy]");
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const text = source.textContent.trim();
    const copied = await copy(text, source);
    button.textContent = copied ? "Copied" : "Select and copy";
    if (status) status.textContent = copied ? "Copied to the clipboard" : "Could not copy: the text is selected, press Ctrl+C";
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  });
}

/** The clipboard API where the page may use it (a secure context), else a selection. */
async function copy(text, source) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission): fall back to selecting the text.
  }
  const selection = window.getSelection();
  const range = document.createRange();
  range.selectNodeContents(source);
  selection?.removeAllRanges();
  selection?.addRange(range);
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

/**
 * Shows the list's counters in the panel.
 * @param {string | undefined} details the event's `details`
 */
export function showDetails(details) {
  if (typeof details !== "string") return;
  const element = document.getElementById("details");
  if (element && element.textContent !== details) element.textContent = details;
}
