/**
 * The cues drawn over the waveform: one box per cue near the view, in one
 * layer inside wavesurfer's scrolling wrapper, so the boxes scroll with the
 * wave. Drag a box's edges to retime the cue, or its body to move it; a click
 * selects it. Plain DOM, no React: an edit moves or relabels a few boxes and
 * reads no layout, and scrolling costs nothing here (the boxes are placed in
 * percent of the whole file, which the wrapper spans).
 *
 * Why not wavesurfer's regions plugin: each region listens to every scroll
 * and reads the scroller's layout to decide whether it is visible, so one
 * scroll after an edit forced a layout per region (eleven in one frame), and
 * a selection change ran a 200 ms colour transition, painting every frame.
 */
import { cueDisplayText, type Cue } from '../../../../shared/subtitles/index';

export interface CueLayerHandlers {
  /** A click on a cue's box. */
  select(cue: Cue): void;
  /** A box dragged to new times (ms, as dropped). Returns whether the cue changed; if not, the box goes back to the cue's times. */
  retime(cue: Cue, start: number, end: number): boolean;
}

/** The shortest a drag can make a cue (the retime command's own minimum). */
const MIN_MS = 100;
/** How far a press must move before it is a drag and not a click. */
const DRAG_PX = 3;
/** Holding a drag this close to either side of the view scrolls it. */
const EDGE_PX = 32;
const EDGE_SPEED_PX = 14;

type Mode = 'move' | 'start' | 'end';

interface Drag {
  cue: Cue;
  box: HTMLElement;
  mode: Mode;
  pointerId: number;
  x0: number;
  scroll0: number;
  msPerPx: number;
  /** The scroller's sides on screen, read once when the press starts. */
  left: number;
  right: number;
  lastX: number;
  moved: boolean;
  start: number;
  end: number;
  frame: number;
}

const BOX_STYLE = 'position:absolute;top:0;bottom:0;box-sizing:border-box;border-radius:2px;overflow:hidden;pointer-events:auto;cursor:grab;touch-action:none';
const LABEL_STYLE =
  'display:block;padding:2px 8px;font-size:11px;line-height:1.3;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;color:var(--text);pointer-events:none';
const HANDLE_STYLE = 'position:absolute;top:0;bottom:0;width:6px;cursor:ew-resize;border-color:var(--region-edge);border-style:solid;border-width:0';

export class CueLayer {
  private readonly layer: HTMLDivElement;
  private readonly durationMs: number;
  private readonly boxes = new Map<Cue, HTMLElement>();
  private readonly cueOf = new WeakMap<HTMLElement, Cue>();
  private readonly selected = new WeakMap<HTMLElement, boolean>();
  private readonly spare: HTMLElement[] = [];
  private drag: Drag | null = null;

  constructor(
    /** wavesurfer's wrapper: as wide as the whole file, inside the element that scrolls. */
    private readonly wrapper: HTMLElement,
    durationMs: number,
    private readonly on: CueLayerHandlers,
  ) {
    // A file with no length still gets a layer (its boxes sit at the start) rather than positions of NaN.
    this.durationMs = Math.max(1, durationMs);
    this.layer = document.createElement('div');
    this.layer.setAttribute('part', 'cues');
    // The cues are in the list beside it, and every change made here can be made there from the keyboard.
    this.layer.setAttribute('aria-hidden', 'true');
    this.layer.style.cssText = 'position:absolute;inset:0;z-index:4;pointer-events:none;contain:strict';
    this.layer.addEventListener('pointerdown', this.onDown);
    this.layer.addEventListener('pointermove', this.onMove);
    this.layer.addEventListener('pointerup', this.onUp);
    this.layer.addEventListener('pointercancel', this.onCancel);
    this.layer.addEventListener('lostpointercapture', this.onCancel);
    // A press on a cue is not a click on the wave (which would seek).
    this.layer.addEventListener('click', stop);
    this.layer.addEventListener('dblclick', stop);
    wrapper.appendChild(this.layer);
  }

  /**
   * Shows `cues[from..to)` (the cues near the view), with the `selected`
   * indexes highlighted. Boxes of cues that are still there are left as they
   * are; boxes of cues that left the range or were replaced by an edit are
   * reused for the new ones.
   */
  show(cues: readonly Cue[], from: number, to: number, selected: ReadonlySet<number>): void {
    const want = new Map<Cue, number>();
    for (let i = Math.max(0, from); i < Math.min(to, cues.length); i++) want.set(cues[i]!, i);
    for (const [cue, box] of this.boxes) {
      // The box being dragged stays until the drop is settled.
      if (!want.has(cue) && box !== this.drag?.box) {
        this.boxes.delete(cue);
        box.remove();
        this.spare.push(box);
      }
    }
    for (const [cue, i] of want) {
      let box = this.boxes.get(cue);
      if (!box) {
        box = this.spare.pop() ?? this.makeBox();
        this.boxes.set(cue, box);
        this.cueOf.set(box, cue);
        this.place(box, cue.start, cue.end);
        const text = cueDisplayText(cue.text).replace(/\n/g, ' ');
        const label = box.firstChild as HTMLElement;
        if (label.textContent !== text) label.textContent = text;
        this.layer.appendChild(box);
      }
      const on = selected.has(i);
      if (this.selected.get(box) !== on) {
        this.selected.set(box, on);
        box.style.background = on ? 'var(--region-selected)' : 'var(--region)';
      }
    }
  }

  destroy(): void {
    this.endDrag(false);
    this.layer.remove();
    this.boxes.clear();
    this.spare.length = 0;
  }

  private makeBox(): HTMLElement {
    const box = document.createElement('div');
    box.setAttribute('part', 'region');
    box.style.cssText = BOX_STYLE;
    const label = document.createElement('span');
    label.setAttribute('part', 'region-content');
    label.style.cssText = LABEL_STYLE;
    const left = document.createElement('div');
    left.setAttribute('part', 'region-handle region-handle-left');
    left.style.cssText = `${HANDLE_STYLE};left:0;border-left-width:2px`;
    const right = document.createElement('div');
    right.setAttribute('part', 'region-handle region-handle-right');
    right.style.cssText = `${HANDLE_STYLE};right:0;border-right-width:2px`;
    box.append(label, left, right);
    return box;
  }

  /** In percent of the file: the same at any zoom or width, and no layout is read to place a box. */
  private place(box: HTMLElement, start: number, end: number): void {
    box.style.left = `${(start / this.durationMs) * 100}%`;
    box.style.width = `${(Math.max(0, end - start) / this.durationMs) * 100}%`;
  }

  private readonly onDown = (e: PointerEvent): void => {
    if (e.button !== 0 || this.drag) return;
    const target = e.target as HTMLElement;
    const box = target.closest<HTMLElement>('[part~="region"]');
    const cue = box && this.cueOf.get(box);
    if (!box || !cue) return;
    e.stopPropagation();
    // No text selection and no focus change: the keyboard stays where it was.
    e.preventDefault();
    const part = target.getAttribute('part') ?? '';
    const mode: Mode = part.includes('region-handle-left') ? 'start' : part.includes('region-handle-right') ? 'end' : 'move';
    const scroller = this.wrapper.parentElement ?? this.wrapper;
    const rect = scroller.getBoundingClientRect();
    this.drag = {
      cue,
      box,
      mode,
      pointerId: e.pointerId,
      x0: e.clientX,
      scroll0: scroller.scrollLeft,
      msPerPx: this.durationMs / Math.max(1, this.wrapper.clientWidth),
      left: rect.left,
      right: rect.right,
      lastX: e.clientX,
      moved: false,
      start: cue.start,
      end: cue.end,
      frame: 0,
    };
    box.setPointerCapture(e.pointerId);
    window.addEventListener('keydown', this.onKey, true);
  };

  private readonly onMove = (e: PointerEvent): void => {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    d.lastX = e.clientX;
    if (!d.moved && Math.abs(e.clientX - d.x0) < DRAG_PX) return;
    if (!d.moved) {
      d.moved = true;
      d.box.style.cursor = d.mode === 'move' ? 'grabbing' : 'ew-resize';
    }
    this.follow();
    if (!d.frame && (d.lastX < d.left + EDGE_PX || d.lastX > d.right - EDGE_PX)) d.frame = requestAnimationFrame(this.edgeScroll);
  };

  /** Puts the dragged box where the pointer is now (the scroll since the press counts too). */
  private follow(): void {
    const d = this.drag;
    if (!d) return;
    const scroller = this.wrapper.parentElement ?? this.wrapper;
    const delta = (d.lastX - d.x0 + scroller.scrollLeft - d.scroll0) * d.msPerPx;
    const { start, end } = d.cue;
    const length = end - start;
    if (d.mode === 'move') {
      d.start = Math.max(0, Math.min(this.durationMs - length, start + delta));
      d.end = d.start + length;
    } else if (d.mode === 'start') {
      d.start = Math.max(0, Math.min(end - MIN_MS, start + delta));
      d.end = end;
    } else {
      d.start = start;
      d.end = Math.min(this.durationMs, Math.max(start + MIN_MS, end + delta));
    }
    this.place(d.box, d.start, d.end);
  }

  /** Held near a side of the view: scroll towards it, faster the closer, and keep the box under the pointer. */
  private readonly edgeScroll = (): void => {
    const d = this.drag;
    if (!d) return;
    d.frame = 0;
    const scroller = this.wrapper.parentElement ?? this.wrapper;
    const into = d.lastX < d.left + EDGE_PX ? d.lastX - (d.left + EDGE_PX) : d.lastX > d.right - EDGE_PX ? d.lastX - (d.right - EDGE_PX) : 0;
    if (!into || !d.moved) return;
    const before = scroller.scrollLeft;
    scroller.scrollLeft = before + Math.sign(into) * Math.ceil(Math.min(1, Math.abs(into) / EDGE_PX) * EDGE_SPEED_PX);
    if (scroller.scrollLeft === before) return;
    this.follow();
    d.frame = requestAnimationFrame(this.edgeScroll);
  };

  private readonly onUp = (e: PointerEvent): void => {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    e.stopPropagation();
    this.endDrag(true);
  };

  private readonly onCancel = (e: PointerEvent): void => {
    if (this.drag && e.pointerId === this.drag.pointerId) this.endDrag(false);
  };

  /** Escape while dragging puts the cue back. */
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape' || !this.drag) return;
    e.preventDefault();
    e.stopPropagation();
    this.endDrag(false);
  };

  private endDrag(drop: boolean): void {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    cancelAnimationFrame(d.frame);
    window.removeEventListener('keydown', this.onKey, true);
    if (d.box.hasPointerCapture(d.pointerId)) d.box.releasePointerCapture(d.pointerId);
    d.box.style.cursor = '';
    if (!d.moved) {
      if (drop) this.on.select(d.cue);
      return;
    }
    const changed = drop && this.on.retime(d.cue, d.start, d.end);
    // Not changed (dropped where it was, cancelled, or refused): back to the cue's own times. Changed: the edit
    // replaced the cue, and the next show() gives this box to the new one.
    if (!changed) this.place(d.box, d.cue.start, d.cue.end);
  }
}

function stop(e: Event): void {
  e.stopPropagation();
}
