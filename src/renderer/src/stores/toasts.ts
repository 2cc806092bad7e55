/** Short-lived messages ("Copied", "Export saved", errors that belong to no field). */
import { create } from 'zustand';

export interface Toast {
  id: number;
  tone: 'info' | 'ok' | 'error';
  text: string;
  action?: { label: string; run(): void };
}

interface ToastState {
  toasts: Toast[];
  push(t: Omit<Toast, 'id'>, ttlMs?: number): void;
  dismiss(id: number): void;
}

let next = 1;
export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  push(t, ttlMs = t.tone === 'error' ? 9000 : 4000) {
    const id = next++;
    set({ toasts: [...get().toasts.slice(-3), { ...t, id }] });
    setTimeout(() => get().dismiss(id), ttlMs);
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((x) => x.id !== id) });
  },
}));

export const toast = (text: string, tone: Toast['tone'] = 'info', action?: Toast['action']) => useToasts.getState().push({ text, tone, action });
