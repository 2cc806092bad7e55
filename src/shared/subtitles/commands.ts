/**
 * The editor's command registry (Excalidraw's actions): each command has a
 * name, a label, a shortcut with its key test, and a `perform` that maps the
 * editor state to a new cue list, or null when it does not apply. The editor
 * runs every edit through `perform` and records the splice, so each command
 * is undoable with no code of its own. Undo, redo, loop and play/pause are
 * commands too (view commands, like Excalidraw's actionHistory): they act on
 * the controls the view hands them. A key press finds its one command with
 * `keyCommandFor`; `keyConflicts` finds two commands claiming one key.
 */
import { buildCuesWith } from './build';
import { applyFix, fixAll, type FixId } from './check';
import { diffCues } from './history';
import { cutLongLines, fitBlocks, fitCues } from './limits';
import { parseSubtitles } from './parse';
import { deleteCues, insertCue, mergeWithNext, retimeCue, setEndAt, setStartAt, shiftCues, splitCue, editText, syncTwoPoints } from './operations';
import type { RulesProfile } from './profiles';
import type { Cue, TimedWord } from './types';

export interface EditorState {
  cues: Cue[];
  /** Selected cue indexes, ascending; the first is the current cue. */
  selection: number[];
  /** Caret position in the current cue's text (for split). */
  caret: number | null;
  playheadMs: number;
  words: readonly TimedWord[];
  profile: RulesProfile;
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The key goes to a text field being typed in (its own undo, its own spaces). */
  typing?: boolean;
  /** The key goes to a focused button (Space presses it). */
  onButton?: boolean;
}

export interface CommandResult {
  cues: Cue[];
  selection?: number[];
  /** The WebVTT blocks before the first cue and after the last, when the command replaces them (rebuild, replaceFrom). */
  header?: string[];
  trailer?: string[];
}

export interface Command<A = undefined> {
  name: string;
  label: string;
  /** As shown to the user, and for aria-keyshortcuts. */
  shortcut?: string;
  keyTest?: (e: KeyLike) => boolean;
  perform(s: EditorState, arg: A): CommandResult | null;
}

const alt =
  (key: string, shift = false) =>
  (e: KeyLike) =>
    e.altKey && !e.ctrlKey && !e.metaKey && e.shiftKey === shift && e.key.toLowerCase() === key.toLowerCase();
const changed = (before: Cue[], after: Cue[], selection?: number[]): CommandResult | null => (after === before ? null : { cues: after, selection });
/** Indexes of the cues an edit made (new objects), i.e. where the edited cues are now: inside the edit's splice, what it did not carry over. */
const fresh = (before: readonly Cue[], after: readonly Cue[]): number[] => {
  const splice = diffCues(before, after);
  if (!splice) return [];
  const kept = new Set(splice.remove);
  const out: number[] = [];
  splice.insert.forEach((c, k) => !kept.has(c) && out.push(splice.at + k));
  return out;
};
const current = (s: EditorState): number | undefined => s.selection[0];

export const editTextCommand: Command<{ index: number; text: string }> = {
  name: 'editText',
  label: 'Edit text',
  perform: (s, { index, text }) => changed(s.cues, editText(s.cues, index, text)),
};

export const splitCommand: Command<{ index?: number; at?: number } | undefined> = {
  name: 'split',
  label: 'Split at the cursor',
  shortcut: 'Alt+S',
  keyTest: alt('s'),
  perform(s, arg) {
    const i = arg?.index ?? current(s);
    if (i === undefined || !s.cues[i]) return null;
    const at = arg?.at ?? s.caret ?? Math.floor(s.cues[i]!.text.length / 2);
    return changed(s.cues, splitCue(s.cues, i, at, s.words, s.profile), [i]);
  },
};

export const mergeCommand: Command<{ index?: number } | undefined> = {
  name: 'merge',
  label: 'Merge with next',
  shortcut: 'Alt+M',
  keyTest: alt('m'),
  perform(s, arg) {
    const i = arg?.index ?? current(s);
    return i === undefined ? null : changed(s.cues, mergeWithNext(s.cues, i, s.profile), [i]);
  },
};

export const insertCommand: Command<{ atMs?: number } | undefined> = {
  name: 'insert',
  label: 'Insert a cue',
  shortcut: 'Alt+N',
  keyTest: alt('n'),
  perform(s, arg) {
    const i = current(s) ?? -1;
    const after = insertCue(s.cues, i, arg?.atMs);
    const at = after.findIndex((c, k) => c !== s.cues[k]);
    return changed(s.cues, after, [at < 0 ? after.length - 1 : at]);
  },
};

export const deleteCommand: Command = {
  name: 'delete',
  label: 'Delete',
  shortcut: 'Alt+Delete',
  keyTest: (e) => e.altKey && e.key === 'Delete',
  perform(s) {
    if (!s.selection.length) return null;
    const first = s.selection[0]!;
    const after = deleteCues(s.cues, s.selection);
    return changed(s.cues, after, after.length ? [Math.min(first, after.length - 1)] : []);
  },
};

/** The selection (or every cue) moved by `ms`; the same cues stay selected even if the shift reordered them. */
function shifted(s: EditorState, ms: number, all: boolean): CommandResult | null {
  if (!all && !s.selection.length) return null;
  const after = shiftCues(s.cues, all ? null : s.selection, ms);
  return changed(s.cues, after, all ? s.selection : fresh(s.cues, after));
}

const shiftBy = (ms: number, all: boolean): Command => ({
  name: `shift${all ? 'All' : ''}${ms > 0 ? 'Later' : 'Earlier'}`,
  label: `${all ? 'Shift all' : 'Shift'} ${ms > 0 ? 'later' : 'earlier'} by ${Math.abs(ms)} ms`,
  shortcut: `Alt+${all ? 'Shift+' : ''}${ms > 0 ? '→' : '←'}`,
  keyTest: (e) => e.altKey && !e.ctrlKey && e.shiftKey === all && e.key === (ms > 0 ? 'ArrowRight' : 'ArrowLeft'),
  perform: (s) => shifted(s, ms, all),
});

export const shiftCommand: Command<{ ms: number; all: boolean }> = {
  name: 'shift',
  label: 'Shift by milliseconds',
  perform: (s, { ms, all }) => shifted(s, ms, all),
};

export const startAtPlayheadCommand: Command = {
  name: 'startAtPlayhead',
  label: 'Set start to the playhead',
  shortcut: 'Alt+[',
  keyTest: (e) => e.altKey && (e.key === '[' || e.key === '{'),
  perform(s) {
    const i = current(s);
    return i === undefined ? null : changed(s.cues, setStartAt(s.cues, i, s.playheadMs));
  },
};

export const endAtPlayheadCommand: Command = {
  name: 'endAtPlayhead',
  label: 'Set end to the playhead',
  shortcut: 'Alt+]',
  keyTest: (e) => e.altKey && (e.key === ']' || e.key === '}'),
  perform(s) {
    const i = current(s);
    return i === undefined ? null : changed(s.cues, setEndAt(s.cues, i, s.playheadMs));
  },
};

export const retimeCommand: Command<{ index: number; start: number; end: number }> = {
  name: 'retime',
  label: 'Retime',
  perform(s, { index, start, end }) {
    const after = retimeCue(s.cues, index, start, end);
    return changed(s.cues, after, fresh(s.cues, after));
  },
};

export const syncCommand: Command<{ a: { from: number; to: number }; b: { from: number; to: number } }> = {
  name: 'sync',
  label: 'Sync by two points',
  perform: (s, { a, b }) => changed(s.cues, syncTwoPoints(s.cues, a, b)),
};

export const fixCommand: Command<{ index: number; fix: FixId }> = {
  name: 'fix',
  label: 'Fix',
  perform: (s, { index, fix }) => changed(s.cues, applyFix(s.cues, index, fix, s.profile, s.words), [index]),
};

export const fixAllCommand: Command = {
  name: 'fixAll',
  label: 'Fix all',
  perform: (s) => changed(s.cues, fixAll(s.cues, s.profile, s.words)),
};

/** Every cue built again from the words by the profile (Reset); the file's WebVTT blocks go with the cues they came with. */
export const rebuildCommand: Command = {
  name: 'rebuild',
  label: 'Reset to generated',
  perform: (s) => {
    const after = buildCuesWith(s.words, s.profile);
    return { cues: after, selection: after.length ? [0] : [], header: [], trailer: [] };
  },
};

/**
 * A subtitle file's text read as the document, the same way on both sides of
 * the bridge: long lines cut, parsed, fitted to the stored limits (as an import
 * as a new item does, subtitle-import.ts).
 */
export function cuesFromContent(content: string): { cues: Cue[]; header: string[]; trailer: string[] } {
  const parsed = parseSubtitles(cutLongLines(content).content);
  return { cues: fitCues(parsed.doc.cues).cues, header: fitBlocks(parsed.doc.header), trailer: fitBlocks(parsed.doc.trailer ?? []) };
}

/** The cues replaced by a subtitle file's (import onto the open recording); `name` is the file's, for the history. */
export const replaceFromCommand: Command<{ content: string; name: string }> = {
  name: 'replaceFrom',
  label: 'Import',
  perform: (s, { content }) => {
    const doc = cuesFromContent(content);
    return { cues: doc.cues, selection: doc.cues.length ? [0] : [], header: doc.header, trailer: doc.trailer };
  },
};

export const commands = {
  editText: editTextCommand,
  split: splitCommand,
  merge: mergeCommand,
  insert: insertCommand,
  delete: deleteCommand,
  shiftEarlier: shiftBy(-100, false),
  shiftLater: shiftBy(100, false),
  shiftAllEarlier: shiftBy(-100, true),
  shiftAllLater: shiftBy(100, true),
  shift: shiftCommand,
  startAtPlayhead: startAtPlayheadCommand,
  endAtPlayhead: endAtPlayheadCommand,
  retime: retimeCommand,
  sync: syncCommand,
  fix: fixCommand,
  fixAll: fixAllCommand,
  rebuild: rebuildCommand,
  replaceFrom: replaceFromCommand,
} as const;

export type CommandName = keyof typeof commands;
/** The argument a command takes (undefined for one that takes none). */
export type CommandArg<N extends CommandName> = Parameters<(typeof commands)[N]['perform']>[1];

/** What the history calls a command's edit: its label, or for an import the file's name. */
export function commandLabel(name: CommandName, arg: unknown): string {
  if (name === 'replaceFrom') return `Import ${(arg as { name: string }).name}`.slice(0, 200);
  return commands[name].label;
}

/** The command a key press runs, if any (only commands that take no argument have shortcuts). */
export function commandForKey(e: KeyLike): Command | null {
  for (const c of Object.values(commands)) if ((c as Command).keyTest?.(e)) return c as Command;
  return null;
}

/** What view commands act on: the history, the loop and the player, as the view provides them. */
export interface EditorControls {
  undo(): void;
  redo(): void;
  toggleLoop(): void;
  /** Plays or pauses; false when there is nothing to play (the key is then left alone). */
  togglePlay(): boolean;
}

/** A command on the view rather than on the cues: it runs against the editor's controls; false leaves the key to the page. */
export interface ViewCommand {
  name: string;
  label: string;
  shortcut: string;
  keyTest: (e: KeyLike) => boolean;
  run(c: EditorControls): boolean;
}

const ctrl = (e: KeyLike) => (e.ctrlKey || e.metaKey) && !e.altKey;

export const undoCommand: ViewCommand = {
  name: 'undo',
  label: 'Undo',
  shortcut: 'Ctrl+Z',
  // While typing, the field's own undo.
  keyTest: (e) => ctrl(e) && !e.shiftKey && e.key.toLowerCase() === 'z' && !e.typing,
  run: (c) => (c.undo(), true),
};

export const redoCommand: ViewCommand = {
  name: 'redo',
  label: 'Redo',
  shortcut: 'Ctrl+Shift+Z',
  keyTest: (e) => ctrl(e) && ((e.shiftKey && e.key.toLowerCase() === 'z') || e.key.toLowerCase() === 'y') && !e.typing,
  run: (c) => (c.redo(), true),
};

export const loopCommand: ViewCommand = {
  name: 'loop',
  label: 'Loop the selected cue',
  shortcut: 'Alt+L',
  keyTest: alt('l'),
  run: (c) => (c.toggleLoop(), true),
};

export const playCommand: ViewCommand = {
  name: 'play',
  label: 'Play or pause',
  shortcut: 'Space',
  keyTest: (e) => e.key === ' ' && !e.altKey && !e.ctrlKey && !e.metaKey && !e.typing && !e.onButton,
  run: (c) => c.togglePlay(),
};

export const viewCommands = { undo: undoCommand, redo: redoCommand, loop: loopCommand, play: playCommand } as const;

export type KeyCommand = { kind: 'edit'; command: Command } | { kind: 'view'; command: ViewCommand };

/** Every command that has a key, edits and view commands alike. */
export function keyCommands(): KeyCommand[] {
  const edits = Object.values(commands as Record<string, Command<never>>).filter((c) => c.keyTest);
  return [
    ...edits.map((c) => ({ kind: 'edit' as const, command: c as unknown as Command })),
    ...Object.values(viewCommands).map((c) => ({ kind: 'view' as const, command: c })),
  ];
}

const warned = new Set<string>();

/** The one command a key press runs, if any. Two commands answering one press is a bug: it warns (once per key) and runs the first. */
export function keyCommandFor(e: KeyLike, registry: readonly KeyCommand[] = keyCommands()): KeyCommand | null {
  const hits = registry.filter((k) => k.command.keyTest?.(e));
  if (hits.length > 1) {
    const id = describeKey(e);
    if (!warned.has(id)) {
      warned.add(id);
      console.warn(`Subtitle editor: ${id} is claimed by ${hits.map((h) => h.command.name).join(' and ')}; running ${hits[0]!.command.name}.`);
    }
  }
  return hits[0] ?? null;
}

/** "Ctrl+Alt+Shift+K": a key press as a person would write it. */
export function describeKey(e: KeyLike): string {
  return [e.ctrlKey && 'Ctrl', e.metaKey && 'Meta', e.altKey && 'Alt', e.shiftKey && 'Shift', e.key === ' ' ? 'Space' : e.key].filter(Boolean).join('+');
}

/** Every key press worth checking: letters, digits, punctuation and named keys, with every set of modifiers, typing or not. */
export function allKeyPresses(): KeyLike[] {
  const keys = [
    ..."abcdefghijklmnopqrstuvwxyz0123456789[]{}\\;',./<>?-=_+`~!@#$%^&*()".split(''),
    ' ',
    'Enter',
    'Escape',
    'Tab',
    'Backspace',
    'Delete',
    'Home',
    'End',
    'PageUp',
    'PageDown',
    'ArrowLeft',
    'ArrowRight',
    'ArrowUp',
    'ArrowDown',
    'F1',
  ];
  const out: KeyLike[] = [];
  for (const key of keys)
    for (let m = 0; m < 64; m++)
      out.push({ key, ctrlKey: !!(m & 1), metaKey: !!(m & 2), altKey: !!(m & 4), shiftKey: !!(m & 8), typing: !!(m & 16), onButton: !!(m & 32) });
  return out;
}

/** Key presses that more than one command answers, with their names: empty when every key has at most one command. */
export function keyConflicts(
  registry: readonly KeyCommand[] = keyCommands(),
  presses: readonly KeyLike[] = allKeyPresses(),
): { key: string; commands: string[] }[] {
  const out: { key: string; commands: string[] }[] = [];
  for (const e of presses) {
    const names = registry.filter((k) => k.command.keyTest?.(e)).map((k) => k.command.name);
    if (names.length > 1) out.push({ key: `${describeKey(e)}${e.typing ? ' (typing)' : ''}${e.onButton ? ' (on a button)' : ''}`, commands: names });
  }
  return out;
}
