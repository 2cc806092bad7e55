/**
 * Replay while the captions go on: the last 10 or 30 seconds of this
 * session's recording, or from a line the user picked, in an audio player of
 * its own; capture and captions carry on underneath.
 */
import { useEffect, useRef } from 'react';
import { Button } from '../../components/Button';
import { useCaptions } from '../../stores/captions';

export function ReplayBar() {
  const replay = useCaptions((s) => s.replay);
  const recordedS = useCaptions((s) => s.recordedS);
  const replayLast = useCaptions((s) => s.replayLast);
  const stopReplay = useCaptions((s) => s.stopReplay);
  const audio = useRef<HTMLAudioElement>(null);

  useEffect(() => {
    const el = audio.current;
    if (!el || !replay) return;
    el.src = replay.url;
    const start = () => {
      // A recording still being made has no known length: seeking to the moment is enough.
      el.currentTime = replay.fromS;
      void el.play().catch(() => undefined);
    };
    el.addEventListener('loadedmetadata', start, { once: true });
    el.load();
    return () => el.removeEventListener('loadedmetadata', start);
  }, [replay]);

  if (recordedS <= 0 && !replay) return null;
  return (
    <div className="cap-replay" role="group" aria-label="Replay">
      <Button size="sm" icon="play" onClick={() => replayLast(10)} data-testid="replay-10">
        Replay the last 10 s
      </Button>
      <Button size="sm" icon="play" onClick={() => replayLast(30)} data-testid="replay-30">
        Replay the last 30 s
      </Button>
      {replay && (
        <>
          <audio ref={audio} controls className="cap-replay__audio" aria-label="Replay of this session" data-testid="caption-replay-audio" />
          <Button size="sm" onClick={stopReplay}>
            Close replay
          </Button>
        </>
      )}
    </div>
  );
}
