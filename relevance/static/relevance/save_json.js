// Saving an assessor's work to the server, as the assignment and ranking pages do: one
// POST of JSON with the page's CSRF token, and what came of it —
//   { saved: true, data }        the server has it (data: its JSON reply);
//   { refused: "message" }       the server said no (sending it again will not help);
//   { retry: true }              no answer, or a server error: send it again later,
//                                after retryDelay(attempt).

export async function postJson(url, body, csrfToken) {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    const data = await response.json().catch(() => ({}));
    if (response.ok) return { saved: true, data };
    if (response.status >= 500) return { retry: true };
    return { refused: data.detail || response.statusText };
  } catch {
    return { retry: true };
  }
}

// How long to wait before the next try: 0.5 s, doubling, at most 10 s.
export function retryDelay(attempt) {
  return Math.min(10_000, 500 * 2 ** attempt);
}
