import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
