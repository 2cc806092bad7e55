/** The captions header's delay figure: whole milliseconds under a second, tenths of a second above. */
export function formatDelay(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  return whole < 1000 ? `${whole} ms` : `${(whole / 1000).toFixed(1)} s`;
}
