/**
 * The languages Whisper knows, by the codes its tokenizer uses (`<|xx|>` tokens): a language_code outside this
 * list makes sherpa-onnx exit inside the worker, so the engine refuses it with a 400 naming the code.
 * Source: openai/whisper `whisper/tokenizer.py`, the keys of LANGUAGES (commit c0d2f624c09d, 100 codes: 99
 * languages and Cantonese, `yue`, added with large-v3). Note Whisper writes Javanese `jw`, not ISO's `jv`, and
 * Hawaiian and Cantonese with three letters (`haw`, `yue`), as AssemblyAI's own language_code list does.
 * sherpa-onnx maps a code to its token through the model's own `all_language_codes` metadata
 * (`sherpa-onnx/csrc/offline-whisper-model.cc`), written by `scripts/whisper/export-onnx.py` from this list.
 */
export const WHISPER_LANGUAGES: ReadonlySet<string> = new Set(
  (
    'en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr bg lt la mi ml cy sk te fa lv bn sr ' +
    'az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn yo so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl ' +
    'mg as tt haw ln ha ba jw su yue'
  ).split(' '),
);

/** AssemblyAI's English variants, which Whisper reads as `en`. */
const ENGLISH_VARIANTS = new Set(['en', 'en_us', 'en_uk', 'en_au']);

/**
 * Whisper's code for a job's language_code: the English variants → 'en', 'auto' → '' (detect), a code Whisper
 * knows → itself (never cut: 'yue' stays 'yue'), anything else → null.
 */
export function whisperLanguage(code: string): string | null {
  const c = code.toLowerCase();
  if (c === 'auto') return '';
  if (ENGLISH_VARIANTS.has(c)) return 'en';
  return WHISPER_LANGUAGES.has(c) ? c : null;
}

/** The sentence for a language_code Whisper does not know. */
export function unknownWhisperLanguage(code: string): string {
  const hint = code.toLowerCase() === 'jv' ? ' (Whisper writes Javanese as "jw")' : '';
  return `language_code ${JSON.stringify(code.slice(0, 40))} is not a language Whisper knows${hint}; use one of Whisper's codes, such as "es", "de", "yue" or "haw".`;
}
