/**
 * The rules check: every cue that breaks a rule of the profile, with the
 * reason and the fix that applies (rebalance lines, split, merge with a short
 * neighbour, extend into silence, apply the minimum gap), one by one or all.
 */
import { readingChars, rebalanceText, visibleLines } from './lines';
import { mergeWithNext, splitCue } from './operations';
import type { RulesProfile } from './profiles';
import type { Cue, TimedWord } from './types';

export type RuleId = 'line-length' | 'line-count' | 'cps' | 'too-short' | 'too-long' | 'overlap' | 'gap';
export type FixId = 'rebalance' | 'split' | 'merge' | 'extend' | 'gap';

export interface Issue {
  cue: number;
  rule: RuleId;
  severity: 'error' | 'warning';
  message: string;
  fix: FixId | null;
}

export const fixLabels: Record<FixId, string> = {
  rebalance: 'Rebalance lines',
  split: 'Split at punctuation',
  merge: 'Merge with a short neighbour',
  extend: 'Extend into the silence after',
  gap: 'Apply the minimum gap',
};

const sec = (ms: number) => `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 2)} s`;

/** The latest a cue may end: the next cue's start less the gap (no limit for the last). */
function room(cues: readonly Cue[], i: number, p: RulesProfile): number {
  const next = cues[i + 1];
  return next ? next.start - p.minGapMs : Number.POSITIVE_INFINITY;
}

export function cps(c: Cue): number {
  return readingChars(c.text) / Math.max(0.001, (c.end - c.start) / 1000);
}

export function checkCue(cues: readonly Cue[], i: number, p: RulesProfile): Issue[] {
  const c = cues[i]!;
  const out: Issue[] = [];
  const lines = visibleLines(c.text);
  const dur = c.end - c.start;
  const longest = Math.max(...lines.map((l) => l.length));
  // Laying the text out again is the costly part of a check: only for cues whose lines break a rule.
  const lineFix = (): FixId => (rebalanceText(c.text, p.maxCharsPerLine, p.maxLines) !== null ? 'rebalance' : 'split');
  if (longest > p.maxCharsPerLine)
    out.push({ cue: i, rule: 'line-length', severity: 'error', message: `A line has ${longest} characters; at most ${p.maxCharsPerLine}.`, fix: lineFix() });
  if (lines.length > p.maxLines)
    out.push({ cue: i, rule: 'line-count', severity: 'error', message: `${lines.length} lines; at most ${p.maxLines}.`, fix: lineFix() });
  const speed = cps(c);
  const canExtend = room(cues, i, p) > c.end;
  if (speed > p.maxCps)
    out.push({
      cue: i,
      rule: 'cps',
      severity: 'error',
      message: `Reads at ${speed.toFixed(1)} characters a second; at most ${p.maxCps}.`,
      fix: canExtend ? 'extend' : cues[i + 1] ? 'merge' : null,
    });
  else if (p.warnCps !== null && speed > p.warnCps)
    out.push({
      cue: i,
      rule: 'cps',
      severity: 'warning',
      message: `Reads at ${speed.toFixed(1)} characters a second (comfortable up to ${p.warnCps}).`,
      fix: canExtend ? 'extend' : null,
    });
  if (dur < p.minDurationMs)
    out.push({
      cue: i,
      rule: 'too-short',
      severity: 'error',
      message: `Shown for ${sec(dur)}; at least ${sec(p.minDurationMs)}.`,
      fix: canExtend ? 'extend' : cues[i + 1] ? 'merge' : null,
    });
  if (dur > p.maxDurationMs)
    out.push({ cue: i, rule: 'too-long', severity: 'error', message: `Shown for ${sec(dur)}; at most ${sec(p.maxDurationMs)}.`, fix: 'split' });
  const next = cues[i + 1];
  if (next && next.start < c.end)
    out.push({ cue: i, rule: 'overlap', severity: 'error', message: `Overlaps the next cue by ${sec(c.end - next.start)}.`, fix: 'gap' });
  else if (next && p.minGapMs > 0 && next.start - c.end < p.minGapMs && next.start - c.end >= 0)
    out.push({ cue: i, rule: 'gap', severity: 'error', message: `${next.start - c.end} ms before the next cue; at least ${p.minGapMs} ms.`, fix: 'gap' });
  return out;
}

export function checkCues(cues: readonly Cue[], p: RulesProfile): Issue[] {
  const out: Issue[] = [];
  for (let i = 0; i < cues.length; i++) for (const x of checkCue(cues, i, p)) out.push(x);
  return out;
}

/** Index of the best split point in a cue's text: after punctuation, else before a conjunction, else the middle. */
function splitPoint(text: string): number {
  const flat = text.replace(/\n/g, ' ');
  const mid = flat.length / 2;
  let best = -1;
  let bestScore = Infinity;
  for (let i = 1; i < flat.length - 1; i++) {
    if (flat[i] !== ' ') continue;
    const before = flat.slice(0, i);
    const after = flat.slice(i + 1);
    let score = Math.abs(i - mid);
    if (/[.?!…]["')\]]*$/.test(before)) score -= flat.length;
    else if (/[,;:–—]$/.test(before)) score -= flat.length * 0.6;
    else if (/^(and|but|or|so|because|which|who|when|while|if)\b/i.test(after)) score -= flat.length * 0.3;
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}

/** Applies one fix to cue `i`; the list unchanged when it does not apply. */
export function applyFix(cues: readonly Cue[], i: number, fix: FixId, p: RulesProfile, words: readonly TimedWord[] = []): Cue[] {
  const c = cues[i];
  if (!c) return cues as Cue[];
  switch (fix) {
    case 'rebalance': {
      const text = rebalanceText(c.text, p.maxCharsPerLine, p.maxLines);
      if (text === null || text === c.text) return cues as Cue[];
      const out = cues.slice();
      out[i] = { ...c, text };
      return out;
    }
    case 'split': {
      const at = splitPoint(c.text);
      return at > 0 ? splitCue(cues, i, at, words, p) : (cues as Cue[]);
    }
    case 'merge': {
      // With the shorter neighbour, when the merged cue still fits the lines.
      const prev = cues[i - 1];
      const next = cues[i + 1];
      const withPrev = prev && (!next || readingChars(prev.text) <= readingChars(next.text));
      return withPrev ? mergeWithNext(cues, i - 1, p) : next ? mergeWithNext(cues, i, p) : (cues as Cue[]);
    }
    case 'extend': {
      const need = Math.max(p.minDurationMs, Number.isFinite(p.maxCps) ? Math.ceil((readingChars(c.text) / p.maxCps) * 1000) : 0);
      const end = Math.min(room(cues, i, p), c.start + Math.min(need, p.maxDurationMs));
      if (end <= c.end) return cues as Cue[];
      const out = cues.slice();
      out[i] = { ...c, end };
      return out;
    }
    case 'gap': {
      const next = cues[i + 1];
      if (!next) return cues as Cue[];
      const end = Math.max(c.start + 1, next.start - p.minGapMs);
      if (end === c.end) return cues as Cue[];
      const out = cues.slice();
      out[i] = { ...c, end };
      return out;
    }
  }
}

/** Every fix that applies, cue by cue from the end (so a split or merge does not move the cues still to fix). */
export function fixAll(cues: readonly Cue[], p: RulesProfile, words: readonly TimedWord[] = []): Cue[] {
  let out = cues as Cue[];
  for (let i = out.length - 1; i >= 0; i--) {
    // Up to three passes per cue: a split may leave a part that still needs its lines rebalanced.
    for (let pass = 0; pass < 3; pass++) {
      const issue = i < out.length ? checkCue(out, i, p).find((x) => x.fix !== null && x.severity === 'error') : undefined;
      if (!issue?.fix) break;
      const next = applyFix(out, i, issue.fix, p, words);
      if (next === out) break;
      out = next;
    }
  }
  return out;
}
