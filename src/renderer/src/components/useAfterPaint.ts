import { useEffect, useState } from 'react';

/**
 * `value`, once the frame that shows its change has been drawn: for work that
 * must not hold up that frame, such as a summary over thousands of items.
 * (`useDeferredValue` renders in a task that usually runs before the next
 * frame, so it still delays it.) Changes in quick succession, like a held
 * key, come out as the last one.
 */
export function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A task posted from a frame callback runs after that frame is drawn.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setShown(() => value), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [value]);
  return shown;
}
