// POSTs JSON to the server. Shared by the modules that send what the user does. A failure is
// an outcome, not an exception: the caller shows it next to the control that caused it
// (failures.js), and retries what may work a moment later.

/**
 * @typedef {{ok: true, status: number, answer: object}
 *   | {ok: false, status: number, code: string, message: string, retryable: boolean}} Outcome
 * `status` 0: no answer (the network, or the server is down).
 */

/** Answers that may succeed when sent again: no answer, a server that is busy or restarting. */
const RETRYABLE = new Set([0, 429, 502, 503, 504]);

/**
 * @param {string} url
 * @param {object} body
 * @returns {Promise<Outcome>}
 */
export async function postAction(url, body) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, code: "offline", message: "The server could not be reached.", retryable: true };
  }
  const answer = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, answer: answer ?? {} };
  // The server's errors are {"error": code, "message": text}; a proxy's may be anything.
  const code = typeof answer?.error === "string" ? answer.error : `http_${response.status}`;
  const message = typeof answer?.message === "string" && answer.message
    ? answer.message
    : `The server answered ${response.status} ${response.statusText}`.trim() + ".";
  return { ok: false, status: response.status, code, message, retryable: RETRYABLE.has(response.status) };
}

/**
 * @param {string} url
 * @param {object} body
 * @returns {Promise<object | null>} the JSON answer, or null when the request failed
 */
export async function postJSON(url, body) {
  const outcome = await postAction(url, body);
  if (outcome.ok) return outcome.answer;
  console.warn(`diffable-web: POST ${url} answered ${outcome.status}: ${outcome.message}`);
  return null;
}
