import { useEffect, useState } from 'react';
import { afterPaint } from '../lib/afterPaint';

/**
 * `value`, once the frame that shows its change has been drawn: for work that
 * must not hold up that frame, such as a summary over thousands of items.
 * (`useDeferredValue` renders in a task that usually runs before the next
 * frame, so it still delays it.) Changes in quick succession, like a held
 * key, come out as the last one.
 */
export function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => afterPaint(() => setShown(() => value)), [value]);
  return shown;
}
