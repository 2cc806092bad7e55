/** Cue times as the editor shows and reads them: m:ss.mmm (h:mm:ss.mmm past the hour). */

export function cueTime(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor((t % 3_600_000) / 60_000);
  const s = Math.floor((t % 60_000) / 1000);
  const f = String(t % 1000).padStart(3, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${f}` : `${m}:${String(s).padStart(2, '0')}.${f}`;
}

/** Reads "1:02.5", "62.5", "0:01:02.500"; null when it is not a time. */
export function parseCueTime(text: string): number | null {
  const m = /^\s*(?:(\d+):)?(?:(\d+):)?(\d+(?:[.,]\d{1,3})?)\s*$/.exec(text);
  if (!m) return null;
  const parts = [m[1], m[2]].filter((x): x is string => x !== undefined).map(Number);
  const sec = Number(m[3]!.replace(',', '.'));
  const [h, min] = parts.length === 2 ? parts : [0, parts[0] ?? 0];
  if (sec >= 60 && parts.length) return null;
  return Math.round(((h ?? 0) * 3600 + (min ?? 0) * 60 + sec) * 1000);
}

/**
 * A shift as typed: a time with an optional sign ("+2.5", "−0:01.250", "-0.3") or milliseconds ("250 ms", "-80ms").
 * Positive moves later. Null when it is not a shift, or is no shift at all.
 */
export function parseShift(text: string): number | null {
  const m = /^\s*([+\-−]?)\s*(.*?)\s*(ms|s)?\s*$/i.exec(text);
  if (!m || !m[2]) return null;
  const sign = m[1] === '-' || m[1] === '−' ? -1 : 1;
  const unit = m[3]?.toLowerCase();
  const ms = unit === 'ms' ? (/^\d+(?:[.,]\d+)?$/.test(m[2]) ? Math.round(Number(m[2].replace(',', '.'))) : null) : parseCueTime(m[2]);
  return ms === null || ms === 0 ? null : sign * ms;
}
