import { defaultSettings, settingsSchema, type Settings, type SettingsPatch } from '../../shared/settings';
import type { SettingsBackend } from '../platform/types';

/**
 * Settings with validation on both sides: what is read is parsed with the
 * schema (an old, partial or hand-edited file falls back field by field to the
 * defaults) and what is written is the full, valid object.
 */
export class SettingsService {
  private current: Settings;
  private readonly listeners = new Set<(s: Settings) => void>();

  constructor(private readonly backend: SettingsBackend) {
    this.current = parseLenient(backend.read());
  }

  get(): Settings {
    return this.current;
  }

  set(patch: SettingsPatch): Settings {
    const next = settingsSchema.parse({ ...this.current, ...patch });
    this.backend.write(next);
    this.current = next;
    for (const l of this.listeners) l(next);
    return next;
  }

  onChange(listener: (s: Settings) => void): () => void {
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
  const shape = settingsSchema.shape;
  for (const [key, schema] of Object.entries(shape)) {
    const field = (schema as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse((raw as Record<string, unknown>)[key]);
    if (field.success) out[key] = field.data;
  }
  return settingsSchema.parse(out);
}
