/**
 * The stored transcript as the wire object of API.md §4, typed by the strict wire schema. A field AssemblyAI's
 * spec types (string, array, object) is left out when it has no value, rather than sent as null.
 */
import type { Transcript } from '../../shared/api/transcript';
import type { TranscriptRow } from '../store';

export function toWire(t: TranscriptRow): Transcript {
  const p = t.params;
  const r = t.result;
  const deleted = t.deleted;
  return {
    id: t.id,
    status: t.status,
    audio_url: p.audio_url,
    text: deleted ? 'Deleted by user.' : (r?.text ?? null),
    words: deleted ? null : (r?.words ?? null),
    utterances: deleted || !p.speaker_labels ? null : (r?.utterances ?? null),
    confidence: deleted ? null : (r?.confidence ?? null),
    audio_duration: r?.audio_duration ?? null,
    ...(t.error !== null ? { error: t.error } : {}),
    language_code: p.language_code,
    language_detection: false,
    language_confidence: null,
    language_confidence_threshold: null,
    speech_models: p.speech_models,
    ...(r?.speech_model_used ? { speech_model_used: r.speech_model_used } : {}),
    speech_model: p.speech_model ?? null,
    punctuate: p.punctuate,
    format_text: p.format_text,
    disfluencies: p.disfluencies,
    filter_profanity: p.filter_profanity,
    speaker_labels: p.speaker_labels ?? false,
    speakers_expected: p.speakers_expected ?? null,
    ...(p.speaker_options ? { speaker_options: p.speaker_options } : {}),
    ...(p.keyterms_prompt ? { keyterms_prompt: p.keyterms_prompt } : {}),
    audio_start_from: p.audio_start_from,
    audio_end_at: p.audio_end_at,
    redact_pii: p.redact_pii,
    redact_pii_audio: p.redact_pii_audio,
    redact_pii_audio_quality: p.redact_pii ? (p.redact_pii_audio_quality ?? 'mp3') : null,
    redact_pii_policies: p.redact_pii_policies,
    ...(p.redact_pii ? { redact_pii_sub: p.redact_pii_sub ?? 'hash' } : {}),
    ...(p.redact_pii_audio_options ? { redact_pii_audio_options: p.redact_pii_audio_options } : {}),
    webhook_url: p.webhook_url,
    webhook_auth: p.webhook_auth_header_name !== null,
    webhook_auth_header_name: p.webhook_auth_header_name,
    webhook_status_code: t.webhookStatusCode,
    throttled: null,
    auto_highlights: false,
    auto_highlights_result: null,
    summarization: false,
    summary: null,
    content_safety: false,
    iab_categories: false,
    sentiment_analysis: false,
    entity_detection: false,
    auto_chapters: false,
    chapters: null,
    entities: null,
    multichannel: null,
    language_model: 'assemblyai_default',
    acoustic_model: 'assemblyai_default',
    ...(r?.speech_understanding || p.speech_understanding ? { speech_understanding: r?.speech_understanding ?? p.speech_understanding ?? {} } : {}),
    ...(r?.translated_texts ? { translated_texts: r.translated_texts } : {}),
  };
}
