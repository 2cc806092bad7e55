/**
 * The open subtitle document: its cues, selection, profile and undo/redo
 * history. Every edit runs a command of the registry in src/shared/subtitles
 * (`perform`), lands here at once, and is sent to main as that command (its
 * name, argument and the view: a few hundred bytes, whatever it changes), in
 * order; main runs the same `perform` and answers a digest of what it stored,
 * and a digest that differs from this one's reopens the document. Undo/redo
 * of an edit made here apply its splice here too; of one loaded with the
 * document (main keeps it), main undoes it and the document is read again.
 */
import { lastStartingBy } from '../../../shared/timeline';
import { create, type StateCreator } from 'zustand';
import {
  applySplice,
  checkCue,
  commandLabel,
  commands,
  defaultProfile,
  diffCues,
  findProfile,
  invertSplice,
  type Command,
  type CommandArg,
  type CommandName,
  type Cue,
  type Issue,
  type RulesProfile,
  type Splice,
} from '../../../shared/subtitles/index';
import { toRanges, unpackCues } from '../../../shared/subtitles/cue-columns';
import { cuesDigest, digestAfter, knownDigest } from '../../../shared/subtitles/digest';
import type { VerbatimApi } from '../../../shared/ipc';
import type { SubtitleRun } from '../../../shared/ipc/subtitles';
import { api as bridgeApi, errorMessage } from '../bridge';
import { subtitleSource } from './subtitleFiles';
import { toast } from './toasts';
import { useTranscript } from './transcript';

/** An edit in the history: its splice when it was made here; without one, main alone holds it (it came with the document). */
export interface StackEntry {
  label: string;
  splice?: Splice;
}

export interface SubtitlesState {
  id: string | null;
  loading: boolean;
  error: string | null;
  cues: Cue[];
  header: string[];
  trailer: string[];
  edited: boolean;
  profileId: string;
  profiles: RulesProfile[];
  undoStack: StackEntry[];
  redoStack: StackEntry[];
  selection: number[];
  caret: number | null;
  /** The cue being played (follows the audio), or -1. */
  playing: number;
  loop: boolean;
  /**
   * A save has been in flight for longer than SLOW_SAVE_MS (the status line says "Saving…"). A save that
   * returns at once changes nothing on screen: "Saving…" flashing on every keystroke would be noise for the
   * eye and for a screen reader, and a re-render inside each edit's frame.
   */
  saving: boolean;
  open(id: string): Promise<void>;
  close(): void;
  run<N extends CommandName>(name: N, ...arg: CommandArg<N> extends undefined ? [arg?: undefined] : [arg: CommandArg<N>]): boolean;
  /** A command found by its key (commands.ts `keyCommandFor`): run by its name. */
  runCommand(cmd: Command): boolean;
  undo(): void;
  redo(): void;
  select(index: number, extend?: boolean): void;
  setCaret(at: number | null): void;
  setProfile(id: string): Promise<void>;
  saveProfile(p: RulesProfile): Promise<boolean>;
  resetToGenerated(): void;
  /** A subtitle file's text read as the cues, header and trailer (undoable); `name` is the file's, `file` the picked one (main reads a big one itself). */
  importOnto(content: string, name: string, file?: File): void;
  setPlaying(index: number): void;
  setLoop(on: boolean): void;
}

/** Where the player is (ms): read by commands that use the playhead, written once a frame while playing. */
let playheadMs = 0;
export const playhead = {
  get: (): number => playheadMs,
  set: (ms: number): void => {
    playheadMs = ms;
  },
};

/** Main's version of the document, and the queue of requests that keeps main's history in the same order as ours. */
let serverVersion = 0;
let queue: Promise<unknown> = Promise.resolve();
let openSeq = 0;
/** Requests still in flight, and the timer that says "Saving…" once one takes long. */
let inFlight = 0;
let slowTimer: ReturnType<typeof setTimeout> | undefined;
const SLOW_SAVE_MS = 400;

/**
 * Resolves once every edit made so far has reached main (whether it was stored or refused). An export or
 * anything else that reads the document from main waits for it, so the last edits are always in the file.
 */
export function saved(): Promise<void> {
  return queue.then(
    () => undefined,
    () => undefined,
  );
}

export function currentProfile(s: Pick<SubtitlesState, 'profileId' | 'profiles'>): RulesProfile {
  return findProfile(s.profileId, s.profiles) ?? defaultProfile;
}

/** The store's state and actions over `api` (zustand's StateCreator, apart from create: a test builds one against a fake api). */
export const subtitlesState =
  (api: VerbatimApi): StateCreator<SubtitlesState> =>
  (set, get) => {
    /**
     * Sends one request after the ones before it. A failure reloads the document from main so both agree again;
     * so does an answer whose digest is not that of `expected` (the cues this edit left here), or any answer with
     * `reopen` (an undo of an edit only main holds).
     */
    const send = (fn: (version: number) => Promise<{ version: number; digest: string }>, expected: { cues: Cue[] } | { reopen: true }): void => {
      const id = get().id;
      if (inFlight++ === 0) slowTimer = setTimeout(() => set({ saving: true }), SLOW_SAVE_MS);
      queue = queue
        .then(() => fn(serverVersion))
        .then(
          (r) => {
            serverVersion = r.version;
            const differs = 'reopen' in expected || r.digest !== cuesDigest(expected.cues);
            // Not awaited: open() waits for this queue, which waits for this handler (awaiting it hung every later edit).
            if (differs && id && get().id === id) void get().open(id);
          },
          (err: unknown) => {
            toast(`${errorMessage(err)} The subtitles were reloaded as last saved.`, 'error');
            if (id && get().id === id) void get().open(id);
          },
        )
        .finally(() => {
          if (--inFlight > 0) return;
          clearTimeout(slowTimer);
          if (get().saving) set({ saving: false });
        });
    };

    /** Runs a command here and sends it to main; `file`: replaceFrom's picked file. */
    const perform = (name: CommandName, arg: unknown, file?: File): boolean => {
      const s = get();
      const id = s.id;
      if (!id) return false;
      const words = useTranscript.getState().transcript?.words ?? [];
      // Whole milliseconds, as main gets them, so both sides perform on the same playhead.
      const view = { selection: s.selection, caret: s.caret, playheadMs: Math.max(0, Math.round(playhead.get())) };
      const r = (commands[name] as Command<unknown>).perform({ cues: s.cues, ...view, words, profile: currentProfile(s) }, arg);
      if (!r) return false;
      const splice = diffCues(s.cues, r.cues);
      if (!splice && !r.header && !r.trailer) return false;
      // The digest main's answer is checked against, from the cues this edit touched (not a pass over all of them).
      digestAfter(s.cues, splice?.at ?? 0, splice?.remove.length ?? 0, splice?.insert.length ?? 0, r.cues);
      const label = commandLabel(name, arg);
      set((st) => ({
        cues: r.cues,
        edited: true,
        ...(splice ? { undoStack: [...st.undoStack, { label, splice }], redoStack: [] } : {}),
        selection: r.selection ?? st.selection.filter((i) => i < r.cues.length),
        ...(r.header ? { header: r.header } : {}),
        ...(r.trailer ? { trailer: r.trailer } : {}),
      }));
      const input = { id, command: name, args: arg, view: { ...view, selection: toRanges(view.selection) } };
      // replaceFrom: its file as main takes it (a big one by reference: subtitleSource), read or uploaded while earlier edits go out.
      const replace = file ? (arg as { content: string; name: string }) : null;
      const wire = replace && subtitleSource({ name: replace.name, text: replace.content, file }).then((src) => ({ ...src, name: replace.name }));
      // Awaited in the queue; a failure is reported there (this only keeps it from counting as unhandled meanwhile).
      wire?.catch(() => undefined);
      send(async (version) => api.invoke('subtitles.run', { ...input, ...(wire ? { args: await wire } : {}), version } as SubtitleRun), { cues: r.cues });
      return true;
    };

    return {
      id: null,
      loading: false,
      error: null,
      cues: [],
      header: [],
      trailer: [],
      edited: false,
      profileId: defaultProfile.id,
      profiles: [],
      undoStack: [],
      redoStack: [],
      selection: [],
      caret: null,
      playing: -1,
      loop: false,
      saving: false,
      async open(id) {
        const mine = ++openSeq;
        if (get().id !== id) set({ id, loading: true, error: null, cues: [], selection: [], undoStack: [], redoStack: [] });
        try {
          await queue;
          const doc = await api.invoke('subtitles.open', { id });
          if (mine !== openSeq) return;
          serverVersion = doc.version;
          const cues = unpackCues(doc.cues);
          knownDigest(cues, doc.digest);
          set((s) => ({
            loading: false,
            cues,
            header: doc.header,
            trailer: doc.trailer,
            edited: doc.edited,
            profileId: doc.profileId,
            profiles: doc.profiles,
            undoStack: doc.undo.map((label) => ({ label })),
            redoStack: doc.redo.map((label) => ({ label })),
            selection: s.selection.filter((i) => i < cues.length).length ? s.selection.filter((i) => i < cues.length) : cues.length ? [0] : [],
          }));
        } catch (err) {
          if (mine === openSeq) set({ loading: false, error: errorMessage(err) });
        }
      },
      close() {
        openSeq++;
        set({ id: null, cues: [], selection: [], undoStack: [], redoStack: [], error: null, playing: -1, loop: false });
      },
      run(name, ...args) {
        return perform(name, args[0]);
      },
      runCommand(cmd) {
        // Key commands take no argument (commands.ts `commandForKey`).
        return cmd.name in commands ? get().run(cmd.name as 'delete') : false;
      },
      undo() {
        const s = get();
        const entry = s.undoStack[s.undoStack.length - 1];
        const id = s.id;
        if (!entry || !id) return;
        const step = (version: number) => api.invoke('subtitles.undo', { id, version });
        if (!entry.splice) {
          set({ undoStack: s.undoStack.slice(0, -1), redoStack: [entry, ...s.redoStack] });
          return send(step, { reopen: true });
        }
        const cues = applySplice(s.cues, invertSplice(entry.splice));
        digestAfter(s.cues, entry.splice.at, entry.splice.insert.length, entry.splice.remove.length, cues);
        set({
          cues,
          undoStack: s.undoStack.slice(0, -1),
          redoStack: [entry, ...s.redoStack],
          selection: [Math.min(entry.splice.at, Math.max(0, cues.length - 1))],
        });
        send(step, { cues });
      },
      redo() {
        const s = get();
        const entry = s.redoStack[0];
        const id = s.id;
        if (!entry || !id) return;
        const step = (version: number) => api.invoke('subtitles.redo', { id, version });
        if (!entry.splice) {
          set({ undoStack: [...s.undoStack, entry], redoStack: s.redoStack.slice(1) });
          return send(step, { reopen: true });
        }
        const cues = applySplice(s.cues, entry.splice);
        digestAfter(s.cues, entry.splice.at, entry.splice.remove.length, entry.splice.insert.length, cues);
        set({
          cues,
          undoStack: [...s.undoStack, entry],
          redoStack: s.redoStack.slice(1),
          selection: [Math.min(entry.splice.at, Math.max(0, cues.length - 1))],
        });
        send(step, { cues });
      },
      select(index, extend = false) {
        const n = get().cues.length;
        if (index < 0 || index >= n) return;
        if (!extend) return set({ selection: [index], caret: null });
        const first = get().selection[0] ?? index;
        const [a, b] = first <= index ? [first, index] : [index, first];
        set({ selection: Array.from({ length: b - a + 1 }, (_, k) => a + k) });
      },
      setCaret(at) {
        set({ caret: at });
      },
      async setProfile(profileId) {
        const id = get().id;
        set({ profileId });
        if (!id) return;
        // In the edits' queue: main must split, merge and fix by the profile the edits before and after were made by.
        const sent = queue.then(() => api.invoke('subtitles.setProfile', { id, profileId }));
        queue = sent.catch(() => undefined);
        await sent.catch((err: unknown) => toast(errorMessage(err), 'error'));
      },
      async saveProfile(p) {
        try {
          const r = await api.invoke('subtitles.saveProfile', { profile: p });
          set({ profiles: r.profiles });
          await get().setProfile(p.id);
          return true;
        } catch (err) {
          toast(errorMessage(err), 'error');
          return false;
        }
      },
      resetToGenerated() {
        get().run('rebuild');
      },
      importOnto(content, name, file) {
        perform('replaceFrom', { content, name }, file);
      },
      setPlaying(index) {
        if (get().playing !== index) set({ playing: index });
      },
      setLoop(loop) {
        set({ loop });
      },
    };
  };

export const useSubtitles = create<SubtitlesState>()(subtitlesState(bridgeApi));

/** The cue at a time (binary search over starts), or -1 between cues. */
export function cueAt(cues: readonly Cue[], ms: number): number {
  const found = lastStartingBy(cues, ms);
  return found >= 0 && ms < cues[found]!.end ? found : -1;
}

/**
 * The rules check of one cue, kept per cue object: an edit makes new objects
 * only for the cues it touched, so re-checking 5,000 cues after it is mostly
 * lookups (a cue's result also depends on the one after it and the profile).
 */
const checked = new WeakMap<Cue, { next: Cue | undefined; previous: Cue | undefined; profile: RulesProfile; issues: Issue[] }>();
export function cachedCheck(cues: readonly Cue[], i: number, profile: RulesProfile): Issue[] {
  const c = cues[i]!;
  const hit = checked.get(c);
  if (hit && hit.next === cues[i + 1] && hit.previous === cues[i - 1] && hit.profile === profile) {
    // Most cues break no rule, or have not moved: no new array for them (5,000 allocations an edit otherwise).
    if (hit.issues.every((x) => x.cue === i)) return hit.issues;
    hit.issues = hit.issues.map((x) => ({ ...x, cue: i }));
    return hit.issues;
  }
  const issues = checkCue(cues, i, profile);
  checked.set(c, { next: cues[i + 1], previous: cues[i - 1], profile, issues });
  return issues;
}

export function checkAll(cues: readonly Cue[], profile: RulesProfile): Issue[] {
  const out: Issue[] = [];
  for (let i = 0; i < cues.length; i++) {
    const issues = cachedCheck(cues, i, profile);
    if (issues.length) out.push(...issues);
  }
  return out;
}
