// How changes move on screen, with the Web Animations API: moved cells slide from their old
// frame to the new one (FLIP), inserted cells fade and scale in, deleted cells fade out and
// are then removed. Knows nothing of the model or the network.

const DURATION_MS = 300;
const EASING = "cubic-bezier(0.25, 0.1, 0.25, 1)";
const reducedMotionQuery = window.matchMedia("(prefers-reduced-motion: reduce)");

/** `translate(x, y)` for a frame; the one place the cell transform is spelled. */
export function translate(frame) {
  return `translate(${frame.x}px, ${frame.y}px)`;
}

/** Puts an element at a frame, instantly. */
export function place(element, frame) {
  element.style.transform = translate(frame);
  element.style.width = `${frame.w}px`;
  element.style.height = `${frame.h}px`;
}

/**
 * Runs the animations of one change and counts them.
 * Motion is off when the user asks for reduced motion (read at every change, so an
 * emulated or changed preference applies at once) or when a changeset says `animated: false`.
 */
export class Animator {
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
    if (start.x === to.x && start.y === to.y && start.w === to.w && start.h === to.h) return null;
    const keyframes = [
      { transform: translate(start), width: `${start.w}px`, height: `${start.h}px` },
      { transform: translate(to), width: `${to.w}px`, height: `${to.h}px` },
    ];
    return this.#run(element, keyframes);
  }

  /** Fade and scale in at `frame`. */
  appear(element, frame) {
    stop(element);
    place(element, frame);
    return this.#run(element, [
      { opacity: 0, transform: `${translate(frame)} scale(0.8)` },
      { opacity: 1, transform: `${translate(frame)} scale(1)` },
    ]);
  }

  /** Fade out, then remove the element. Resolves when it is gone. */
  disappear(element) {
    const from = element.style.transform;
    stop(element);
    const animation = this.#run(element, [
      { opacity: 1, transform: `${from} scale(1)` },
      { opacity: 0, transform: `${from} scale(0.8)` },
    ], "forwards");
    return animation.finished.then(() => element.remove(), () => element.remove());
  }

  #run(element, keyframes, fill = "none") {
    const animation = element.animate(keyframes, { duration: DURATION_MS, easing: EASING, fill });
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
