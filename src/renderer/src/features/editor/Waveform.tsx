/**
 * The waveform timeline (wavesurfer.js 8 with its regions plugin) drawn from
 * the peaks stored with the recording: each cue on screen is a region; drag
 * its edges to retime it or its body to move it. Times snap to word
 * boundaries and to the playhead. Only the cues in view are regions, so a
 * 5,000-cue file costs what a screenful does.
 */
import { firstEndingFrom } from '../../../../shared/timeline';
import { useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/plugins/regions';
import { snapTime, type Cue } from '../../../../shared/captions/index';
import { api, errorMessage } from '../../bridge';
import { playhead, useSubtitles } from '../../stores/subtitles';
import { useTranscript } from '../../stores/transcript';

type Regions = ReturnType<typeof RegionsPlugin.create>;
type Region = ReturnType<Regions['addRegion']>;

const PX_PER_SEC = 100;
/** Region ids: unique, and never an index (see cueOf). */
let regionSerial = 0;
/** Snap when a dragged edge is this close to a word boundary or the playhead (in pixels, so it feels the same at any zoom). */
const SNAP_PX = 8;

/**
 * Theme colours, read once per theme: reading a computed style forces a style
 * recalculation, and doing it on every edit cost about a millisecond each time.
 */
const colours = new Map<string, string>();
let colourTheme: string | undefined;
function cssVar(name: string): string {
  const theme = document.documentElement.dataset.theme;
  if (theme !== colourTheme) {
    colours.clear();
    colourTheme = theme;
  }
  let v = colours.get(name);
  if (v === undefined) {
    v = getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
    colours.set(name, v);
  }
  return v;
}

/** A region's text. Regions live in wavesurfer's shadow root: the page's stylesheet does not reach them, but its custom properties do (so the text follows a theme switch). */
function label(text: string): HTMLElement {
  const content = document.createElement('span');
  content.style.cssText = `display:block;padding:2px 4px;font-size:11px;line-height:1.3;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;color:var(--text)`;
  content.textContent = text;
  return content;
}

export function Waveform({ media, id, onReady }: { media: HTMLMediaElement | null; id: string; onReady?: (ms: number) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const ws = useRef<WaveSurfer | null>(null);
  const regions = useRef<Regions | null>(null);
  const shown = useRef(new Map<Cue, Region>());
  /**
   * The cue each region shows. Regions are named by their cue object, not its
   * index: an edit that shifts the indices of the cues after it (split, insert,
   * delete) leaves their regions untouched, so the browser has nothing to restyle.
   */
  const cueOf = useRef(new WeakMap<Region, Cue>());
  /** The colour each shown region was last given: only a change of selection touches a region. */
  const given = useRef(new WeakMap<Region, string>());
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
    const t0 = performance.now();
    const regionsShown = shown.current;
    setState({ kind: 'loading' });
    api.invoke('subtitles.peaks', { id }).then(
      (p) => {
        if (gone || !box.current) return;
        const bin = atob(p.data);
        const peaks = new Float32Array(bin.length);
        for (let i = 0; i < bin.length; i++) peaks[i] = ((bin.charCodeAt(i) << 24) >> 24) / 127;
        const w = WaveSurfer.create({
          container: box.current,
          height: 112,
          waveColor: cssVar('--wave'),
          progressColor: cssVar('--wave-played'),
          cursorColor: cssVar('--accent'),
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
        const r = w.registerPlugin(RegionsPlugin.create());
        ws.current = w;
        regions.current = r;
        w.on('scroll', (a, b) => {
          view.current = [a, b];
          asked.current = NaN;
          sync();
        });
        const indexOf = (region: Region): number => {
          const c = cueOf.current.get(region);
          return c ? useSubtitles.getState().cues.indexOf(c) : -1;
        };
        r.on('region-clicked', (region, e) => {
          e.stopPropagation();
          const index = indexOf(region);
          if (index >= 0) useSubtitles.getState().select(index);
        });
        r.on('region-updated', (region) => {
          const index = indexOf(region);
          if (index < 0) return;
          const words = useTranscript.getState().transcript?.words ?? [];
          const within = (SNAP_PX / PX_PER_SEC) * 1000;
          const start = snapTime(region.start * 1000, words, playhead.get(), within);
          const end = snapTime(region.end * 1000, words, playhead.get(), within);
          if (!useSubtitles.getState().run('retime', { index, start, end })) {
            // Snapped back to where it was: put the region back too.
            const c = useSubtitles.getState().cues[index];
            if (c) region.setOptions({ start: c.start / 1000, end: c.end / 1000 });
          }
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
      ws.current?.destroy();
      ws.current = null;
      regions.current = null;
      regionsShown.clear();
    };
    // onReady is a reporting hook: a new closure must not redraw the waveform.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [media, id]);

  /**
   * Regions for the cues in view (and a screen either side). After an edit
   * only the regions of cues that changed are replaced: unchanged cues are
   * the same objects, so most regions stay as they are.
   */
  function sync(): void {
    const r = regions.current;
    if (!r) return;
    const { cues, selection } = useSubtitles.getState();
    const [a, b] = view.current;
    const margin = Math.max(10, b - a);
    const sel = new Set(selection);
    const accent = cssVar('--region-selected');
    const plain = cssVar('--region');
    const want = new Map<Cue, number>();
    // From the first cue that ends after the window opens.
    for (let i = firstEndingFrom(cues, (a - margin) * 1000); i < cues.length && cues[i]!.start / 1000 <= b + margin; i++) want.set(cues[i]!, i);
    // Regions whose cue left the view or was replaced by an edit: reused for the new cues (moving a region and changing its text
    // restyles one element; removing one and making another builds and lays out a new element with its handles).
    const spare: Region[] = [];
    for (const [cue, region] of shown.current) {
      if (!want.has(cue)) {
        spare.push(region);
        shown.current.delete(cue);
      }
    }
    for (const [c, i] of want) {
      const color = sel.has(i) ? accent : plain;
      const old = shown.current.get(c);
      if (old) {
        if (given.current.get(old) !== color) {
          old.setOptions({ color });
          given.current.set(old, color);
        }
        continue;
      }
      const text = c.text.replace(/<[^>]*>/g, '').replace(/\n/g, ' ');
      const reused = spare.pop();
      const region =
        reused ??
        r.addRegion({
          id: `cue-${++regionSerial}`,
          start: c.start / 1000,
          end: c.end / 1000,
          color,
          drag: true,
          resize: true,
          content: label(text),
          minLength: 0.1,
        });
      if (reused) {
        reused.setOptions({ start: c.start / 1000, end: c.end / 1000, ...(given.current.get(reused) !== color ? { color } : {}) });
        const content = reused.content;
        if (content && content.textContent !== text) content.textContent = text;
      }
      shown.current.set(c, region);
      cueOf.current.set(region, c);
      given.current.set(region, color);
    }
    for (const region of spare) region.remove();
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
