/** The engine's stored shapes of a transcript request and its result. */
import type { PiiPolicy, Sentence, Word } from '../shared/api/transcript';

export interface TranscriptParams {
  audio_url: string;
  speech_models: string[];
  language_code: string;
  punctuate: boolean;
  format_text: boolean;
  disfluencies: boolean;
  filter_profanity: boolean;
  keyterms_prompt: string[] | null;
  audio_start_from: number | null;
  audio_end_at: number | null;
  redact_pii: boolean;
  redact_pii_policies: PiiPolicy[] | null;
  redact_pii_sub: 'hash' | 'entity_name' | null;
  redact_pii_audio: boolean;
  redact_pii_audio_quality: 'mp3' | 'wav' | null;
  webhook_url: string | null;
  webhook_auth_header_name: string | null;
  speech_understanding: unknown;
}

export interface TranscriptResult {
  text: string;
  words: Word[];
  sentences: Sentence[];
  confidence: number | null;
  /** Seconds, integer. */
  audio_duration: number | null;
  speech_model_used: string;
  warnings: string[];
  /** Inline speech understanding (API.md §8.3), when the request asked for it. */
  speech_understanding?: { request: Record<string, unknown>; response: Record<string, unknown> };
  translated_texts?: Record<string, string>;
}
