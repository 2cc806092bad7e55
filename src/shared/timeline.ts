/** Binary searches over items in time order (words, cues): the lookups the player, the editor and snapping share. */

/** Index of the last item that starts at or before `ms`, or -1 when every item starts later. */
export function lastStartingBy(items: readonly { start: number }[], ms: number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((items[mid] as { start: number }).start <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Index of the first item that ends at or after `ms` (items.length when none does). */
export function firstEndingFrom(items: readonly { end: number }[], ms: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((items[mid] as { end: number }).end < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
