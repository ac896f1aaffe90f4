// Failures people can see: the server's message next to the control that caused it, in an
// element with role=alert (read out at once), linked to the control by aria-describedby.
// What the person typed is never touched. No network here.

let counter = 0;

/**
 * Where a control's message goes: after its form (after a segmented control's group; before
 * the list for a form inside a cell, which the list may re-render at any time).
 * @param {Element} control
 * @returns {{anchor: Element, key: string}}
 */
function placeOf(control) {
  const list = control.closest("#list");
  if (list) return { anchor: list, key: "list", before: true };
  const group = control.closest(".segmented");
  if (group) return { anchor: group, key: group.id || group.getAttribute("aria-label") || "group" };
  const form = control.closest("form") ?? control;
  return { anchor: form, key: form.dataset.action || form.id || control.id || "form" };
}

/**
 * The alert element for a control, made on first use.
 * @param {Element} control
 */
function alertFor(control) {
  const { anchor, key, before } = placeOf(control);
  const selector = `.control-error[data-error-for="${CSS.escape(key)}"]`;
  let alert = document.querySelector(selector);
  if (!alert) {
    alert = document.createElement("p");
    alert.className = "control-error";
    alert.setAttribute("role", "alert");
    alert.dataset.errorFor = key;
    alert.id = `control-error-${++counter}`;
    alert.hidden = true;
    if (before) anchor.before(alert);
    else anchor.after(alert);
  }
  return alert;
}

/**
 * Shows `message` next to `control` and marks the control (`aria-invalid` on a field).
 * @param {Element} control the field or button that sent the request
 * @param {string} message the server's message (text, never HTML)
 */
export function showFailure(control, message) {
  const alert = alertFor(control);
  alert.textContent = message;
  alert.hidden = false;
  const described = new Set((control.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean));
  described.add(alert.id);
  control.setAttribute("aria-describedby", [...described].join(" "));
  if (control.matches("input, textarea, select")) control.setAttribute("aria-invalid", "true");
  document.body.dataset.failures = String(document.querySelectorAll(".control-error:not([hidden])").length);
}

/**
 * Clears what ``showFailure`` showed for `control` (its request, or a later one, succeeded).
 * @param {Element} control
 */
export function clearFailure(control) {
  const { anchor, key, before } = placeOf(control);
  const alert = before
    ? anchor.previousElementSibling
    : document.querySelector(`.control-error[data-error-for="${CSS.escape(key)}"]`);
  if (alert?.classList.contains("control-error") && !alert.hidden) {
    alert.hidden = true;
    alert.textContent = "";
  }
  control.removeAttribute("aria-invalid");
  document.body.dataset.failures = String(document.querySelectorAll(".control-error:not([hidden])").length);
}

/** A person's words for a failed request: the server's message, and what becomes of it. */
export function describe(outcome, what) {
  if (outcome.status === 0) return `${what} failed: the server could not be reached.`;
  return `${what} failed: ${outcome.message}`;
}
