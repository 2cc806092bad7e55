/**
 * Catalog entries for downloadable speech models: sherpa-onnx release
 * archives of Parakeet, Zipformer, Moonshine and Whisper, with the figures
 * their authors published and where. Archive sizes are the sum of the files
 * upstream lists (the release page gives no exact byte counts here), so the
 * manager checks the server's length and records the SHA-256 on the first
 * download (no SHA-256 is published for these archives).
 */
import type { CatalogEntry } from './catalog';

const RELEASE = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models';
const MB = 1_000_000;

const DOCS = {
  parakeet: 'https://k2-fsa.github.io/sherpa/onnx/pretrained_models/offline-transducer/nemo/parakeet-tdt-0.6b-v2.html',
  parakeetCard: 'https://huggingface.co/nvidia/parakeet-tdt-0.6b-v2',
  zipformer: 'https://k2-fsa.github.io/sherpa/onnx/pretrained_models/offline-transducer/zipformer-transducer-models.html',
  icefallLibrispeech: 'https://github.com/k2-fsa/icefall/blob/master/egs/librispeech/ASR/RESULTS.md',
  streaming: 'https://k2-fsa.github.io/sherpa/onnx/pretrained_models/online-transducer/zipformer-transducer-models.html',
  moonshine: 'https://k2-fsa.github.io/sherpa/onnx/moonshine/models.html',
  moonshinePaper: 'https://arxiv.org/abs/2410.15608',
  whisper: 'https://k2-fsa.github.io/sherpa/onnx/pretrained_models/whisper/export-onnx.html',
  whisperPaper: 'https://arxiv.org/abs/2212.04356',
} as const;

const clean = (value: number, source: string) => ({ set: 'LibriSpeech test-clean', value, source });
const other = (value: number, source: string) => ({ set: 'LibriSpeech test-other', value, source });

const common = { format: 'tar.bz2' as const, sha256: null, checksums: `${RELEASE}/checksum.txt`, contextLength: null, ramBytes: null };

/** Whisper's archives name every file after the size: `<size>-encoder.int8.onnx`. */
function whisper(size: string, name: string, sizeBytes: number, unpackedBytes: number, languages: string[], wer: CatalogEntry['wer'], note: string): CatalogEntry {
  return {
    ...common,
    id: `whisper-${size}`,
    name,
    task: 'files',
    family: 'whisper',
    languages,
    url: `${RELEASE}/sherpa-onnx-whisper-${size}.tar.bz2`,
    sizeBytes,
    unpackedBytes,
    files: { encoder: `${size}-encoder.int8.onnx`, decoder: `${size}-decoder.int8.onnx`, tokens: `${size}-tokens.txt` },
    licence: 'MIT',
    speedClass: size.startsWith('small') ? 'slow' : size.startsWith('base') ? 'medium' : 'fast',
    wer,
    rtf: null,
    wordTimings: 'segments',
    note,
  };
}

/** Whisper's multilingual languages we list (it knows 99; these are the ones with published WER under 15% on FLEURS for base). */
const WHISPER_LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'ru', 'pl', 'ja', 'zh', 'ko', 'tr', 'ca', 'sv', 'id'];

export const SPEECH_MODELS: CatalogEntry[] = [
  {
    ...common,
    id: 'parakeet-tdt-0.6b-v2',
    name: 'Parakeet TDT 0.6B v2 (int8)',
    task: 'files',
    family: 'nemo-transducer',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2`,
    // encoder 622M + decoder 6.9M + joiner 1.7M + tokens + test wavs, per the docs' ls -lh; bzip2 gains little on int8 weights.
    sizeBytes: 640 * MB,
    unpackedBytes: 661_241_447,
    files: { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', joiner: 'joiner.int8.onnx', tokens: 'tokens.txt' },
    licence: 'CC-BY-4.0',
    speedClass: 'medium',
    wer: [clean(1.69, DOCS.parakeetCard), other(3.19, DOCS.parakeetCard)],
    rtf: { set: 'CPU, 2 threads', value: 0.12, source: DOCS.parakeet },
    wordTimings: 'words',
    note: 'The most accurate English model: punctuation, capitals and word times. Its published speed is the sherpa-onnx authors’ own; Test measures it on this computer.',
  },
  {
    ...common,
    id: 'zipformer-small-en',
    name: 'Zipformer small (English)',
    task: 'files',
    family: 'zipformer-transducer',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-zipformer-small-en-2023-06-26.tar.bz2`,
    // The archive carries fp32 and int8 weights; the int8 encoder is about 25 MB. Size approximate, not confirmed on the release page.
    sizeBytes: 110 * MB,
    unpackedBytes: 29_400_000,
    files: {
      encoder: 'encoder-epoch-99-avg-1.int8.onnx',
      decoder: 'decoder-epoch-99-avg-1.onnx',
      joiner: 'joiner-epoch-99-avg-1.int8.onnx',
      tokens: 'tokens.txt',
    },
    licence: 'Apache-2.0',
    speedClass: 'fast',
    wer: [clean(2.49, DOCS.icefallLibrispeech), other(5.91, DOCS.icefallLibrispeech)],
    rtf: null,
    wordTimings: 'words',
    note: 'Small and fast, with word times; no punctuation of its own (Verbatim adds it).',
  },
  {
    ...common,
    id: 'moonshine-tiny-en',
    name: 'Moonshine tiny (English, int8)',
    task: 'files',
    family: 'moonshine',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`,
    // preprocess 6.5M + encode 17M + uncached 51M + cached 43M + tokens 426K, per the docs' ls -lh.
    sizeBytes: 118 * MB,
    unpackedBytes: 123_643_904,
    files: {
      preprocessor: 'preprocess.onnx',
      encoder: 'encode.int8.onnx',
      uncachedDecoder: 'uncached_decode.int8.onnx',
      cachedDecoder: 'cached_decode.int8.onnx',
      tokens: 'tokens.txt',
    },
    licence: 'MIT',
    speedClass: 'fast',
    wer: [clean(4.52, DOCS.moonshinePaper), other(11.71, DOCS.moonshinePaper)],
    rtf: null,
    wordTimings: 'none',
    note: 'Very fast; gives no word times, so Verbatim spreads times over each speech segment and marks them approximate.',
  },
  {
    ...common,
    id: 'moonshine-base-en',
    name: 'Moonshine base (English, int8)',
    task: 'files',
    family: 'moonshine',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-moonshine-base-en-int8.tar.bz2`,
    // The 272 MB; the cached decoder alone is 100 MB (its Hugging Face LFS record). Not confirmed on the release page.
    sizeBytes: 272 * MB,
    unpackedBytes: 285_648_896,
    files: {
      preprocessor: 'preprocess.onnx',
      encoder: 'encode.int8.onnx',
      uncachedDecoder: 'uncached_decode.int8.onnx',
      cachedDecoder: 'cached_decode.int8.onnx',
      tokens: 'tokens.txt',
    },
    licence: 'MIT',
    speedClass: 'fast',
    wer: [clean(3.23, DOCS.moonshinePaper), other(8.18, DOCS.moonshinePaper)],
    rtf: null,
    wordTimings: 'none',
    note: 'More accurate than tiny, still fast; no word times of its own, so Verbatim spreads them over each speech segment and marks them approximate.',
  },
  whisper(
    'tiny.en',
    'Whisper tiny.en',
    // int8 and fp32 files: decoders 89.9M + 115M, encoders 12.9M + 37.6M, tokens 836K (Hugging Face listing of the same export).
    257 * MB,
    105_000_000,
    ['en'],
    [clean(5.6, DOCS.whisperPaper), other(14.6, DOCS.whisperPaper)],
    'Whisper gives times per segment only and decodes 30 s at a time (Verbatim cuts long files at pauses).',
  ),
  whisper(
    'base.en',
    'Whisper base.en',
    453 * MB,
    160_000_000,
    ['en'],
    [clean(4.2, DOCS.whisperPaper), other(10.2, DOCS.whisperPaper)],
    'Times per segment only. Accuracy from the Whisper paper (greedy decoding, normalised text).',
  ),
  whisper(
    'small.en',
    'Whisper small.en',
    1343 * MB,
    380_000_000,
    ['en'],
    [clean(3.0, DOCS.whisperPaper), other(7.4, DOCS.whisperPaper)],
    'Slow on a laptop CPU; times per segment only. Accuracy from the Whisper paper.',
  ),
  whisper(
    'base',
    'Whisper base (multilingual)',
    453 * MB,
    160_000_000,
    WHISPER_LANGUAGES,
    [clean(5.0, DOCS.whisperPaper), other(12.4, DOCS.whisperPaper)],
    'Many languages, with language detection; times per segment only. English accuracy from the Whisper paper.',
  ),
  {
    ...common,
    id: 'streaming-zipformer-en',
    name: 'Streaming Zipformer (English, live)',
    task: 'live',
    family: 'streaming-transducer',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2`,
    // The upstream repository holds int8 and fp32 weights for two left contexts (64, 128): encoders 2 × (71.1M + 262M). If the
    // archive carries them all it is about 680 MB; not confirmed on the release page, so the free-space check assumes that much.
    sizeBytes: 680 * MB,
    unpackedBytes: 77_000_000,
    files: {
      encoder: 'encoder-epoch-99-avg-1-chunk-16-left-128.int8.onnx',
      decoder: 'decoder-epoch-99-avg-1-chunk-16-left-128.onnx',
      joiner: 'joiner-epoch-99-avg-1-chunk-16-left-128.int8.onnx',
      tokens: 'tokens.txt',
    },
    licence: 'Apache-2.0',
    speedClass: 'fast',
    wer: [clean(3.1, DOCS.streaming), other(7.8, DOCS.streaming)],
    rtf: null,
    wordTimings: 'words',
    note: 'For live captions: words appear as you speak.',
  },
];

/** The "accurate" default for English files, the "small" one, and the live captions default. */
export const DEFAULT_FILES_MODEL = 'parakeet-tdt-0.6b-v2';
export const SMALL_FILES_MODEL = 'zipformer-small-en';
export const DEFAULT_LIVE_MODEL = 'streaming-zipformer-en';
