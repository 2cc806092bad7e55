/** The request parameters of a plain English transcript as the engine's store keeps them, for tests that insert a transcript row themselves. */
import type { TranscriptParams } from '../../src/engine/store';

export function transcriptParams(over: Partial<TranscriptParams> = {}): TranscriptParams {
  return {
    audio_url: 'http://example.invalid/a.wav',
    speech_models: ['universal-2'],
    language_code: 'en_us',
    punctuate: true,
    format_text: true,
    disfluencies: false,
    filter_profanity: false,
    keyterms_prompt: null,
    audio_start_from: null,
    audio_end_at: null,
    redact_pii: false,
    redact_pii_policies: null,
    redact_pii_sub: null,
    redact_pii_audio: false,
    redact_pii_audio_quality: null,
    webhook_url: null,
    webhook_auth_header_name: null,
    speech_understanding: null,
    ...over,
  };
}
