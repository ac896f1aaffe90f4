// POSTs JSON to the server. Shared by the modules that send what the user does.

/**
 * @param {string} url
 * @param {object} body
 * @returns {Promise<object | null>} the JSON answer, or null when the request failed
 */
export async function postJSON(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      console.warn(`diffable-web: POST ${url} answered ${response.status}`);
      return null;
    }
    return await response.json().catch(() => ({}));
  } catch (error) {
    console.warn(`diffable-web: POST ${url} failed`, error);
    return null;
  }
}
