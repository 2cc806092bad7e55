/**
 * The key vault: the cloud API key encrypted at rest with the platform's
 * SecretBox (Electron safeStorage; host mode AES-GCM with a key kept outside
 * the data folder), or read from ASSEMBLYAI_API_KEY. The key leaves this module
 * only towards the service client; the renderer sees a masked status.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, type ErrorCode } from '../../shared/errors';
import type { KeyStatus } from '../../shared/ipc';
import type { SecretBox } from '../platform/types';
import { writeFileAtomic } from '../platform/host';
import { RestClient } from './client/rest';
import { SealedFile } from './sealed-file';
import { remoteEndpoints } from './endpoints';
import type { SettingsService } from './settings';

interface KeyMeta {
  verifiedAt: string | null;
  lastError: { code: ErrorCode; message: string } | null;
}

export class KeyVault {
  private readonly sealed: SealedFile;
  private readonly metaFile: string;

  constructor(
    box: SecretBox,
    dataDir: string,
    private readonly env: string | undefined = process.env.ASSEMBLYAI_API_KEY,
  ) {
    this.sealed = new SealedFile(box, join(dataDir, 'secrets', 'api-key.bin'), 'This system offers no encrypted storage for the key (no keyring). Set ASSEMBLYAI_API_KEY in the environment instead.');
    this.metaFile = join(dataDir, 'secrets', 'api-key.json');
  }

  /** The key to use: the stored one, else the environment's. */
  get(): string | null {
    return this.sealed.get() ?? (this.env?.trim() || null);
  }

  source(): 'vault' | 'env' | null {
    return this.sealed.get() ? 'vault' : this.env?.trim() ? 'env' : null;
  }

  store(key: string): void {
    this.sealed.set(key);
  }

  remove(): void {
    this.sealed.remove();
    rmSync(this.metaFile, { force: true });
  }

  meta(): KeyMeta {
    try {
      return JSON.parse(readFileSync(this.metaFile, 'utf8')) as KeyMeta;
    } catch {
      return { verifiedAt: null, lastError: null };
    }
  }

  setMeta(meta: KeyMeta): void {
    writeFileAtomic(this.metaFile, JSON.stringify(meta), 0o600);
  }

  canStore(): boolean {
    return this.sealed.available;
  }
}

export function mask(key: string): string {
  return `…${key.slice(-4)}`;
}

/** Key status for the renderer, set/verify/remove with one authenticated call. */
export class KeyService {
  private readonly listeners = new Set<(s: KeyStatus) => void>();

  constructor(
    readonly vault: KeyVault,
    private readonly settings: SettingsService,
  ) {}

  onChange(l: (s: KeyStatus) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  status(): KeyStatus {
    const key = this.vault.get();
    const meta = key ? this.vault.meta() : { verifiedAt: null, lastError: null };
    return {
      present: key !== null,
      masked: key ? mask(key) : null,
      source: this.vault.source(),
      region: this.settings.get().region,
      verifiedAt: meta.verifiedAt,
      lastError: meta.lastError,
      canStore: this.vault.canStore(),
    };
  }

  async set(key: string, region?: 'us' | 'eu' | 'custom'): Promise<KeyStatus> {
    if (/\s/.test(key)) throw new AppError('bad_request', 'An API key has no spaces. Paste it again from your AssemblyAI dashboard.');
    if (region) this.settings.set({ region });
    const target = this.verifyRegion();
    const meta = await this.check(key, target);
    this.vault.store(key);
    this.vault.setMeta(meta);
    return this.changed();
  }

  async verify(): Promise<KeyStatus> {
    const key = this.vault.get();
    if (!key) throw new AppError('invalid_key', 'There is no API key to check. Add one in Settings → Transcription service.');
    const meta = await this.check(key, this.verifyRegion());
    if (this.vault.source() === 'vault') this.vault.setMeta(meta);
    return this.changed();
  }

  remove(): KeyStatus {
    this.vault.remove();
    return this.changed();
  }

  private verifyRegion(): 'us' | 'eu' | 'custom' {
    const r = this.settings.get().region;
    return r === 'local' ? 'us' : r;
  }

  /** 401 throws invalid_key (nothing stored); network trouble yields an unverified status. */
  private async check(key: string, region: 'us' | 'eu' | 'custom'): Promise<{ verifiedAt: string | null; lastError: KeyMeta['lastError'] }> {
    const ep = remoteEndpoints(region, this.settings.get());
    if (!ep) throw new AppError('bad_request', 'Region “custom” needs a REST address first (Settings → Transcription service).');
    try {
      await new RestClient(ep.rest, key).verifyKey(AbortSignal.timeout(15_000));
      return { verifiedAt: new Date().toISOString(), lastError: null };
    } catch (e) {
      if (e instanceof AppError && e.code === 'invalid_key')
        throw new AppError('invalid_key', `The ${region.toUpperCase()} service refused this API key (401). Check that you copied the whole key from your AssemblyAI dashboard, and that it belongs to this region.`);
      if (e instanceof AppError && (e.code === 'network' || e.code === 'canceled' || e.code === 'server_error_retryable' || e.code === 'rate_limited'))
        return { verifiedAt: null, lastError: { code: e.code === 'canceled' ? 'network' : e.code, message: `Saved, but not verified: ${e.message}` } };
      throw e;
    }
  }

  private changed(): KeyStatus {
    const s = this.status();
    for (const l of this.listeners) l(s);
    return s;
  }
}
