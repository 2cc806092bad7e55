/**
 * A live session keeps its translated lines and its "What did I miss?"
 * summaries after it ends (live_turns is emptied then), in schema version 19;
 * its SRT/VTT export takes the original lines, the translation, or both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Library } from '../../../../src/main/services/library/library';
import { latestVersion } from '../../../../src/main/services/library/migrations';
import type { LiveTurn } from '../../../../src/shared/captions';
import { AppError } from '../../../../src/shared/errors';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function turn(n: number, text: string): LiveTurn {
  const words = text.split(' ').map((w, i) => ({ text: w, start: n * 4000 + i * 300, end: n * 4000 + i * 300 + 250, confidence: 0.9, final: true }));
  return {
    run: 1,
    source: 'mic',
    key: `mic:0:${n}`,
    text,
    words,
    final: true,
    startMs: words[0]!.start,
    endMs: words.at(-1)!.end,
    receivedAt: 0,
    capturedAt: null,
  };
}

function session(): { lib: Library; id: string; turns: LiveTurn[] } {
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-live-extras-'));
  dirs.push(dir);
  const lib = new Library(dir);
  const { recordingId, transcriptId } = lib.sessions.create({
    title: 'Live session',
    sources: ['mic'],
    recordOnly: false,
    recordingMime: 'audio/webm',
    region: 'local',
    baseUrl: null,
    options: {},
  });
  const turns = [turn(0, 'Good morning everyone.'), turn(1, 'The meeting starts at nine.')];
  for (const t of turns) lib.sessions.saveTurn(recordingId, t);
  lib.liveExtras.saveTranslation(recordingId, turns[0]!, 'fr', 'Bonjour à tous.');
  lib.liveExtras.saveTranslation(recordingId, turns[1]!, 'fr', 'La réunion commence à neuf heures.');
  const words = turns.flatMap((t) => t.words.map((w) => ({ text: w.text, start: w.start, end: w.end, confidence: w.confidence, speaker: null })));
  lib.transcripts.complete(transcriptId, {
    remoteId: null,
    text: turns.map((t) => t.text).join(' '),
    words,
    sentences: turns.map((t, i) => ({ text: t.text, start: t.startMs, end: t.endMs, firstWord: i * 3, lastWord: i * 3 + t.words.length - 1, speaker: null })),
    paragraphs: null,
    confidence: 0.9,
    language: 'en',
    model: 'live',
    durationMs: null,
  });
  lib.sessions.finish(recordingId, { durationMs: 9000, lostMs: 0, reconnects: 0 });
  return { lib, id: recordingId, turns };
}

describe('live session translations and summaries', () => {
  it('are kept after the session ends, at schema version 19 or later', () => {
    const { lib, id } = session();
    expect(latestVersion).toBeGreaterThanOrEqual(19);
    expect(lib.sessions.savedTurns(id)).toEqual([]);
    expect(lib.liveExtras.translations(id).map((t) => [t.original, t.text])).toEqual([
      ['Good morning everyone.', 'Bonjour à tous.'],
      ['The meeting starts at nine.', 'La réunion commence à neuf heures.'],
    ]);
    const summary = {
      id: 's1',
      recordingId: id,
      fromMs: 0,
      toMs: 9000,
      status: 'done' as const,
      content: 'They met [00:04].',
      citations: [{ startMs: 4000, label: '00:04' }],
      model: 'tiny',
      extractive: false,
      error: null,
      createdAt: new Date().toISOString(),
    };
    lib.liveExtras.saveSummary(summary);
    expect(lib.liveExtras.summaries(id)).toEqual([summary]);
    lib.close();
  });

  it('exports SRT and VTT with the original lines, the translation, or both', () => {
    const { lib, id } = session();
    const original = lib.exports.render(id, 'srt').content;
    expect(original).toContain('Good morning everyone.');
    expect(original).not.toContain('Bonjour');
    const translation = lib.exports.render(id, 'srt', { captionText: 'translation' }).content;
    expect(translation).toBe('1\n00:00:00,000 --> 00:00:01,000\nBonjour à tous.\n\n2\n00:00:04,000 --> 00:00:05,450\nLa réunion commence à neuf heures.\n\n');
    const both = lib.exports.render(id, 'vtt', { captionText: 'both' }).content;
    expect(both).toMatch(/^WEBVTT\n\n00:00\.000 --> 00:01\.000\nGood morning everyone\.\nBonjour à tous\.\n\n/);
    expect(both).toContain('The meeting starts at nine.\nLa réunion commence à neuf heures.');
    lib.close();
  });

  it('says so when a session without translated lines is asked for its translation', () => {
    const { lib } = session();
    const other = lib.sessions.create({
      title: 'x',
      sources: ['mic'],
      recordOnly: false,
      recordingMime: 'audio/webm',
      region: 'local',
      baseUrl: null,
      options: {},
    });
    lib.transcripts.complete(other.transcriptId, {
      remoteId: null,
      text: 'hi',
      words: [{ text: 'hi', start: 0, end: 200, confidence: 1, speaker: null }],
      sentences: [{ text: 'hi', start: 0, end: 200, firstWord: 0, lastWord: 0, speaker: null }],
      paragraphs: null,
      confidence: 1,
      language: 'en',
      model: 'live',
      durationMs: null,
    });
    expect(() => lib.exports.render(other.recordingId, 'srt', { captionText: 'translation' })).toThrow(AppError);
    lib.close();
  });
});
