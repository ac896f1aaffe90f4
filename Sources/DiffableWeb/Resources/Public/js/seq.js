// The client's request counter (`seq` in every action): the server ignores a request older
// than the newest one it applied for the session, so the last keystroke wins.
//
// It starts from the clock, not from 1: the server remembers the newest `seq` per session,
// and a reloaded page or a second tab must not start below it.

let last = 0;

/** The next `seq`: strictly increasing within this page, and above any earlier page's. */
export function nextSeq() {
  last = Math.max(last + 1, Date.now() * 1000);
  return last;
}
