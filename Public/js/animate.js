// How changes move on screen, with the Web Animations API, in three short phases so that a
// leaving cell and an arriving one never show in the same place at once: deleted cells fade
// out quickly, then moved cells slide from their old frame to the new one (FLIP), then
// inserted cells fade and scale in where the deleted ones were. The whole change takes
// 320 ms. Knows nothing of the model or the network.

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

/** Whether an element sizes itself (measure.js): its height is its content's, not the frame's. */
function fits(element) {
  return element.dataset.fit !== undefined;
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
    const start = this.#currentFrame(element) ?? from;
    stop(element);
    place(element, to);
    if (start.x === to.x && start.y === to.y && start.w === to.w && (start.h === to.h || fits(element))) return null;
    // A self-sizing cell's height is its content's, never animated (it would be measured).
    const keyframes = fits(element)
      ? [{ transform: translate(start), width: `${start.w}px` }, { transform: translate(to), width: `${to.w}px` }]
      : [
        { transform: translate(start), width: `${start.w}px`, height: `${start.h}px` },
        { transform: translate(to), width: `${to.w}px`, height: `${to.h}px` },
      ];
    // Held at its old frame until the leaving cells are nearly gone.
    return this.#run(element, keyframes, PHASES.move, "backwards");
  }

  /**
   * Fade and scale in at `frame`, once the leaving cells are gone and the moves are done; or
   * at once (`immediately`) when it takes no other cell's place (a reloaded cell replacing
   * its old self).
   */
  appear(element, frame, { immediately = false } = {}) {
    stop(element);
    place(element, frame);
    const animation = this.#run(element, [
      { opacity: 0, transform: `${translate(frame)} scale(0.92)` },
      { opacity: 1, transform: `${translate(frame)} scale(1)` },
    ], immediately ? { ...PHASES.enter, delay: 0 } : PHASES.enter, "backwards"); // invisible while it waits its turn
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

  /** Fade out, then remove the element. Resolves when it is gone. */
  disappear(element) {
    const from = element.style.transform;
    stop(element);
    const animation = this.#run(element, [
      { opacity: 1, transform: `${from} scale(1)` },
      { opacity: 0, transform: `${from} scale(0.92)` },
    ], PHASES.leave, "forwards");
    return animation.finished.then(() => element.remove(), () => element.remove());
  }

  #run(element, keyframes, { delay, duration }, fill) {
    const animation = element.animate(keyframes, { delay, duration, easing: EASING, fill });
    this.onStart(animation);
    return animation;
  }

  /** Where a moving element is right now, from its computed (animated) style. */
  #currentFrame(element) {
    if (element.getAnimations().length === 0) return null;
    const style = getComputedStyle(element);
    const matrix = new DOMMatrixReadOnly(style.transform === "none" ? undefined : style.transform);
    return { x: matrix.m41, y: matrix.m42, w: parseFloat(style.width), h: parseFloat(style.height) };
  }
}

/** Cancels an element's running animations (its style already holds the end state). */
export function stop(element) {
  for (const animation of element.getAnimations()) animation.cancel();
}
