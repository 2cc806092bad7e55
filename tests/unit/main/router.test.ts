import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src/shared/errors';
import { Router, type Sender } from '../../../src/main/ipc/router';
import { SettingsService } from '../../../src/main/services/settings';
import { registerSettingsHandlers } from '../../../src/main/ipc/settings';
import { defaultSettings, type Settings } from '../../../src/shared/settings';

const trusted: Sender = { kind: 'host', tokenValid: true };
const silent = { error: vi.fn() };

function memoryBackend(initial: unknown = {}) {
  let stored: unknown = initial;
  return { read: () => stored, write: (v: Settings) => void (stored = v), get stored() { return stored; } };
}

describe('Router (typed handle)', () => {
  it('refuses untrusted senders before anything else', async () => {
    const r = new Router((s) => s.kind === 'host' && s.tokenValid, silent);
    r.handle('settings.get', () => ({ ...defaultSettings, theme: 'dark', region: 'us' }));
    const reply = await r.dispatch('settings.get', undefined, { sender: { kind: 'host', tokenValid: false } });
    expect(reply).toEqual({ ok: false, error: { code: 'forbidden', message: expect.any(String) } });
  });

  it('answers bad_request for unknown channels and invalid input', async () => {
    const r = new Router(() => true, silent);
    const handler = vi.fn((): Settings => ({ ...defaultSettings, theme: 'dark', region: 'us' }));
    r.handle('settings.set', handler);
    expect(await r.dispatch('settings.nuke', {}, { sender: trusted })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const bad = await r.dispatch('settings.set', { theme: 42 }, { sender: trusted });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('theme') } });
    expect(handler).not.toHaveBeenCalled();
  });

  it('validates the handler output', async () => {
    const r = new Router(() => true, silent);
    // A handler that breaks its contract must not leak the bad value.
    r.handle('settings.get', () => ({ theme: 'neon' }) as unknown as Settings);
    const reply = await r.dispatch('settings.get', undefined, { sender: trusted });
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
    expect(silent.error).toHaveBeenCalled();
  });

  it('turns AppErrors into typed errors and hides internal ones', async () => {
    const r = new Router(() => true, silent);
    r.handle('settings.get', () => {
      throw new AppError('invalid_key', 'The API key was refused.');
    });
    r.handle('app.info', () => {
      throw new Error('secret stack detail');
    });
    expect(await r.dispatch('settings.get', undefined, { sender: trusted })).toEqual({
      ok: false,
      error: { code: 'invalid_key', message: 'The API key was refused.' },
    });
    const internal = await r.dispatch('app.info', undefined, { sender: trusted });
    expect(internal).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(internal)).not.toContain('secret stack detail');
  });

  it('answers unavailable for a contract channel with no handler', async () => {
    const r = new Router(() => true, silent);
    expect(await r.dispatch('app.info', undefined, { sender: trusted })).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });

  it('emits only valid event payloads', () => {
    const r = new Router(() => true, silent);
    const seen: unknown[] = [];
    r.subscribe((e, p) => seen.push([e, p]));
    r.emit('settings.changed', { ...defaultSettings, theme: 'dark', region: 'eu' });
    r.emit('settings.changed', { theme: 'bad' } as unknown as Settings);
    expect(seen).toEqual([['settings.changed', { ...defaultSettings, theme: 'dark', region: 'eu' }]]);
  });
});

describe('settings service', () => {
  it('stores a patch, emits the change and keeps valid fields of a damaged store', async () => {
    const backend = memoryBackend({ theme: 'dark', region: 'nowhere' });
    const service = new SettingsService(backend);
    expect(service.get()).toEqual({ ...defaultSettings, theme: 'dark', region: 'local' });
    const r = new Router(() => true, silent);
    registerSettingsHandlers(r, service);
    const events: unknown[] = [];
    r.subscribe((e, p) => events.push([e, p]));
    const out = await r.call('settings.set', { region: 'eu' });
    const want = { ...defaultSettings, theme: 'dark', region: 'eu' };
    expect(out).toEqual(want);
    expect(backend.stored).toEqual(want);
    expect(events).toEqual([['settings.changed', want]]);
  });
});
