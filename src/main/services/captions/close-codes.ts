/** Streaming close codes and connection errors (API.md §8.2) as sentences a user understands. */

export function reconnectNotice(reason: string, attempt: number): string {
  const code = Number(/^\d+/.exec(reason)?.[0] ?? NaN);
  const why =
    code === 3005
      ? 'The transcription service had an internal error'
      : code === 3008
        ? 'The live session reached its time limit'
        : code === 1001
          ? 'The transcription service is restarting'
          : 'The connection to the transcription service dropped';
  return `${why}. Reconnecting${attempt > 1 ? ` (attempt ${attempt})` : ''}… The recording continues and keeps everything.`;
}

export function reconnectedNotice(gapMs: number): string {
  const s = Math.max(1, Math.round(gapMs / 1000));
  return `Reconnected: captions resumed after ${s} s without them. The recording has no gap; use Improve accuracy later to transcribe it all.`;
}

/** A failure's sentence: what happened and what the user can do. */
export function failureSentence(code: string, message: string): string {
  switch (code) {
    case 'invalid_key':
      return 'The transcription service refused the API key, so captions stopped. Check the key in Settings; the recording continues.';
    case 'rate_limited':
      return 'Too many live sessions are open with this key, so captions could not start. Close another session and start again; the recording continues.';
    case 'bad_request':
      return `The transcription service refused the audio (${message}). Captions stopped; the recording continues.`;
    case 'engine_unavailable':
      return `The local engine could not start: ${message} The recording continues; transcribe it later with Improve accuracy.`;
    default:
      return `Captions stopped: ${message} The recording continues; transcribe it later with Improve accuracy.`;
  }
}
