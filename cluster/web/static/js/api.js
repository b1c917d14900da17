// Talking to the server: every call answers {ok, status, data, error, field}.
export async function call(method, url, body, raw = false) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    if (raw) { init.body = body; } else { init.body = JSON.stringify(body); init.headers["content-type"] = "application/json"; }
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    return { ok: false, status: 0, error: "The server does not answer (is genethello serve still running?)" };
  }
  let data = null;
  const type = response.headers.get("content-type") || "";
  if (type.includes("json")) data = await response.json();
  else data = { error: (await response.text()).trim() };
  if (!response.ok) {
    return { ok: false, status: response.status, error: (data && data.error) || `HTTP ${response.status}`, field: data && data.field };
  }
  return { ok: true, status: response.status, data };
}
export const get = (url) => call("GET", url);
export const post = (url, body) => call("POST", url, body);
