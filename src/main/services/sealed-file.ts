/**
 * One small secret encrypted at rest with the platform's SecretBox, in a 0600
 * file of its own: the cloud API key, the webhook's auth header value.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { AppError } from '../../shared/errors';
import { writeFileAtomic } from '../platform/host';
import type { SecretBox } from '../platform/types';

export class SealedFile {
  private cached: string | null | undefined;

  constructor(
    private readonly box: SecretBox,
    readonly path: string,
    /** What to tell the user when the platform cannot encrypt (no keyring). */
    private readonly unavailableMessage: string,
  ) {}

  get(): string | null {
    if (this.cached === undefined) {
      this.cached = null;
      if (existsSync(this.path)) {
        try {
          this.cached = this.box.decrypt(readFileSync(this.path));
        } catch {
          // Encrypted on another machine or with a lost master key: treat as absent.
          this.cached = null;
        }
      }
    }
    return this.cached;
  }

  set(value: string): void {
    if (!this.box.available) throw new AppError('unavailable', this.unavailableMessage);
    writeFileAtomic(this.path, this.box.encrypt(value), 0o600);
    this.cached = value;
  }

  remove(): void {
    rmSync(this.path, { force: true });
    this.cached = null;
  }

  get available(): boolean {
    return this.box.available;
  }
}
