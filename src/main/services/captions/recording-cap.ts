/** How many bytes a live session's recording may have grown to by a point in time: the format's highest bit rate, so a renderer cannot fill the disk with chunks no real recorder makes. */

/** Bytes per second at the format's ceiling: Opus (WebM/Ogg) 510 kbit/s, AAC (MP4) 1 Mbit/s, WAV 48 kHz stereo 32-bit; with container overhead. */
export function recordingBytesPerSecond(mime: string): number {
  const m = mime.toLowerCase();
  if (m.startsWith('audio/wav') || m.startsWith('audio/wave') || m.startsWith('audio/x-wav')) return 48_000 * 2 * 4;
  if (m.startsWith('audio/mp4') || m.includes('aac')) return 128_000;
  return 64_000;
}

/** Seconds of slack (chunks come every second or so, and the clock starts before the recorder) and the largest header a container writes first. */
const SLACK_SECONDS = 5;
const HEADER_BYTES = 64 * 1024;

/** The most the recording may hold `elapsedMs` after the run started. */
export function recordingBudget(mime: string, elapsedMs: number): number {
  return recordingBytesPerSecond(mime) * (Math.max(0, elapsedMs) / 1000 + SLACK_SECONDS) + HEADER_BYTES;
}
