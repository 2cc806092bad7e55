/**
 * A dropped file's length, read by the browser from the file's header (no
 * decoding, no upload), so the queue can show it before the service has heard
 * a second of it. Null when the browser cannot tell (an exotic codec) in time.
 */
export function probeDurationMs(file: File, timeoutMs = 3000): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const el = document.createElement(file.type.startsWith('video/') ? 'video' : 'audio');
    let settled = false;
    const finish = (ms: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      el.removeAttribute('src');
      el.load();
      URL.revokeObjectURL(url);
      resolve(ms);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    el.preload = 'metadata';
    el.muted = true;
    el.onloadedmetadata = () => finish(Number.isFinite(el.duration) && el.duration > 0 ? Math.round(el.duration * 1000) : null);
    el.onerror = () => finish(null);
    el.src = url;
  });
}
