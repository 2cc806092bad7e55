import { defaultSettings, settingsSchema, type Settings, type SettingsPatch, type SettingsView } from '../../shared/settings';
import type { SettingsBackend } from '../platform/types';
import type { SealedFile } from './sealed-file';

/**
 * Settings with validation on both sides: what is read is parsed with the
 * schema (an old, partial or hand-edited file falls back field by field to the
 * defaults) and what is written is the full, valid object. The webhook's auth
 * header value is a secret: sealed apart, written through `set`, read only by
 * main (`webhookAuthHeaderValue()`), shown to the renderer as a flag.
 */
export class SettingsService {
  private current: Settings;
  private readonly listeners = new Set<(s: SettingsView) => void>();
  /** A value an older Verbatim kept in the settings file, where it cannot be sealed (no keyring). */
  private legacySecret: string | null = null;

  constructor(
    private readonly backend: SettingsBackend,
    private readonly webhookSecret: SealedFile | null = null,
  ) {
    const raw = backend.read();
    this.current = parseLenient(raw);
    const old = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>).webhookAuthHeaderValue : undefined;
    if (typeof old === 'string' && old !== '') {
      if (webhookSecret?.available) {
        webhookSecret.set(old);
        backend.write(this.current);
      } else this.legacySecret = old;
    }
  }

  get(): Settings {
    return this.current;
  }

  view(): SettingsView {
    return { ...this.current, webhookAuthHeaderSaved: this.webhookAuthHeaderValue() !== '' };
  }

  /** The secret header value for the user's webhook ('' when none). Main only. */
  webhookAuthHeaderValue(): string {
    return this.webhookSecret?.get() ?? this.legacySecret ?? '';
  }

  set(patch: SettingsPatch): SettingsView {
    const { webhookAuthHeaderValue: secret, ...fields } = patch;
    const next = settingsSchema.parse({ ...this.current, ...fields });
    if (secret !== undefined) {
      if (secret === '') this.webhookSecret?.remove();
      else if (this.webhookSecret) this.webhookSecret.set(secret);
      else this.legacySecret = secret;
      if (secret === '') this.legacySecret = null;
    }
    this.backend.write(next);
    this.current = next;
    const view = this.view();
    for (const l of this.listeners) l(view);
    return view;
  }

  onChange(listener: (s: SettingsView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function parseLenient(raw: unknown): Settings {
  if (raw === null || typeof raw !== 'object') return defaultSettings;
  const whole = settingsSchema.safeParse(raw);
  if (whole.success) return whole.data;
  // Keep every field that is still valid, default the rest.
  const out: Record<string, unknown> = {};
  const shape = settingsSchema.unwrap().shape;
  for (const [key, schema] of Object.entries(shape)) {
    const field = (schema as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse((raw as Record<string, unknown>)[key]);
    if (field.success) out[key] = field.data;
  }
  return settingsSchema.parse(out);
}
