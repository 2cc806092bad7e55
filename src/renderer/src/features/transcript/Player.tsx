/**
 * The player pinned above the transcript: play/pause, seek, speed, and the
 * keyboard shortcuts (space, ←/→ 5 s, J/K/L). While playing it reports the
 * time to the transcript store once per frame; the store only changes when the
 * word being spoken changes.
 */
import { useEffect, useRef, useState, type RefObject, type SyntheticEvent } from 'react';
import { mediaSrc } from '../../bridge';
import { Button } from '../../components/Button';
import { formatClock } from '../../components/format';
import { shortcutBlocked } from '../../components/shortcuts';
import { useSettings } from '../../stores/settings';
import { registerPlayer, useTranscript } from '../../stores/transcript';

const speeds = [0.75, 1, 1.25, 1.5, 2];

const VIDEO = /\.(mp4|m4v|mov|mkv|webm|avi|wmv|mpe?g|ogv)$/i;

export function Player({ durationMs, source }: { durationMs: number | null; source: string }) {
  const mediaUrl = useTranscript((s) => s.mediaUrl);
  const setTime = useTranscript((s) => s.setTime);
  const keepsAudio = useSettings((s) => s.settings.keepAudioCopy);
  const audio = useRef<HTMLMediaElement>(null);
  const video = VIDEO.test(source);
  const [playing, setPlaying] = useState(false);
  const [now, setNow] = useState(0);
  const [duration, setDuration] = useState((durationMs ?? 0) / 1000);
  const [rate, setRate] = useState(1);
  const [failed, setFailed] = useState(false);
  // Where a played range ends (review's window around a word); null: play on.
  const stopAt = useRef<number | null>(null);
  const src = mediaSrc(mediaUrl);

  useEffect(() => {
    registerPlayer({
      seek(ms) {
        const a = audio.current;
        if (!a || !src) return;
        a.currentTime = ms / 1000;
        setNow(ms / 1000);
      },
      play() {
        if (audio.current && src) void audio.current.play().catch(() => undefined);
      },
      playRange(fromMs, toMs) {
        const a = audio.current;
        if (!a || !src) return;
        a.currentTime = fromMs / 1000;
        setNow(fromMs / 1000);
        stopAt.current = toMs;
        void a.play().catch(() => undefined);
      },
    });
    return () => registerPlayer(null);
  }, [src]);

  // Follow the audio once per frame while playing.
  useEffect(() => {
    if (!playing) return;
    let raf = 0;
    let lastSec = -1;
    const tick = () => {
      const a = audio.current;
      if (a) {
        if (stopAt.current !== null && a.currentTime * 1000 >= stopAt.current) {
          // A frame late on a busy machine would leave the playhead past the window: it rests at the window's end.
          const end = stopAt.current / 1000;
          stopAt.current = null;
          a.pause();
          a.currentTime = end;
        }
        setTime(a.currentTime * 1000);
        const sec = Math.floor(a.currentTime * 4);
        if (sec !== lastSec) {
          lastSec = sec;
          setNow(a.currentTime);
        }
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing, setTime]);

  // A search hit asked to start somewhere: go there once the media knows its length.
  useEffect(() => {
    const a = audio.current;
    if (!a || !src) return;
    const apply = () => {
      const at = useTranscript.getState().pendingSeekMs;
      if (at !== null) {
        a.currentTime = at / 1000;
        setNow(at / 1000);
        const play = useTranscript.getState().pendingPlay;
        useTranscript.setState({ pendingSeekMs: null, pendingPlay: false });
        // A citation was followed: the user asked to hear that moment (the click is the gesture autoplay needs).
        if (play) void a.play().catch(() => undefined);
      }
    };
    if (a.readyState >= 1) apply();
    a.addEventListener('loadedmetadata', apply);
    const unsub = useTranscript.subscribe((s, prev) => {
      if (s.pendingSeekMs !== null && s.pendingSeekMs !== prev.pendingSeekMs && a.readyState >= 1) apply();
    });
    return () => {
      a.removeEventListener('loadedmetadata', apply);
      unsub();
    };
  }, [src]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (shortcutBlocked(e)) return;
      const a = audio.current;
      if (!a || !src) return;
      const jump = (s: number) => {
        a.currentTime = Math.max(0, Math.min(a.duration || Infinity, a.currentTime + s));
        setNow(a.currentTime);
        setTime(a.currentTime * 1000);
      };
      const k = e.key.toLowerCase();
      const onButton = (e.target as HTMLElement | null)?.tagName === 'BUTTON';
      if ((e.key === ' ' && !onButton) || k === 'k') {
        e.preventDefault();
        if (a.paused) void a.play();
        else a.pause();
      } else if (e.key === 'ArrowLeft') {
        e.preventDefault();
        jump(-5);
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        jump(5);
      } else if (k === 'j') jump(-10);
      else if (k === 'l') jump(10);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [src, setTime]);

  if (!src || failed) {
    return (
      <div className="player player--none" role="region" aria-label="Player">
        <p className="muted">
          {failed
            ? 'The audio could not be played: the copy in the library is missing or in a format this browser cannot play. The transcript still shows every word’s time.'
            : keepsAudio
              ? 'There is no copy of the audio for this recording in the library, so it cannot be played here. The transcript still shows every word’s time.'
              : 'No audio copy was kept for this recording, so it cannot be played here. Turn on “Keep a copy of the audio” in Settings for new recordings.'}
        </p>
      </div>
    );
  }

  const mediaProps = {
    src,
    preload: 'metadata' as const,
    'data-testid': 'audio',
    onPlay: () => setPlaying(true),
    onPause: () => {
      stopAt.current = null;
      setPlaying(false);
    },
    onEnded: () => setPlaying(false),
    onLoadedMetadata: (e: SyntheticEvent<HTMLMediaElement>) => Number.isFinite(e.currentTarget.duration) && setDuration(e.currentTarget.duration),
    onSeeked: (e: SyntheticEvent<HTMLMediaElement>) => {
      setNow(e.currentTarget.currentTime);
      setTime(e.currentTarget.currentTime * 1000);
    },
    onError: () => setFailed(true),
  };

  return (
    <div className="player" role="region" aria-label="Player">
      {video ? (
        <video ref={audio as RefObject<HTMLVideoElement | null>} className="player__video" {...mediaProps} />
      ) : (
        <audio ref={audio as RefObject<HTMLAudioElement | null>} {...mediaProps} />
      )}
      <Button
        variant="primary"
        icon={playing ? 'pause' : 'play'}
        aria-label={playing ? 'Pause (space)' : 'Play (space)'}
        className="player__play"
        onClick={() => {
          const a = audio.current;
          if (!a) return;
          if (a.paused) void a.play();
          else a.pause();
        }}
      />
      <span className="player__time" aria-live="off">
        {formatClock(now * 1000)}
      </span>
      <input
        type="range"
        className="player__seek"
        aria-label="Position"
        min={0}
        max={Math.max(duration, 0.001)}
        step={0.1}
        value={Math.min(now, duration)}
        aria-valuetext={`${formatClock(now * 1000)} of ${formatClock(duration * 1000)}`}
        onChange={(e) => {
          const a = audio.current;
          if (!a) return;
          a.currentTime = Number(e.target.value);
          setNow(a.currentTime);
        }}
      />
      {/* The library's length, like the list and details: the media's own duration can round a second lower. */}
      <span className="player__time player__time--total">{formatClock(durationMs ?? duration * 1000)}</span>
      <select
        aria-label="Playback speed"
        className="player__speed"
        value={rate}
        onChange={(e) => {
          const r = Number(e.target.value);
          setRate(r);
          if (audio.current) audio.current.playbackRate = r;
        }}
      >
        {speeds.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </select>
    </div>
  );
}
