/** WebVTT serialization: header blocks (STYLE, REGION, NOTE) and cue identifiers, settings and notes kept from an imported file. */
import type { Cue, CueDoc } from './types';

function pad(n: number, width = 2): string {
  return String(Math.floor(n)).padStart(width, '0');
}

/** `00:00.320`, or `01:00:00.320` when hours are needed. */
export function vttTime(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000);
  const rest = `${pad((t / 60_000) % 60)}:${pad((t / 1000) % 60)}.${pad(t % 1000, 3)}`;
  return h > 0 ? `${pad(h)}:${rest}` : rest;
}

export interface VttOptions {
  /** Blocks before the first cue; the first is the WEBVTT line and its metadata (default "WEBVTT"). */
  header?: readonly string[] | undefined;
  trailer?: readonly string[] | undefined;
  /** Voice tags: `<v Name>` on cues that know their speaker (and carry no voice tag already). */
  voices?: ((speaker: string) => string) | undefined;
}

function escapeVoice(name: string): string {
  return name.replace(/[<>&\n]/g, ' ').trim();
}

export function toVtt(cues: readonly Cue[], opts: VttOptions = {}): string {
  const header = opts.header?.length ? [...opts.header] : ['WEBVTT'];
  if (!header[0]!.startsWith('WEBVTT')) header.unshift('WEBVTT');
  let out = header.map((b) => `${b}\n\n`).join('');
  for (const c of cues) {
    for (const n of c.notes ?? []) out += `${n}\n\n`;
    if (c.ident) out += `${c.ident}\n`;
    let text = c.text;
    if (opts.voices && c.speaker && !text.startsWith('<v') && !text.startsWith('- ')) text = `<v ${escapeVoice(opts.voices(c.speaker))}>${text}`;
    out += `${vttTime(c.start)} --> ${vttTime(c.end)}${c.settings ? ` ${c.settings}` : ''}\n${text}\n\n`;
  }
  for (const n of opts.trailer ?? []) out += `${n}\n\n`;
  return out;
}

export function docToVtt(doc: CueDoc, voices?: (speaker: string) => string): string {
  return toVtt(doc.cues, { header: doc.header, trailer: doc.trailer, voices });
}
