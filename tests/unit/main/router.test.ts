import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src/shared/errors';
import { Router, type Sender } from '../../../src/main/ipc/router';
import { SettingsService } from '../../../src/main/services/settings';
import { registerSettingsHandlers } from '../../../src/main/ipc/settings';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSecretBox } from '../../../src/main/platform/host';
import { SealedFile } from '../../../src/main/services/sealed-file';
import { defaultSettings, type Settings, type SettingsView } from '../../../src/shared/settings';
import { call } from '../../support/router';

const view = (s: Partial<Settings> = {}): SettingsView => ({ ...defaultSettings, webhookAuthHeaderSaved: false, ...s });

const trusted: Sender = { kind: 'host', tokenValid: true };
const silent = { error: vi.fn() };

function memoryBackend(initial: unknown = {}) {
  let stored: unknown = initial;
  return {
    read: () => stored,
    write: (v: Settings) => void (stored = v),
    get stored() {
      return stored;
    },
  };
}

describe('Router (typed handle)', () => {
  it('refuses untrusted senders before anything else', async () => {
    const r = new Router((s) => s.kind === 'host' && s.tokenValid, silent);
    r.handle('settings.get', () => view({ theme: 'dark', region: 'us' }));
    const reply = await r.dispatch('settings.get', undefined, { sender: { kind: 'host', tokenValid: false } });
    expect(reply).toEqual({ ok: false, error: { code: 'forbidden', message: expect.any(String) } });
  });

  it('answers bad_request for unknown channels and invalid input', async () => {
    const r = new Router(() => true, silent);
    const handler = vi.fn((): SettingsView => view({ theme: 'dark', region: 'us' }));
    r.handle('settings.set', handler);
    expect(await r.dispatch('settings.nuke', {}, { sender: trusted })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const bad = await r.dispatch('settings.set', { theme: 42 }, { sender: trusted });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('theme') } });
    expect(handler).not.toHaveBeenCalled();
  });

  it('validates the handler output', async () => {
    const r = new Router(() => true, silent);
    // A handler that breaks its contract must not leak the bad value.
    r.handle('settings.get', () => ({ theme: 'neon' }) as unknown as SettingsView);
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
    r.emit('settings.changed', view({ theme: 'dark', region: 'eu' }));
    r.emit('settings.changed', { theme: 'bad' } as unknown as SettingsView);
    expect(seen).toEqual([['settings.changed', view({ theme: 'dark', region: 'eu' })]]);
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
    const out = await call(r, 'settings.set', { region: 'eu' });
    const want = { ...defaultSettings, theme: 'dark', region: 'eu' } as const;
    expect(out).toEqual(view(want));
    expect(backend.stored).toEqual(want);
    expect(events).toEqual([['settings.changed', view(want)]]);
  });

  it('seals the webhook secret apart: never in the settings file, never in a reply or event, only main reads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verbatim-settings-'));
    try {
      // An older Verbatim kept the secret in the settings file: it moves into the sealed file at start.
      const backend = memoryBackend({ webhookUrl: 'https://hooks.example.org/t', webhookAuthHeaderValue: 'old-secret' });
      const sealed = new SealedFile(new FileSecretBox(join(dir, 'master')), join(dir, 'secrets', 'webhook-auth.bin'), 'no keyring');
      const service = new SettingsService(backend, sealed);
      expect(JSON.stringify(backend.stored)).not.toContain('old-secret');
      expect(service.webhookAuthHeaderValue()).toBe('old-secret');
      expect(statSync(sealed.path).mode & 0o777).toBe(0o600);
      expect(readFileSync(sealed.path).toString('latin1')).not.toContain('old-secret');

      const r = new Router(() => true, silent);
      registerSettingsHandlers(r, service);
      const events: unknown[] = [];
      r.subscribe((e, p) => events.push(p));
      const out = await call(r, 'settings.set', { webhookAuthHeaderName: 'X-Team', webhookAuthHeaderValue: 'new-secret' });
      expect(out).toMatchObject({ webhookAuthHeaderName: 'X-Team', webhookAuthHeaderSaved: true });
      expect(JSON.stringify([out, events, backend.stored, await call(r, 'settings.get', undefined)])).not.toMatch(/secret/);
      expect(new SettingsService(backend, sealed).webhookAuthHeaderValue()).toBe('new-secret');
      // A later patch without the value keeps it; '' forgets it.
      await call(r, 'settings.set', { theme: 'light' });
      expect(service.webhookAuthHeaderValue()).toBe('new-secret');
      expect(await call(r, 'settings.set', { webhookAuthHeaderValue: '' })).toMatchObject({ webhookAuthHeaderSaved: false });
      expect(service.webhookAuthHeaderValue()).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
