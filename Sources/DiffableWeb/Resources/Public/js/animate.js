// How changes move on screen, with the Web Animations API, in three short phases so that a
// leaving cell and an arriving one never show in the same place at once: deleted cells fade
// out quickly, then moved cells slide from their old frame to the new one (FLIP), then
// inserted cells fade and scale in where the deleted ones were. The whole change takes
// 320 ms. A move whose slide would cross a visible cell (in a grid, one that goes to another
// row) fades out where it was and in where it goes instead, unless it only passes the cells
// making room for it along its own row or column: then it slides over them, raised
// (choreography.js). Knows nothing of the model or the network.

import { choreograph } from "./choreography.js";

/** When each phase starts and how long it lasts, in ms. */
export const PHASES = Object.freeze({
  leave: { delay: 0, duration: 110 },
  move: { delay: 70, duration: 190 },
  enter: { delay: 200, duration: 120 },
});
const EASING = "cubic-bezier(0.25, 0.1, 0.25, 1)";
const reducedMotionQuery = window.matchMedia("(prefers-reduced-motion: reduce)");

/** `translate(x, y)` for a frame; the one place the cell transform is spelled. */
export function translate(frame) {
  return `translate(${frame.x}px, ${frame.y}px)`;
}

/** @typedef {{x: number, y: number, w: number, h: number}} Frame */

/** Whether an element sizes itself (measure.js): its height is its content's, not the frame's. */
function fits(element) {
  return element.dataset.fit !== undefined;
}

/**
 * The width and height keyframe properties of a frame; a self-sizing cell's height is its
 * content's, never animated (it would be measured).
 */
function size(element, frame) {
  return fits(element) ? { width: `${frame.w}px` } : { width: `${frame.w}px`, height: `${frame.h}px` };
}

/** Puts an element at a frame, instantly (a self-sizing one keeps its content's height). */
export function place(element, frame) {
  element.style.transform = translate(frame);
  element.style.width = `${frame.w}px`;
  if (fits(element)) element.style.removeProperty("height");
  else element.style.height = `${frame.h}px`;
}

/**
 * Runs the animations of one change and counts them.
 * Motion is off when the user asks for reduced motion (read at every change, so an
 * emulated or changed preference applies at once) or when a changeset says `animated: false`.
 */
export class Animator {
  /** Elements fading in (`appear`), with that animation, until it ends or is cancelled. */
  #appearing = new WeakMap();

  /**
   * Each element's running move or appearance and how to build its keyframes for another end
   * frame (`retarget`).
   * @type {WeakMap<HTMLElement, {animation: Animation, keyframes: (to: Frame) => Keyframe[]}>}
   */
  #targets = new WeakMap();

  /** Cells fading out now: a move waits for them (`PHASES.move.delay`), and only for them. */
  #leaving = new Set();

  /** The start time of this task's animations (`#startTime`); undefined once it has ended. */
  #taskStart = undefined;

  /** @param {(animation: Animation) => void} onStart called for every animation started */
  constructor(onStart = () => {}) {
    this.onStart = onStart;
  }

  /** Whether a change with this `animated` flag should move. */
  allows(animated) {
    return animated && !reducedMotionQuery.matches;
  }

  /**
   * FLIP: the element is placed at `to` at once and animated from where it was.
   * When it is already moving, it starts from where it is on screen now, so a change that
   * arrives mid-animation does not make it jump.
   */
  slide(element, from, to) {
    return this.#slideFrom(element, this.#currentFrame(element) ?? from, to);
  }

  /**
   * `slide` from `start`, where the element is now (already read from its running animation).
   * It waits for the cells that leave (`PHASES.move.delay`) when some do, or when `waits` (cells
   * of the same change fade out where they were: it must not pass over them while they show).
   */
  #slideFrom(element, start, to, waits = false) {
    stop(element);
    place(element, to);
    if (start.x === to.x && start.y === to.y && start.w === to.w && (start.h === to.h || fits(element))) return null;
    const keyframes = (end) => [
      { transform: translate(start), ...size(element, start) },
      { transform: translate(end), ...size(element, end) },
    ];
    // Held at its old frame until the leaving cells are nearly gone; with none leaving (a change
    // of moves only: a sort's step, a reorder) it goes at once, or a change every 125 ms would
    // hold every cell still for 70 of them.
    const timing = waits || this.#leaving.size > 0 ? PHASES.move : { delay: 0, duration: PHASES.move.duration };
    return this.#run(element, keyframes, to, timing, "backwards");
  }

  /**
   * Gives a running move or appearance another end frame, on the same clock (measured sizes
   * moved the cell while it went there: it keeps pace with the cells around it instead of
   * jumping). The element is placed at `to`. False when nothing runs (then only place it).
   */
  retarget(element, to) {
    const target = this.#targets.get(element);
    if (!target || target.animation.playState === "finished" || target.animation.playState === "idle") return false;
    target.animation.effect.setKeyframes(target.keyframes(to));
    place(element, to);
    return true;
  }

  /**
   * Runs one change's moves together: each element goes from where it is (`from`, or where a
   * running animation has it now) to `to`; it slides there unless its path would cross a
   * visible cell that stays or slides (`stays`: the frames of the other visible cells, in the
   * same parent), in which case it fades out where it is and in at `to`; a move along its own
   * row or column slides over the cells making room for it, drawn above them (choreography.js).
   * @param {{element: HTMLElement, from: Frame, to: Frame}[]} moves
   * @param {{element: HTMLElement, frame: Frame}[]} stays
   * @returns {(Animation | null)[]} each move's animation, in order (null: it was there already)
   */
  move(moves, stays) {
    const paths = moves.map(({ element, from, to }) => ({ from: this.#currentFrame(element) ?? from, to }));
    const fading = new Set();
    const passing = new Set();
    // Frames compare only within one parent (a sideways-scrolling section has its own origin).
    for (const parent of new Set(moves.map(({ element }) => element.parentElement))) {
      const indices = moves.flatMap(({ element }, index) => (element.parentElement === parent ? [index] : []));
      const still = [], settling = [];
      for (const { element, frame } of stays) {
        if (element.parentElement !== parent) continue;
        // Still sliding to where it stays (the change before moved it): where it is now counts.
        const now = this.#currentFrame(element);
        if (now && (Math.abs(now.x - frame.x) > 0.5 || Math.abs(now.y - frame.y) > 0.5)) settling.push({ from: now, to: frame });
        else still.push(frame);
      }
      const local = choreograph(indices.map((index) => paths[index]), still, settling);
      for (const index of local.fading) fading.add(indices[index]);
      for (const index of local.passing) passing.add(indices[index]);
    }
    // A cell fading through is still visible where it was for the leave phase: the slides wait
    // for it as they wait for deleted cells (choreograph kept their paths clear of it only then).
    const waits = fading.size > 0;
    return moves.map(({ element }, index) => {
      if (fading.has(index)) return this.#fadeThrough(element, paths[index].from, paths[index].to);
      const animation = this.#slideFrom(element, paths[index].from, paths[index].to, waits);
      if (animation && passing.has(index)) raiseWhile(element, animation);
      return animation;
    });
  }

  /**
   * Fade and scale in at `frame`, once the leaving cells are gone and the moves are done; or
   * at once (`immediately`) when it takes no other cell's place (a reloaded cell replacing
   * its old self).
   */
  appear(element, frame, { immediately = false } = {}) {
    stop(element);
    place(element, frame);
    const keyframes = (end) => [
      { opacity: 0, transform: `${translate(end)} scale(0.92)` },
      { opacity: 1, transform: `${translate(end)} scale(1)` },
    ];
    // Invisible while it waits its turn.
    const animation = this.#run(element, keyframes, frame, immediately ? { ...PHASES.enter, delay: 0 } : PHASES.enter, "backwards");
    this.#appearing.set(element, animation);
    // Only this animation's end clears it (a later appear replaces it first).
    const done = () => { if (this.#appearing.get(element) === animation) this.#appearing.delete(element); };
    animation.finished.then(done, done);
    return animation;
  }

  /**
   * Whether an element is still fading in (or waiting, invisible, to): a change that moves it
   * now makes it appear at its new place rather than slide there, visible, from where it was
   * to appear (it would cover the cell that is still leaving that place).
   */
  isAppearing(element) {
    return this.#appearing.has(element);
  }

  /**
   * Fades out at `from` while the leaving cells do, and in at `to` with the inserted ones:
   * invisible while the others slide. Counts as appearing (a later move makes it appear).
   */
  #fadeThrough(element, from, to) {
    stop(element);
    place(element, to);
    const total = PHASES.enter.delay + PHASES.enter.duration;
    const keyframes = (end) => [
      { offset: 0, opacity: 1, transform: `${translate(from)} scale(1)`, ...size(element, from), easing: EASING },
      { offset: (PHASES.leave.delay + PHASES.leave.duration) / total, opacity: 0, transform: `${translate(from)} scale(0.92)`, ...size(element, from) },
      { offset: PHASES.enter.delay / total, opacity: 0, transform: `${translate(end)} scale(0.92)`, ...size(element, end), easing: EASING },
      { offset: 1, opacity: 1, transform: `${translate(end)} scale(1)`, ...size(element, end) },
    ];
    const animation = this.#run(element, keyframes, to, { delay: 0, duration: total }, "backwards", "linear");
    this.#appearing.set(element, animation);
    const done = () => { if (this.#appearing.get(element) === animation) this.#appearing.delete(element); };
    animation.finished.then(done, done);
    return animation;
  }

  /** Fade out, then remove the element. Resolves when it is gone. */
  disappear(element) {
    const from = element.style.transform;
    stop(element);
    const animation = this.#run(element, () => [
      { opacity: 1, transform: `${from} scale(1)` },
      { opacity: 0, transform: `${from} scale(0.92)` },
    ], null, PHASES.leave, "forwards");
    this.#leaving.add(element);
    const gone = () => { this.#leaving.delete(element); element.remove(); };
    return animation.finished.then(gone, gone);
  }

  /**
   * @param {(to: Frame) => Keyframe[]} keyframes the keyframes ending at a frame
   * @param {Frame | null} to where it ends (null: it goes; it cannot be retargeted)
   */
  #run(element, keyframes, to, { delay, duration }, fill, easing = EASING) {
    const animation = element.animate(keyframes(to), { delay, duration, easing, fill });
    // One clock for every animation of a change. Left pending, Chromium gives each its start
    // time when it is ready, and one run on the compositor can start a frame after one run on
    // the main thread: two cells whose paths were checked never to meet (choreography.js, "the
    // same clock") would then meet. The time is read once per task (between frames Chromium's
    // timeline reads the clock afresh each time): a change's animations are all made in one.
    // (No time yet, before the document's first frame: left pending, as it starts by itself.)
    const start = this.#startTime();
    if (start !== null) animation.startTime = start;
    if (to) this.#targets.set(element, { animation, keyframes });
    else this.#targets.delete(element);
    this.onStart(animation);
    return animation;
  }

  /** The start time of the animations made in this task: the timeline's time when the first was. */
  #startTime() {
    if (this.#taskStart === undefined) {
      this.#taskStart = document.timeline.currentTime;
      queueMicrotask(() => { this.#taskStart = undefined; });
    }
    return this.#taskStart;
  }

  /** Where a moving element is right now, from its computed (animated) style. */
  #currentFrame(element) {
    if (element.getAnimations().length === 0) return null;
    const style = getComputedStyle(element);
    const matrix = new DOMMatrixReadOnly(style.transform === "none" ? undefined : style.transform);
    return { x: matrix.m41, y: matrix.m42, w: parseFloat(style.width), h: parseFloat(style.height) };
  }
}

/** The animation that raised each element above its neighbours (only its end lowers it). */
const raisedBy = new WeakMap();

/**
 * Draws `element` above the other cells while `animation` runs: a cell passing over the cells
 * that make room for it (an insertion along a row, a reorder along a column).
 */
function raiseWhile(element, animation) {
  raisedBy.set(element, animation);
  element.style.zIndex = "1";
  const lower = () => {
    if (raisedBy.get(element) !== animation) return;
    raisedBy.delete(element);
    element.style.zIndex = "";
  };
  animation.finished.then(lower, lower);
}

/** Cancels an element's running animations (its style already holds the end state). */
export function stop(element) {
  for (const animation of element.getAnimations()) animation.cancel();
}
