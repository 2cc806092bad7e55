import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSecretBox, JsonSettingsBackend } from '../../../src/main/platform/host';
import type { SecretBox } from '../../../src/main/platform/types';
import { KeyService, KeyVault, mask } from '../../../src/main/services/keys';
import { SettingsService } from '../../../src/main/services/settings';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-keys-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('key vault', () => {
  it('stores the key encrypted, prefers it over ASSEMBLYAI_API_KEY, and forgets it', () => {
    const vault = new KeyVault(new FileSecretBox(join(dir, 'master')), join(dir, 'data'), 'env-key-1234');
    expect([vault.get(), vault.source()]).toEqual(['env-key-1234', 'env']);
    vault.store('stored-key-abcd');
    expect([vault.get(), vault.source()]).toEqual(['stored-key-abcd', 'vault']);
    expect(readFileSync(join(dir, 'data', 'secrets', 'api-key.bin')).includes('stored-key-abcd')).toBe(false);
    // A new process (new vault object) reads it back.
    expect(new KeyVault(new FileSecretBox(join(dir, 'master')), join(dir, 'data'), undefined).get()).toBe('stored-key-abcd');
    vault.remove();
    expect(vault.source()).toBe('env');
  });

  it('treats a key sealed with a lost master key as absent', () => {
    new KeyVault(new FileSecretBox(join(dir, 'master')), join(dir, 'data'), undefined).store('k-1234567890');
    expect(new KeyVault(new FileSecretBox(join(dir, 'other-master')), join(dir, 'data'), undefined).get()).toBeNull();
  });

  it('refuses to store without encryption, and says what to do instead', () => {
    const none: SecretBox = { available: false, encrypt: () => Buffer.alloc(0), decrypt: () => '' };
    expect(() => new KeyVault(none, dir, undefined).store('k')).toThrow(/ASSEMBLYAI_API_KEY/);
  });

  it('shows only the last four characters', async () => {
    expect(mask('sk-abcdef123456')).toBe('…3456');
    const settings = new SettingsService(new JsonSettingsBackend(join(dir, 's.json')));
    const keys = new KeyService(new KeyVault(new FileSecretBox(join(dir, 'master')), dir, 'sk-env-999777'), settings);
    expect(keys.status()).toMatchObject({ present: true, masked: '…9777', source: 'env', region: 'local', verifiedAt: null });
    await expect(keys.set('has space in it')).rejects.toMatchObject({ code: 'bad_request' });
  });
});

/** A service that answers the key check and remembers every Authorization header it was sent. */
async function keyService(accept: string): Promise<{ url: string; seen: (string | undefined)[]; server: Server }> {
  const seen: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    const ok = req.headers.authorization === accept;
    res
      .writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
      .end(JSON.stringify(ok ? { transcripts: [], page_details: {} } : { error: 'Invalid API key' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('a stored key is bound to the service it was entered for (12.6)', () => {
  it('never sends the stored key to a new custom address: verify asks for the key again', async () => {
    const KEY = 'sk-bound-key-0001';
    const a = await keyService(KEY);
    const b = await keyService(KEY);
    try {
      const settings = new SettingsService(new JsonSettingsBackend(join(dir, 's.json')));
      const vault = new KeyVault(new FileSecretBox(join(dir, 'master')), join(dir, 'data'), undefined);
      const keys = new KeyService(vault, settings);
      settings.set({ customRestUrl: a.url });
      expect(await keys.set(KEY, 'custom')).toMatchObject({ present: true, boundTo: a.url, matchesService: true, lastError: null });
      expect(await keys.verify()).toMatchObject({ verifiedAt: expect.any(String) });

      settings.set({ customRestUrl: b.url });
      expect(keys.status()).toMatchObject({ present: true, boundTo: a.url, matchesService: false });
      await expect(keys.verify()).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/enter the key again/) });
      expect(b.seen).toEqual([]);
      expect(vault.keyFor(`${b.url}/v2/transcript`)).toBeNull();
      expect(vault.keyFor(`${a.url}/v2/transcript`)).toBe(KEY);

      // Entering it again for the new address binds it there.
      expect(await keys.set(KEY, 'custom')).toMatchObject({ boundTo: b.url, matchesService: true });
      expect(b.seen).toEqual([KEY]);
      expect(vault.keyFor(a.url)).toBeNull();
    } finally {
      a.server.close();
      b.server.close();
    }
  });

  it("keeps a key saved before binding usable for AssemblyAI's own clouds only", () => {
    const vault = new KeyVault(new FileSecretBox(join(dir, 'master')), join(dir, 'data'), undefined);
    vault.store('sk-legacy-0002');
    expect(vault.keyFor('https://api.assemblyai.com/v2/upload')).toBe('sk-legacy-0002');
    expect(vault.keyFor('https://api.eu.assemblyai.com')).toBe('sk-legacy-0002');
    expect(vault.keyFor('https://asr.example.org')).toBeNull();
  });
});
