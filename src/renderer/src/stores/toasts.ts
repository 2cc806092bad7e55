/** Short-lived messages ("Copied", "Export saved", errors that belong to no field). */
import { create } from 'zustand';
import type { Toast } from '../components/Toasts';

export type { Toast } from '../components/Toasts';

interface ToastState {
  toasts: Toast[];
  push(t: Omit<Toast, 'id'>, ttlMs?: number): void;
  dismiss(id: number): void;
  /** Hover or focus on the stack stops the clocks, so a toast cannot vanish while it is being read or its action reached. */
  hold(on: boolean): void;
}

/** At most this many on screen: more covered the table. */
const MAX = 2;

interface Clock {
  timer: ReturnType<typeof setTimeout> | null;
  leftMs: number;
  startedAt: number;
}
const clocks = new Map<number, Clock>();
let held = false;

function start(id: number, dismiss: (id: number) => void): void {
  const c = clocks.get(id);
  if (!c || c.timer) return;
  c.startedAt = Date.now();
  c.timer = setTimeout(() => dismiss(id), c.leftMs);
}

function stop(id: number): void {
  const c = clocks.get(id);
  if (!c?.timer) return;
  clearTimeout(c.timer);
  c.timer = null;
  c.leftMs = Math.max(1500, c.leftMs - (Date.now() - c.startedAt));
}

let next = 1;
export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  // A toast with an action (e.g. "Show in folder") gets longer: the user has to reach it.
  push(t, ttlMs = t.tone === 'error' ? 9000 : t.action ? 8000 : 5000) {
    const id = next++;
    const kept = get().toasts.slice(-(MAX - 1));
    for (const old of get().toasts) if (!kept.includes(old)) clocks.delete(old.id);
    set({ toasts: [...kept, { ...t, id }] });
    clocks.set(id, { timer: null, leftMs: ttlMs, startedAt: 0 });
    if (!held) start(id, get().dismiss);
  },
  dismiss(id) {
    stop(id);
    clocks.delete(id);
    set({ toasts: get().toasts.filter((x) => x.id !== id) });
    // The stack is gone from under the pointer: no mouseleave will come to release the hold.
    if (get().toasts.length === 0) held = false;
  },
  hold(on) {
    held = on;
    for (const t of get().toasts) {
      if (on) stop(t.id);
      else start(t.id, get().dismiss);
    }
  },
}));

export const toast = (text: string, tone: Toast['tone'] = 'info', action?: Toast['action']) => useToasts.getState().push({ text, tone, action });
