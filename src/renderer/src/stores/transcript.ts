/**
 * The open transcript: its data, the word being spoken, find-in-transcript,
 * and edits (word corrections, speaker names). The player registers itself so
 * any view can seek it; the active word is a single number so only the
 * paragraph that holds it re-renders.
 */
import { create, type StateCreator } from 'zustand';
import type { Transcript, Word } from '../../../shared/library';
import { api as bridgeApi, errorCode, errorMessage } from '../bridge';
import type { VerbatimApi } from '../../../shared/ipc';
import { unpackTranscript } from '../../../shared/transcript-columns';
import { afterPaint } from '../lib/afterPaint';
import { findWords, wordAt } from '../lib/words';
import { useApp } from './app';
import { toast } from './toasts';
import { useVocabulary } from './vocabulary';

export interface FindState {
  query: string;
  /** First word index of each match, in order. */
  matches: number[];
  /** Words per match. */
  length: number;
  cursor: number;
}

interface PlayerHandle {
  seek(ms: number): void;
  play(): void;
  /** Plays [fromMs, toMs] and pauses there (review's half second either side of a word). */
  playRange(fromMs: number, toMs: number): void;
}

export interface TranscriptState {
  id: string | null;
  transcript: Transcript | null;
  loading: boolean;
  /** The transcript holds its first screen only; the rest is on its way (library.get's `firstWords`). */
  partial: boolean;
  error: { code: string | null; message: string } | null;
  mediaUrl: string | null;
  active: number;
  find: FindState;
  /** Word indexes corrected in this session, before main's answer carries their originals. */
  corrected: Record<number, string>;
  /** Time to start at once the player is ready (a search hit). */
  pendingSeekMs: number | null;
  /** Play once the pending seek is applied (a chat citation asked for the moment to be heard). */
  pendingPlay: boolean;
  open(id: string, atMs: number | null, play?: boolean): Promise<void>;
  close(): void;
  setTime(ms: number): void;
  seek(ms: number): void;
  playRange(fromMs: number, toMs: number): void;
  setFind(query: string): void;
  stepFind(delta: 1 | -1): void;
  correct(index: number, text: string): Promise<boolean>;
  renameSpeaker(speaker: string, name: string | null): Promise<void>;
  applyTranscript(t: Transcript): void;
}

let player: PlayerHandle | null = null;
export function registerPlayer(p: PlayerHandle | null): void {
  player = p;
}

const noFind: FindState = { query: '', matches: [], length: 0, cursor: -1 };
let openSeq = 0;

/**
 * Words an open asks for first: more than a tall window shows. They are painted, then the rest is
 * asked for, so a long transcript's first words do not wait for all of it to cross the bridge, be
 * decoded and collected (issue 29: a two-hour transcript's first words in ~40-50 ms instead of ~65).
 */
export const FIRST_SCREEN_WORDS = 1200;

/** The store's state and actions over `api` (zustand's StateCreator, apart from create). */
export const transcriptState =
  (api: VerbatimApi): StateCreator<TranscriptState> =>
  (set, get) => {
    /** The rest of a partial open, once its first screen is painted (unless a later open, edit or reload brought the whole). */
    async function loadRest(id: string, seq: number): Promise<void> {
      try {
        const t = unpackTranscript(await api.invoke('library.get', { id }));
        if (seq === openSeq && get().partial) whole(t);
      } catch (err) {
        if (seq === openSeq && get().partial) toast(`Only the start of this transcript could be loaded: ${errorMessage(err)}`, 'error');
      }
    }

    /** Shows a whole transcript (an edit's answer, a reload, the rest of an open); a search that is on runs again over all of it. */
    function whole(t: Transcript, extra: Partial<TranscriptState> = {}): void {
      const wasPartial = get().partial;
      set({ transcript: t, partial: false, ...extra });
      const query = get().find.query;
      if (wasPartial && query.trim()) get().setFind(query);
    }

    return {
      id: null,
      transcript: null,
      loading: false,
      partial: false,
      error: null,
      mediaUrl: null,
      active: -1,
      find: noFind,
      corrected: {},
      pendingSeekMs: null,
      pendingPlay: false,
      async open(id, atMs, play = false) {
        const mine = ++openSeq;
        // A moment asked for while only the first screen is here may lie beyond it: load the whole.
        const same = get().id === id && get().transcript !== null && !(get().partial && atMs !== null);
        if (!same) set({ id, transcript: null, loading: true, partial: false, error: null, mediaUrl: null, active: -1, find: noFind, corrected: {} });
        set({ pendingSeekMs: atMs, pendingPlay: play && atMs !== null });
        if (same) {
          if (atMs !== null) get().seek(atMs);
          if (play && atMs !== null && player) {
            set({ pendingPlay: false });
            player.play();
          }
          return;
        }
        try {
          // Opening at a moment (a search hit, a citation) finds its word in the whole transcript; otherwise the first screen comes first.
          const [wire, media] = await Promise.all([
            api.invoke('library.get', atMs === null ? { id, firstWords: FIRST_SCREEN_WORDS } : { id }),
            api.invoke('library.mediaUrl', { id, redacted: false }).catch(() => ({ url: null })),
          ]);
          if (mine !== openSeq) return;
          const t = unpackTranscript(wire);
          set({ transcript: t, mediaUrl: media.url, loading: false, partial: wire.partial !== undefined });
          if (atMs !== null) set({ active: wordAt(t.words, atMs) });
          if (wire.partial) afterPaint(() => void loadRest(id, mine));
        } catch (err) {
          if (mine === openSeq) set({ loading: false, error: { code: errorCode(err), message: errorMessage(err) } });
        }
      },
      close() {
        openSeq++;
        set({ id: null, transcript: null, partial: false, mediaUrl: null, active: -1, find: noFind, corrected: {}, pendingSeekMs: null, error: null });
      },
      setTime(ms) {
        const t = get().transcript;
        if (!t) return;
        // Rounded: a media element reads back a seek to 2.32 s as 2.3199999…, which is still the word before.
        const active = wordAt(t.words, Math.round(ms));
        if (active !== get().active) set({ active });
      },
      seek(ms) {
        get().setTime(ms);
        player?.seek(ms);
      },
      playRange(fromMs, toMs) {
        get().setTime(fromMs);
        player?.playRange(fromMs, toMs);
      },
      setFind(query) {
        const t = get().transcript;
        if (!t || !query.trim()) return set({ find: { ...noFind, query } });
        const { matches, length } = findWords(t.words, query);
        // Start from the first match at or after the word being spoken.
        const from = matches.findIndex((m) => m >= get().active);
        set({ find: { query, matches, length, cursor: matches.length ? Math.max(0, from) : -1 } });
      },
      stepFind(delta) {
        const f = get().find;
        if (!f.matches.length) return;
        const cursor = (f.cursor + delta + f.matches.length) % f.matches.length;
        set({ find: { ...f, cursor } });
      },
      async correct(index, text) {
        const t = get().transcript;
        const id = get().id;
        if (!t || !id) return false;
        const before = t.words[index];
        if (!before || before.text === text) return true;
        try {
          const next = unpackTranscript(await api.invoke('library.correctWords', { id, edits: [{ index, text }] }));
          const corrected = { ...get().corrected };
          if (!(index in corrected)) corrected[index] = before.text;
          whole(next, { corrected });
          // A spelling correction may be worth learning, and fixing everywhere (stores/vocabulary.ts).
          useVocabulary.getState().corrected(id, before.text, text);
          return true;
        } catch (err) {
          toast(errorMessage(err), 'error');
          return false;
        }
      },
      async renameSpeaker(speaker, name) {
        const id = get().id;
        if (!id) return;
        try {
          // The voice is remembered under the name too (People), so later recordings show it.
          const named = await api.invoke('people.nameSpeaker', { id, speaker, name, remember: true });
          whole(unpackTranscript(await api.invoke('library.get', { id })));
          if (named.note) toast(named.note, 'info');
        } catch (err) {
          toast(errorMessage(err), 'error');
        }
      },
      applyTranscript(t) {
        if (t.item.id === get().id) whole(t);
      },
    };
  };

export const useTranscript = create<TranscriptState>()(transcriptState(bridgeApi));

/** The original of a corrected word: from the contract when it carries one, else this session's record. */
export function originalOf(word: Word, index: number, corrected: Record<number, string>): string | null {
  const fromContract = word.original;
  if (typeof fromContract === 'string' && fromContract !== word.text) return fromContract;
  return corrected[index] ?? null;
}

/**
 * Opens what the app asks to open (useApp's `open`), in the same turn as the
 * click: the request is on its way while the screen changes, not after the
 * transcript screen has mounted. And when the library changes (a job
 * completed, a rename, a delete), reloads what is open. Called once from main.tsx.
 */
export function connectTranscript(api: VerbatimApi): () => void {
  const offOpen = useApp.subscribe((s, prev) => {
    if (s.open && s.open !== prev.open) void useTranscript.getState().open(s.open.id, s.open.atMs, s.open.play);
  });
  const offChanged = api.on('library.changed', (c) => {
    const id = useTranscript.getState().id;
    if (!id || !c.ids.includes(id)) return;
    if (c.reason === 'deleted') {
      // Said only to someone reading it; the library shows its own list.
      const screen = useApp.getState().screen;
      if (screen === 'transcript' || screen === 'subtitles') {
        toast('This recording was deleted.', 'info');
        useApp.getState().setScreen('library');
      }
      return;
    }
    void api.invoke('library.get', { id }).then(
      (t) => useTranscript.getState().applyTranscript(unpackTranscript(t)),
      () => undefined,
    );
  });
  return () => {
    offOpen();
    offChanged();
  };
}
