/**
 * Packs a transcript into its bridge form (transcript-wire.ts) and back. Types
 * only from the schemas, so the renderer, which unpacks every transcript it
 * opens, does not load zod for it.
 */
import type { Span, Transcript, Word } from './library';
import type { SpanColumns, TranscriptWire, WordColumns } from './transcript-wire';

function wordsToColumns(words: readonly Word[]): WordColumns {
  const n = words.length;
  const c: WordColumns = { text: new Array(n), start: new Array(n), end: new Array(n), confidence: new Array(n), speaker: new Array(n), original: [] };
  for (let i = 0; i < n; i++) {
    const w = words[i] as Word;
    c.text[i] = w.text;
    c.start[i] = w.start;
    c.end[i] = w.end;
    c.confidence[i] = w.confidence;
    c.speaker[i] = w.speaker;
    if (typeof w.original === 'string') c.original.push([i, w.original]);
  }
  return c;
}

function columnsToWords(c: WordColumns): Word[] {
  const words: Word[] = new Array(c.text.length);
  for (let i = 0; i < words.length; i++) {
    words[i] = {
      text: c.text[i] as string,
      start: c.start[i] as number,
      end: c.end[i] as number,
      confidence: c.confidence[i] as number,
      speaker: c.speaker[i] ?? null,
    };
  }
  for (const [i, original] of c.original) (words[i] as Word).original = original;
  return words;
}

/** Spans as columns; they may come with their text or without (as stored). */
export function packSpans(spans: readonly Omit<Span, 'text'>[]): SpanColumns {
  return {
    start: spans.map((s) => s.start),
    end: spans.map((s) => s.end),
    firstWord: spans.map((s) => s.firstWord),
    lastWord: spans.map((s) => s.lastWord),
    speaker: spans.map((s) => s.speaker),
  };
}

function unpackSpans(c: SpanColumns, words: readonly Word[]): Span[] {
  return c.start.map((start, i) => {
    const firstWord = c.firstWord[i] as number;
    const lastWord = c.lastWord[i] as number;
    let text = words[firstWord]?.text ?? '';
    for (let w = firstWord + 1; w <= lastWord; w++) text += ' ' + (words[w] as Word).text;
    return { text, start, end: c.end[i] as number, firstWord, lastWord, speaker: c.speaker[i] ?? null };
  });
}

export function packTranscript(t: Transcript): TranscriptWire {
  return { ...t, words: wordsToColumns(t.words), sentences: packSpans(t.sentences), paragraphs: packSpans(t.paragraphs) };
}

/** The transcript a wire answer carries (a partial one's first screen; its `partial` counts are the caller's to read). */
export function unpackTranscript(t: TranscriptWire): Transcript {
  const { partial: _partial, ...shell } = t;
  const words = columnsToWords(t.words);
  return { ...shell, words, sentences: unpackSpans(t.sentences, words), paragraphs: unpackSpans(t.paragraphs, words) };
}
