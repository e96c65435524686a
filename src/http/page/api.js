// The API, as a browser calls it: same-origin fetch, JSON in and out. Every failure becomes
// an ApiError whose `detail` is the server's own words (the `detail` of its
// application/problem+json body, RFC 9457) or, when no answer came, ours. Nothing is
// swallowed: callers show `detail` to the person.
//
// Copy this file to call the service from another page; it depends on nothing.

/** How long one call may take before the page gives up on it. */
const TIMEOUT_MS = 20_000;

/** A failed call: `status` 0 when the server was not reached. */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status, or 0 without an answer
   * @param {string} code the problem's stable `code` (`network`, `timeout` without one)
   * @param {string} detail what went wrong, in words
   * @param {object | null} problem the whole problem body, when there was one
   */
  constructor(status, code, detail, problem = null) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.problem = problem;
  }

  /** True when the route is not on this server (yet): 404 `not_found`. */
  get isMissingRoute() {
    return this.status === 404 && this.code === 'not_found';
  }
}

async function call(method, path, body, headers = {}) {
  const init = { method, headers: { Accept: 'application/json', ...headers } };
  if (body instanceof Blob) {
    // A photo goes as itself: its own type tells the server how to decode it.
    init.headers['Content-Type'] = body.type || 'application/octet-stream';
    init.body = body;
  } else if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  init.signal = AbortSignal.timeout(TIMEOUT_MS);

  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === 'TimeoutError') {
      throw new ApiError(0, 'timeout', `no answer within ${TIMEOUT_MS / 1000} s`);
    }
    throw new ApiError(0, 'network', 'could not reach the server (offline?)');
  }

  const type = response.headers.get('Content-Type') ?? '';
  let payload = null;
  if (type.includes('json')) {
    try {
      payload = await response.json();
    } catch {
      payload = null;
    }
  }
  if (response.ok) {
    if (payload === null || typeof payload !== 'object') {
      throw new ApiError(response.status, 'bad_answer', 'the server answered, but not in JSON');
    }
    // The language the words came in, so that a page can mark them up (`lang`) for readers.
    Object.defineProperty(payload, 'language', {
      value: response.headers.get('Content-Language') ?? '',
      enumerable: false,
    });
    return payload;
  }
  // A problem body says what went wrong; a bare error (from a proxy, say) gets its status.
  const detail =
    typeof payload?.detail === 'string' && payload.detail !== ''
      ? payload.detail
      : `HTTP ${response.status} ${response.statusText}`.trim();
  throw new ApiError(response.status, payload?.code ?? 'http_error', detail, payload);
}

/** A board, with the puzzle's `rules` beside it when it has any (null or undefined: none). */
function boardBody(board, rules) {
  return rules ? { board, rules } : { board };
}

/**
 * POST /solve: `{solution, unique}`, the solution in the form the board was sent in.
 * 422 `no_solution` carries `conflicts`; 400 `invalid_rules` says what does not fit.
 */
export function solve(board, rules) {
  return call('POST', '/solve', boardBody(board, rules));
}

/**
 * POST /validate: `{valid, complete, solved, solvable, unique, conflicts}`; under rules a
 * conflict may also be a cage, a knight's move, a thermometer..., with a `message`.
 */
export function validate(board, rules) {
  return call('POST', '/validate', boardBody(board, rules));
}

/**
 * POST /hint: the next thing to know, `{kind, technique, technique_name, rating, placements,
 * eliminations, highlights: {cells, units}, explanation}` (rows, columns and indexes 0-based;
 * `kind` is step, mistake, pencil_marks, solved or stuck). `givens` (the puzzle as loaded)
 * lets the server tell a wrong digit of the player's; `candidates` (81 lists of pencilled
 * digits, `null` for a cell not pencilled) lets it start from the player's marks. Both are
 * left out when not given. The words come in the first of the browser's languages the
 * server has, else in English; the answer's non-enumerable `language` says which.
 */
export function hint(board, { givens, candidates } = {}) {
  const body = { board };
  if (givens !== undefined) body.givens = givens;
  if (candidates !== undefined) body.candidates = candidates;
  return call('POST', '/hint', body, { 'Accept-Language': acceptLanguage() });
}

/** POST /explain: `{rating, difficulty, solved, steps}`, each step shaped as a hint. */
export function explain(board, maxSteps) {
  const body = { board };
  if (maxSteps !== undefined) body.max_steps = maxSteps;
  return call('POST', '/explain', body, { 'Accept-Language': acceptLanguage() });
}

/**
 * The browser's languages, most preferred first, as an Accept-Language header (RFC 9110):
 * "de-DE, de;q=0.9, en;q=0.8". English comes last so that the server never has to guess.
 */
export function acceptLanguage(languages = globalThis.navigator?.languages ?? []) {
  const tags = [...new Set([...languages.filter((tag) => /^[A-Za-z0-9-]{1,35}$/.test(tag)), 'en'])];
  return tags
    .slice(0, 9)
    .map((tag, rank) => (rank === 0 ? tag : `${tag};q=${(1 - rank / 10).toFixed(1)}`))
    .join(', ');
}

/**
 * GET /daily: the puzzle of a day (today, UTC, unless `date` is given as YYYY-MM-DD) at a
 * `difficulty`, the same for everyone: `{date, puzzle, solution, difficulty, rating, ...}`.
 * A day after today is 404 `date_in_future`.
 */
export function daily({ difficulty, date } = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ difficulty, date })) {
    if (value !== undefined) query.set(name, String(value));
  }
  return call('GET', `/daily?${query}`);
}

/**
 * GET /generate: a new puzzle, `{puzzle, solution, size, rules?, difficulty?, rating?}`:
 * classic of a `difficulty`, of another `size`, or a 9x9 `variant` (jigsaw, killer, diagonal,
 * windoku). A server that makes no such puzzles answers 400 `invalid_parameter`.
 */
export function generate({ difficulty, size, variant } = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ difficulty, size, variant })) {
    if (value !== undefined) query.set(name, String(value));
  }
  return call('GET', `/generate?${query}`);
}

/**
 * POST /scan: a photo (a File or Blob: JPEG, PNG or WebP) read into `{board, entries, cells,
 * corners, solution?}`: the printed givens and the handwritten entries as 81-character
 * lines, each cell's `kind`, `digit` and `confidence`, the grid's corners in the photo's
 * pixels, and with `solve` the givens' solution when it is unique. Another image type is
 * 415; a photo without a grid 422 `no_grid_found`; an unreadable one 400 `invalid_image`.
 */
export function scan(photo, { solve = false } = {}) {
  return call('POST', `/scan?solve=${solve}`, photo);
}
