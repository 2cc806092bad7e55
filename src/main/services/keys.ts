/**
 * The key vault: the cloud API key encrypted at rest with the platform's
 * SecretBox (Electron safeStorage; host mode AES-GCM with a key kept outside
 * the data folder), or read from ASSEMBLYAI_API_KEY. The key leaves this module
 * only towards the service client; the renderer sees a masked status.
 * A stored key is bound to the service origin it was entered for: it is never
 * sent anywhere else (a changed custom address needs the key entered again).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, type ErrorCode } from '../../shared/errors';
import type { KeyStatus } from '../../shared/ipc';
import type { SecretBox } from '../platform/types';
import { writeFileAtomic } from '../platform/host';
import { RestClient } from './client/rest';
import { SealedFile } from './sealed-file';
import { cloud, remoteEndpoints } from './endpoints';
import type { SettingsService } from './settings';

interface KeyMeta {
  verifiedAt: string | null;
  lastError: { code: ErrorCode; message: string } | null;
  /** The origin (scheme://host:port) the key was entered for; absent in files written before keys were bound. */
  origin?: string | null;
}

/** Keys stored before binding existed were only ever verified against AssemblyAI's own clouds. */
const CLOUD_ORIGINS: ReadonlySet<string> = new Set(Object.values(cloud).map((e) => new URL(e.rest).origin));

export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

export class KeyVault {
  private readonly sealed: SealedFile;
  private readonly metaFile: string;

  constructor(
    box: SecretBox,
    dataDir: string,
    private readonly env: string | undefined = process.env.ASSEMBLYAI_API_KEY,
  ) {
    this.sealed = new SealedFile(
      box,
      join(dataDir, 'secrets', 'api-key.bin'),
      'This system offers no encrypted storage for the key (no keyring). Set ASSEMBLYAI_API_KEY in the environment instead.',
    );
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

  /** The origin a stored key is bound to (null: the environment's key, or none). */
  boundOrigin(): string | null {
    if (!this.sealed.get()) return null;
    return this.meta().origin ?? null;
  }

  /**
   * The key to send to this service address, or null. A stored key goes only
   * to the origin it was entered for (older keys: AssemblyAI's clouds); the
   * environment's key is the user's own setting for any service.
   */
  keyFor(url: string): string | null {
    const stored = this.sealed.get();
    if (!stored) return this.env?.trim() || null;
    const origin = originOf(url);
    const bound = this.meta().origin;
    if (origin === null) return null;
    return (bound ? bound === origin : CLOUD_ORIGINS.has(origin)) ? stored : null;
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
  ) {
    // The status names the region and whether the key applies to the service address: both follow the settings.
    // Told after settings.changed has gone out, so the renderer sees the settings first.
    settings.onChange(() => queueMicrotask(() => this.changed()));
  }

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
      boundTo: this.vault.source() === 'vault' ? (this.vault.boundOrigin() ?? null) : null,
      matchesService: key !== null && this.currentOrigin() !== null && this.vault.keyFor(this.currentOrigin()!) !== null,
    };
  }

  /** The REST origin a key would be checked against now (local: the US cloud, as set/verify do). */
  private currentOrigin(): string | null {
    const ep = remoteEndpoints(this.verifyRegion(), this.settings.get());
    return ep ? originOf(ep.rest) : null;
  }

  async set(key: string, region?: 'us' | 'eu' | 'custom'): Promise<KeyStatus> {
    if (/\s/.test(key)) throw new AppError('bad_request', 'An API key has no spaces. Paste it again from your AssemblyAI dashboard.');
    if (region) this.settings.set({ region });
    const target = this.verifyRegion();
    const meta = await this.check(key, target);
    this.vault.store(key);
    this.vault.setMeta({ ...meta, origin: this.currentOrigin() });
    return this.changed();
  }

  async verify(): Promise<KeyStatus> {
    const key = this.vault.get();
    if (!key) throw new AppError('invalid_key', 'There is no API key to check. Add one in Settings → Transcription service.');
    const origin = this.currentOrigin();
    if (this.vault.source() === 'vault' && (origin === null || this.vault.keyFor(origin) === null)) {
      const bound = this.vault.boundOrigin() ?? 'AssemblyAI’s US and EU services';
      throw new AppError(
        'conflict',
        `The saved key was entered for ${bound}, and the service address is now ${origin ?? 'not set'}. Verbatim sends a key only to the service it was entered for: enter the key again to use it there.`,
      );
    }
    const meta = await this.check(key, this.verifyRegion());
    if (this.vault.source() === 'vault') this.vault.setMeta({ ...meta, origin: this.vault.meta().origin ?? null });
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
        throw new AppError(
          'invalid_key',
          `The ${region.toUpperCase()} service refused this API key (401). Check that you copied the whole key from your AssemblyAI dashboard, and that it belongs to this region.`,
        );
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
