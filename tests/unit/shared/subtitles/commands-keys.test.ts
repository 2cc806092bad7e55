// The subtitle editor's key map: every key press has at most one command (edits and view commands alike), and a press two commands claim warns.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  keyCommandFor,
  keyCommands,
  keyConflicts,
  mergeCommand,
  type EditorControls,
  type KeyCommand,
  type KeyLike,
} from '../../../../src/shared/subtitles/index';

const press = (key: string, mods: Partial<Omit<KeyLike, 'key'>> = {}): KeyLike => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

afterEach(() => vi.restoreAllMocks());

describe('subtitle editor keys', () => {
  it('gives no key press to two commands', () => {
    expect(keyConflicts()).toEqual([]);
  });

  it('catches two commands claiming one key, in the test and with a warning at run time', () => {
    const clash: KeyCommand = { kind: 'edit', command: { ...mergeCommand, name: 'mergeAgain' } as never };
    const registry = [...keyCommands(), clash];
    const conflicts = keyConflicts(registry);
    expect(conflicts.length).toBeGreaterThan(0);
    expect(conflicts).toContainEqual({ key: 'Alt+m', commands: ['merge', 'mergeAgain'] });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(keyCommandFor(press('m', { altKey: true }), registry)?.command.name).toBe('merge');
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/Alt\+m is claimed by merge and mergeAgain/));
  });

  it('finds undo, redo, loop and play/pause as commands, and leaves typing alone', () => {
    const name = (e: KeyLike) => keyCommandFor(e)?.command.name ?? null;
    expect(name(press('z', { ctrlKey: true }))).toBe('undo');
    expect(name(press('z', { metaKey: true }))).toBe('undo');
    expect(name(press('Z', { ctrlKey: true, shiftKey: true }))).toBe('redo');
    expect(name(press('y', { ctrlKey: true }))).toBe('redo');
    expect(name(press('z', { ctrlKey: true, typing: true }))).toBeNull();
    expect(name(press('l', { altKey: true }))).toBe('loop');
    expect(name(press(' '))).toBe('play');
    expect(name(press(' ', { typing: true }))).toBeNull();
    expect(name(press(' ', { onButton: true }))).toBeNull();
    expect(name(press('s', { altKey: true, typing: true }))).toBe('split');
  });

  it('runs a view command against the controls it is given', () => {
    const calls: string[] = [];
    const controls = (media: boolean): EditorControls => ({
      undo: () => calls.push('undo'),
      redo: () => calls.push('redo'),
      toggleLoop: () => calls.push('loop'),
      togglePlay: () => (media ? (calls.push('play'), true) : false),
    });
    const run = (e: KeyLike, media = true) => {
      const k = keyCommandFor(e);
      return k?.kind === 'view' ? k.command.run(controls(media)) : null;
    };
    expect(run(press('z', { ctrlKey: true }))).toBe(true);
    expect(run(press('l', { altKey: true }))).toBe(true);
    expect(run(press(' '))).toBe(true);
    // Nothing to play: the key is left to the page.
    expect(run(press(' '), false)).toBe(false);
    expect(calls).toEqual(['undo', 'loop', 'play']);
  });
});
