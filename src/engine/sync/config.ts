/**
 * The `config` part of a Sync or Dictation request, checked with the caps the pinned SDK documents
 * (assemblyai 4.41.5: prompt and stt_prompt 6,000 characters, keyterms_prompt 100 terms and 8,000
 * characters in all, llm_instruction 2,048; conversation_context over its caps is trimmed, never refused).
 * A wrong type or a value over its cap is a 400 naming the field.
 */
import { HttpError } from '../routes/router';

export interface SyncConfig {
  prompt: string | null;
  keyterms: string[];
  languageCodes: string[];
  sampleRate?: number;
  channels?: number;
  timestamps: boolean;
  llmInstruction: string | null;
}

function bad(message: string): never {
  throw new HttpError(400, message);
}

function text(v: unknown, name: string, max: number): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') bad(`${name} must be a string.`);
  if (v.length > max) bad(`${name} has ${v.length} characters; at most ${max} are allowed.`);
  return v;
}

function int(v: unknown, name: string, min: number, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) bad(`${name} must be an integer from ${min} to ${max}.`);
  return v;
}

function strings(v: unknown, name: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) bad(`${name} must be an array of strings.`);
  return v as string[];
}

export function parseSyncConfig(raw: unknown): SyncConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('The `config` part must be a JSON object (`{}` when empty).');
  const c = raw as Record<string, unknown>;
  const keyterms = strings(c.keyterms_prompt, 'keyterms_prompt')
    .map((t) => t.trim())
    .filter(Boolean);
  if (keyterms.length > 100) bad(`keyterms_prompt has ${keyterms.length} terms; at most 100 are allowed.`);
  const total = keyterms.reduce((n, t) => n + t.length, 0);
  if (total > 8000) bad(`keyterms_prompt has ${total} characters in all; at most 8000 are allowed.`);
  const languageCodes = strings(c.language_codes, 'language_codes');
  if (c.conversation_context !== undefined && typeof c.conversation_context !== 'string') strings(c.conversation_context, 'conversation_context');
  if (c.timestamps !== undefined && typeof c.timestamps !== 'boolean') bad('timestamps must be true or false.');
  const sampleRate = int(c.sample_rate, 'sample_rate', 8000, 192_000);
  const channels = int(c.channels, 'channels', 1, 16);
  return {
    prompt: text(c.prompt, 'prompt', 6000) ?? text(c.stt_prompt, 'stt_prompt', 6000),
    keyterms,
    languageCodes,
    ...(sampleRate === undefined ? {} : { sampleRate }),
    ...(channels === undefined ? {} : { channels }),
    timestamps: c.timestamps === true,
    llmInstruction: text(c.llm_instruction, 'llm_instruction', 2048),
  };
}
