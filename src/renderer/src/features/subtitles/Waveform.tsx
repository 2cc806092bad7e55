/**
 * The waveform timeline (wavesurfer.js 8) drawn from the peaks stored with
 * the recording, with the cues over it (cueLayer.ts): drag a cue's edges to
 * retime it or its body to move it. Times snap to word boundaries and to the
 * playhead. Only the cues near the view have boxes, so a 5,000-cue file costs
 * what a screenful does.
 */
import { firstEndingFrom } from '../../../../shared/timeline';
import { useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { approximateTimes } from '../../lib/wordTimes';
import { snapTime } from '../../../../shared/subtitles/index';
import { errorMessage } from '../../bridge';
import { peaksOf } from '../../stores/subtitleFiles';
import { playhead, useSubtitles } from '../../stores/subtitles';
import { useTranscript } from '../../stores/transcript';
import { CueLayer } from './cueLayer';

const PX_PER_SEC = 100;
/** Snap when a dragged edge is this close to a word boundary or the playhead (in pixels, so it feels the same at any zoom). */
const SNAP_PX = 8;

/** The wave's colours in the page's theme (wavesurfer draws on a canvas, so it is given colours, not custom properties). */
function waveColours(): { waveColor: string; progressColor: string; cursorColor: string } {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string) => style.getPropertyValue(name).trim() || '#888';
  return { waveColor: v('--wave'), progressColor: v('--wave-played'), cursorColor: v('--accent') };
}

export function Waveform({ media, id, onReady }: { media: HTMLMediaElement | null; id: string; onReady?: (ms: number) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const ws = useRef<WaveSurfer | null>(null);
  const layer = useRef<CueLayer | null>(null);
  const view = useRef<[number, number]>([0, 30]);
  /** Where the selection last asked the view to scroll; NaN once the view moved. */
  const asked = useRef(NaN);
  const [state, setState] = useState<{ kind: 'loading' } | { kind: 'ready' } | { kind: 'none'; message: string }>({ kind: 'loading' });
  const cues = useSubtitles((s) => s.cues);
  const selection = useSubtitles((s) => s.selection);

  // Draw from stored peaks (computed once by main with ffmpeg).
  useEffect(() => {
    if (!media || !box.current) return;
    let gone = false;
    let themeWatch: MutationObserver | undefined;
    const t0 = performance.now();
    setState({ kind: 'loading' });
    peaksOf(id).then(
      (p) => {
        if (gone || !box.current) return;
        const bin = atob(p.data);
        const peaks = new Float32Array(bin.length);
        for (let i = 0; i < bin.length; i++) peaks[i] = ((bin.charCodeAt(i) << 24) >> 24) / 127;
        const w = WaveSurfer.create({
          container: box.current,
          height: 112,
          ...waveColours(),
          cursorWidth: 2,
          minPxPerSec: PX_PER_SEC,
          peaks: [peaks],
          duration: p.durationMs / 1000,
          media,
          autoScroll: true,
          autoCenter: false,
          normalize: true,
          barWidth: 0,
        });
        ws.current = w;
        // A theme switch recolours the wave (the cue boxes follow by themselves: they use the page's custom properties).
        themeWatch = new MutationObserver(() => w.setOptions(waveColours()));
        themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
        w.on('scroll', (a, b) => {
          view.current = [a, b];
          asked.current = NaN;
          sync();
        });
        layer.current = new CueLayer(w.getWrapper(), p.durationMs, {
          select(cue) {
            const index = useSubtitles.getState().cues.indexOf(cue);
            if (index >= 0) useSubtitles.getState().select(index);
          },
          retime(cue, start, end) {
            const index = useSubtitles.getState().cues.indexOf(cue);
            if (index < 0) return false;
            const t = useTranscript.getState().transcript;
            // Words of a model that gives no times (Moonshine, stock Whisper) were spread by length: nothing snaps to them.
            const words = approximateTimes(t?.item.model) ? [] : (t?.words ?? []);
            const within = (SNAP_PX / PX_PER_SEC) * 1000;
            return useSubtitles.getState().run('retime', {
              index,
              start: snapTime(start, words, playhead.get(), within),
              end: snapTime(end, words, playhead.get(), within),
            });
          },
        });
        w.once('ready', () => {
          if (gone) return;
          // The scrolling timeline must be reachable from the keyboard (arrows scroll it).
          const scroller = w.getWrapper().parentElement;
          if (scroller) {
            scroller.tabIndex = 0;
            scroller.setAttribute('role', 'region');
            scroller.setAttribute('aria-label', 'Waveform (arrow keys scroll)');
          }
          setState({ kind: 'ready' });
          // For bench/subtitles.ts: when the waveform of stored peaks was drawn.
          performance.mark('verbatim:waveform-ready');
          onReady?.(performance.now() - t0);
          sync();
        });
      },
      (err: unknown) => !gone && setState({ kind: 'none', message: errorMessage(err) }),
    );
    return () => {
      gone = true;
      themeWatch?.disconnect();
      layer.current?.destroy();
      layer.current = null;
      ws.current?.destroy();
      ws.current = null;
    };
    // onReady is a reporting hook: a new closure must not redraw the waveform.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [media, id]);

  /** Boxes for the cues in view, and a screen either side (so a short scroll finds them drawn). */
  function sync(): void {
    const l = layer.current;
    if (!l) return;
    const { cues, selection } = useSubtitles.getState();
    const [a, b] = view.current;
    const margin = Math.max(10, b - a);
    const from = firstEndingFrom(cues, (a - margin) * 1000);
    let to = from;
    while (to < cues.length && cues[to]!.start / 1000 <= b + margin) to++;
    l.show(cues, from, to, new Set(selection));
  }

  useEffect(() => {
    if (state.kind === 'ready') sync();
  }, [cues, selection, state.kind]);

  // The selected cue scrolls into view when it is off screen (by its times, not the list: an edit elsewhere does not scroll).
  const selStart = useSubtitles((s) => s.cues[s.selection[0] ?? -1]?.start);
  const selEnd = useSubtitles((s) => s.cues[s.selection[0] ?? -1]?.end);
  useEffect(() => {
    const w = ws.current;
    if (!w || selStart === undefined || selEnd === undefined || state.kind !== 'ready') return;
    const [a, b] = view.current;
    // Scrolling forces a layout; a cue that cannot come further into view (at the end of the file) is left as it is.
    const target = Math.max(0, Math.min(selStart / 1000 - (b - a) / 4, w.getDuration() - (b - a)));
    // Asked already, and the view did not move (a cue past the end of the audio): asking again would only force a layout per edit.
    if ((selStart / 1000 < a || selEnd / 1000 > b) && Math.abs(target - a) > 0.01 && !(Math.abs(target - asked.current) <= 0.01)) {
      asked.current = target;
      w.setScrollTime(target);
    }
  }, [selStart, selEnd, state.kind]);

  return (
    <div className="wave" role="group" aria-label="Waveform timeline: drag a cue’s edges to retime it, or its body to move it">
      {state.kind === 'none' && <p className="wave__note muted">{state.message}</p>}
      {state.kind === 'loading' && <p className="wave__note muted">Drawing the waveform…</p>}
      <div ref={box} className="wave__canvas" data-testid="waveform" hidden={state.kind === 'none'} />
    </div>
  );
}
