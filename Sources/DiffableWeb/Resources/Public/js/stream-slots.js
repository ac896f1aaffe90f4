// The browser's budget of live streams for this origin, shared by its tabs.
//
// Chromium opens at most 6 HTTP/1.1 connections per host, and an event stream holds one for as
// long as it is open: seven tabs with a stream each would leave no connection for the next page,
// asset or action. So the tabs of one browser share a few stream slots (3 by default, leaving
// the rest for everything else). A slot is a Web Lock (`diffable-web:stream-slot:<n>`): the
// browser releases it when its tab closes or crashes, and `steal` takes it from another tab,
// which learns so at once (its request rejects) and closes its stream. Which tab to take it from
// is chosen from a small registry in localStorage (which slot is held by a hidden tab, and since
// when each holder was last visible), under a lock of its own so that two new tabs never pick the
// same victim. This module knows nothing of streams or the DOM.
//
// Without Web Locks (a page served over plain HTTP from another host is not a secure context),
// a slot is a lease in localStorage instead (`diffable-web:stream-lease:<n>`: the tab, until
// when): its holder renews it every 2 s, a tab that dies loses it within 6 s, and a tab learns
// that another took its slot from the `storage` event (or its next renewal).

const SLOT_LOCK = "diffable-web:stream-slot:";
const CHOOSER_LOCK = "diffable-web:stream-slot-chooser";
const REGISTRY_KEY = "diffable-web:stream-slots";
const LEASE_KEY = "diffable-web:stream-lease:";
const LEASE_MS = 6000;
const LEASE_RENEW_MS = 2000;

/** How many streams the tabs of one browser keep open at once. */
export const STREAM_BUDGET = 3;

/** This tab's name in the registry. */
const TAB_ID = Math.random().toString(36).slice(2, 10) + Date.now().toString(36);

/**
 * One tab's claim on a stream slot.
 * @param {object} options
 * @param {() => void} options.onGranted a slot this tab waited for (`wait()`) is now its own
 * @param {() => void} options.onLost another tab took this tab's slot (`steal`)
 * @param {number} [options.budget]
 * @returns {{take(options?: {steal?: boolean}): Promise<boolean>, wait(): void, release(): void,
 *            noteVisibility(visible: boolean): void, readonly held: boolean, readonly budget: number,
 *            readonly coordinated: boolean}}
 */
export function streamSlot({ onGranted, onLost, budget = STREAM_BUDGET }) {
  const locks = globalThis.navigator?.locks;
  if (locks && typeof locks.request === "function") return new LockedSlot(locks, budget, onGranted, onLost);
  if (storageWorks()) return new LeasedSlot(budget, onGranted, onLost);
  return uncoordinatedSlot(budget);
}

/** Every tab streams: without Web Locks and without storage, only hidden tabs pause. */
function uncoordinatedSlot(budget) {
  let held = false;
  return {
    async take() { held = true; return true; },
    wait() {},
    release() { held = false; },
    noteVisibility() {},
    get held() { return held; },
    budget,
    coordinated: false,
  };
}

class LockedSlot {
  /** @type {{index: number, release: () => void} | null} */
  #held = null;
  /** @type {AbortController | null} the queued requests of `wait()` */
  #waiting = null;

  constructor(locks, budget, onGranted, onLost) {
    this.locks = locks;
    this.budget = budget;
    this.onGranted = onGranted;
    this.onLost = onLost;
    this.coordinated = true;
  }

  get held() { return this.#held !== null; }

  /**
   * Takes a free slot, or with `steal` the slot of the tab that is hidden, or else was visible
   * the longest time ago. Resolves whether this tab holds a slot.
   */
  async take({ steal = false } = {}) {
    if (this.#held) return true;
    this.#stopWaiting();
    if (await this.#takeFree()) return true;
    if (!steal) return false;
    return this.locks.request(CHOOSER_LOCK, async () => {
      if (this.#held) return true;
      if (await this.#takeFree()) return true; // one came free while we waited for the chooser
      return (await this.#hold(victim(this.budget), { steal: true })) !== null;
    }).catch(() => this.held);
  }

  /** Queues for the first slot another tab gives up; `onGranted` is called when it is ours. */
  wait() {
    if (this.#held || this.#waiting) return;
    const controller = new AbortController();
    this.#waiting = controller;
    for (let index = 0; index < this.budget; index += 1) {
      this.#hold(index, { signal: controller.signal }).then((token) => {
        if (!token) return;
        if (this.#waiting !== controller) {
          // Granted as the wait was given up (release, take): not wanted any more.
          if (this.#held === token) this.release();
          return;
        }
        this.#waiting = null;
        controller.abort();
        this.onGranted();
      });
    }
  }

  /** Gives the slot back (and stops waiting for one). */
  release() {
    this.#stopWaiting();
    const token = this.#held;
    if (!token) return;
    this.#held = null;
    updateRegistry((registry) => {
      if (registry[token.index]?.tab === TAB_ID) delete registry[token.index];
    });
    token.release();
  }

  /** Records this tab's visibility, so that other tabs steal from hidden ones first. */
  noteVisibility(visible) {
    const token = this.#held;
    if (!token) return;
    updateRegistry((registry) => {
      registry[token.index] = { tab: TAB_ID, visible, at: visible ? Date.now() : registry[token.index]?.at ?? Date.now() };
    });
  }

  async #takeFree() {
    for (let index = 0; index < this.budget; index += 1) {
      if (await this.#hold(index, { ifAvailable: true })) return true;
    }
    return false;
  }

  #stopWaiting() {
    this.#waiting?.abort();
    this.#waiting = null;
  }

  /**
   * Requests slot `index`; resolves its token once granted, or null when not granted (not
   * available, aborted, or this tab already holds another slot). The lock is held until the
   * token's `release()`, or until another tab steals it (then `onLost`).
   */
  #hold(index, options) {
    return new Promise((resolve) => {
      let release = () => {};
      const holding = new Promise((done) => { release = done; });
      this.locks.request(SLOT_LOCK + index, options, (lock) => {
        if (!lock || this.#held) {
          resolve(null);
          return undefined; // not granted, or one slot is enough: give this one back at once
        }
        const token = { index, release };
        this.#held = token;
        updateRegistry((registry) => {
          registry[index] = { tab: TAB_ID, visible: document.visibilityState === "visible", at: Date.now() };
        });
        resolve(token);
        return holding;
      }).catch(() => {
        // Aborted before it was granted (resolve(null) below), or stolen while held.
        const token = this.#held;
        if (token && token.index === index && token.release === release) {
          this.#held = null;
          this.onLost();
        }
        resolve(null);
      });
    });
  }
}

/** The slot to steal: one held by a hidden tab, else the one whose tab was visible longest ago. */
function victim(budget, registry = readRegistry()) {
  let best = 0;
  let bestScore = Infinity;
  for (let index = 0; index < budget; index += 1) {
    const entry = registry[index];
    // Unknown holders (a registry lost or never written) go first; hidden ones before visible.
    const score = entry ? (entry.visible ? 2e15 : 0) + (Number(entry.at) || 0) : -1;
    if (score < bestScore) {
      best = index;
      bestScore = score;
    }
  }
  return best;
}

/**
 * A slot as a lease in localStorage, for pages that have no Web Locks. One key per slot, so
 * that renewals of different slots never overwrite each other; two tabs that claim the same
 * slot at once both write it, the later write wins, and the other learns it lost.
 */
class LeasedSlot {
  #index = -1;
  #renewTimer = 0;
  #waitTimer = 0;
  #waiting = false;

  constructor(budget, onGranted, onLost) {
    this.budget = budget;
    this.onGranted = onGranted;
    this.onLost = onLost;
    this.coordinated = true;
    window.addEventListener("storage", (event) => {
      if (event.key === null || event.key.startsWith(LEASE_KEY)) this.#check();
    });
  }

  get held() { return this.#index >= 0; }

  async take({ steal = false } = {}) {
    if (this.held) return true;
    this.#stopWaiting();
    let index = freeLease(this.budget);
    if (index < 0) {
      if (!steal) return false;
      index = victim(this.budget, readLeases(this.budget));
    }
    this.#claim(index);
    return true;
  }

  wait() {
    if (this.held || this.#waiting) return;
    this.#waiting = true;
    this.#waitTimer = setInterval(() => this.#check(), LEASE_RENEW_MS);
  }

  release() {
    this.#stopWaiting();
    if (!this.held) return;
    const index = this.#index;
    this.#drop();
    try {
      if (readLease(index)?.tab === TAB_ID) localStorage.removeItem(LEASE_KEY + index);
    } catch {
      // The lease expires by itself.
    }
  }

  noteVisibility(visible) {
    if (!this.held) return;
    const lease = readLease(this.#index);
    if (lease?.tab === TAB_ID) this.#write(this.#index, { ...lease, visible, at: visible ? Date.now() : lease.at });
  }

  #claim(index) {
    this.#index = index;
    this.#write(index, { visible: document.visibilityState === "visible", at: Date.now() });
    clearInterval(this.#renewTimer);
    this.#renewTimer = setInterval(() => this.#renew(), LEASE_RENEW_MS);
  }

  #renew() {
    if (!this.#check()) return;
    const lease = readLease(this.#index);
    this.#write(this.#index, { visible: lease?.visible ?? true, at: lease?.at ?? Date.now() });
  }

  #write(index, { visible, at }) {
    try {
      localStorage.setItem(LEASE_KEY + index, JSON.stringify({ tab: TAB_ID, visible, at, expires: Date.now() + LEASE_MS }));
    } catch {
      // Storage full: the lease is not renewed, and another tab may take the slot.
    }
  }

  /** Whether this tab still holds its slot; notices a slot another tab took, or one now free. */
  #check() {
    if (this.held) {
      const lease = readLease(this.#index);
      if (!lease || lease.tab === TAB_ID || lease.expires < Date.now()) return true; // ours, or nobody else's
      this.#drop();
      this.onLost();
      return false;
    }
    if (this.#waiting) {
      const index = freeLease(this.budget);
      if (index >= 0) {
        this.#stopWaiting();
        this.#claim(index);
        this.onGranted();
      }
    }
    return false;
  }

  #drop() {
    clearInterval(this.#renewTimer);
    this.#renewTimer = 0;
    this.#index = -1;
  }

  #stopWaiting() {
    clearInterval(this.#waitTimer);
    this.#waitTimer = 0;
    this.#waiting = false;
  }
}

/** The first slot no live tab holds, or -1. */
function freeLease(budget) {
  const now = Date.now();
  for (let index = 0; index < budget; index += 1) {
    const lease = readLease(index);
    if (!lease || lease.expires < now || lease.tab === TAB_ID) return index;
  }
  return -1;
}

function readLease(index) {
  try {
    const lease = JSON.parse(localStorage.getItem(LEASE_KEY + index) || "null");
    return lease && typeof lease === "object" ? lease : null;
  } catch {
    return null;
  }
}

function readLeases(budget) {
  const leases = {};
  for (let index = 0; index < budget; index += 1) leases[index] = readLease(index);
  return leases;
}

function storageWorks() {
  try {
    const key = `${LEASE_KEY}probe`;
    localStorage.setItem(key, "1");
    localStorage.removeItem(key);
    return true;
  } catch {
    return false;
  }
}

function readRegistry() {
  try {
    const value = JSON.parse(localStorage.getItem(REGISTRY_KEY) || "{}");
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

function updateRegistry(change) {
  try {
    const registry = readRegistry();
    change(registry);
    localStorage.setItem(REGISTRY_KEY, JSON.stringify(registry));
  } catch {
    // No storage (disabled, full): stealing then picks slot 0, which still works.
  }
}
