// The settings store takes main's answers in order: an answer to an earlier request never undoes a change made here
// since (the first load answered after the user picked "Custom" put the region back, and the address field with it).
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { initialSettings } from '../../../../src/renderer/src/components/labels';
import { settingsState } from '../../../../src/renderer/src/stores/settings';
import type { SettingsView } from '../../../../src/shared/settings';
import { FakeApi } from '../support/fake-api';

/** A promise the test settles when it chooses: main's answer, held back as a busy machine holds it. */
function held<T>(): { promise: Promise<T>; answer(v: T): void } {
  let answer!: (v: T) => void;
  const promise = new Promise<T>((r) => (answer = r));
  return { promise, answer };
}

describe('settings store', () => {
  it('keeps a change made while the first load was on its way, and ignores main telling older settings meanwhile', async () => {
    const saved: SettingsView = { ...initialSettings, region: 'local' };
    const getAnswer = held<SettingsView>();
    const setAnswer = held<SettingsView>();
    const api = new FakeApi().handle('settings.get', () => getAnswer.promise).handle('settings.set', () => setAnswer.promise);
    const store = create(settingsState(api));

    const loading = store.getState().load();
    const updating = store.getState().update({ region: 'custom' });
    expect(store.getState().settings.region).toBe('custom');

    // The load's answer (taken before the change) comes now, then main tells the change of another window before it.
    getAnswer.answer(saved);
    await loading;
    expect(store.getState().settings.region).toBe('custom');
    expect(store.getState().loaded).toBe(true);
    store.getState().changed(saved);
    expect(store.getState().settings.region).toBe('custom');

    setAnswer.answer({ ...saved, region: 'custom' });
    expect(await updating).toBe(true);
    expect(store.getState().settings.region).toBe('custom');
    // With nothing on its way, what main tells is taken.
    store.getState().changed({ ...saved, region: 'eu' });
    expect(store.getState().settings.region).toBe('eu');
  });

  it('takes only the answer to the latest of two changes, so the first answer does not undo the second', async () => {
    const base: SettingsView = { ...initialSettings, region: 'custom', customRestUrl: '' };
    const answers = [held<SettingsView>(), held<SettingsView>()];
    let n = 0;
    const api = new FakeApi().handle('settings.set', () => (answers[n++] as ReturnType<typeof held<SettingsView>>).promise);
    const store = create(settingsState(api));
    store.setState({ settings: base, loaded: true });

    const first = store.getState().update({ theme: 'dark' });
    const second = store.getState().update({ customRestUrl: 'http://127.0.0.1:8787' });
    answers[0]!.answer({ ...base, theme: 'dark' });
    await first;
    expect(store.getState().settings).toMatchObject({ theme: 'dark', customRestUrl: 'http://127.0.0.1:8787' });
    answers[1]!.answer({ ...base, theme: 'dark', customRestUrl: 'http://127.0.0.1:8787' });
    await second;
    expect(store.getState().settings).toMatchObject({ theme: 'dark', customRestUrl: 'http://127.0.0.1:8787' });
  });

  it('keeps a change made before the bridge opened, whose answer comes after the first load asked at the opening', async () => {
    const saved: SettingsView = { ...initialSettings, theme: 'system' };
    const setAnswer = held<SettingsView>();
    const getAnswer = held<SettingsView>();
    const api = new FakeApi().handle('settings.set', () => setAnswer.promise).handle('settings.get', () => getAnswer.promise);
    const store = create(settingsState(api));
    // The change is queued until the bridge opens; at the opening the first load goes out first, then the queue.
    const updating = store.getState().update({ theme: 'dark' });
    const loading = store.getState().load();
    getAnswer.answer(saved);
    await loading;
    expect(store.getState()).toMatchObject({ loaded: true, settings: { theme: 'dark' } });
    setAnswer.answer({ ...saved, theme: 'dark' });
    expect(await updating).toBe(true);
    expect(store.getState().settings.theme).toBe('dark');
  });
});
