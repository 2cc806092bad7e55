/**
 * Runs `fn` once the next frame has been drawn: a task posted from a frame
 * callback runs after that frame is painted. For work that must not hold up
 * what was just put on screen. Where no frame comes (a hidden page, no DOM)
 * it runs in a task of its own, so it is never lost. Returns a cancel.
 */
export function afterPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function' || (typeof document !== 'undefined' && document.visibilityState === 'hidden')) {
    timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
