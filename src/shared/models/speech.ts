/**
 * Catalog entries for downloadable speech models: sherpa-onnx release
 * archives of Parakeet, Zipformer, Moonshine, SenseVoice and Whisper, with
 * the figures their authors published and where. Sizes, SHA-256 and inner
 * files are upstream's, each with its source in upstream.ts (a unit test
 * holds these entries to it). sherpa-onnx publishes the SHA-256 of every
 * asr-models asset in the release's daily checksum.txt (`checksums`); the
 * manager checks a download against it, and where `sha256` is set here (two
 * or more independent records of the real download agree) against that
 * first, reading the list again before it refuses.
 */
import type { CatalogEntry } from './catalog';

const RELEASE = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models';
const ICEFALL_RESULTS = 'https://github.com/k2-fsa/icefall/blob/36e0420c7e3e849a25b3d24dbf913c424f3d23c9/egs/librispeech/ASR/RESULTS.md';

const DOCS = {
  parakeet: 'https://k2-fsa.github.io/sherpa/onnx/pretrained_models/offline-transducer/nemo/parakeet-tdt-0.6b-v2.html',
  parakeetCard: 'https://huggingface.co/nvidia/parakeet-tdt-0.6b-v2',
  moonshinePaper: 'https://arxiv.org/abs/2410.15608',
  whisperPaper: 'https://arxiv.org/abs/2212.04356',
} as const;

const clean = (value: number, source: string) => ({ set: 'LibriSpeech test-clean', value, source });
const other = (value: number, source: string) => ({ set: 'LibriSpeech test-other', value, source });

const common = { format: 'tar.bz2' as const, sha256: null, checksums: `${RELEASE}/checksum.txt`, contextLength: null, ramBytes: null };

interface WhisperSpec {
  /** The export's name: the archive is `sherpa-onnx-whisper-<size>.tar.bz2`, its files `<size>-encoder.int8.onnx`… */
  size: string;
  name: string;
  sizeBytes: number;
  unpackedBytes: number;
  sha256?: string;
  languages: string[];
  speedClass: CatalogEntry['speedClass'];
  wer: CatalogEntry['wer'];
  note: string;
}

/** Whisper's archives name every file after the export: `<size>-encoder.int8.onnx`. */
function whisper(w: WhisperSpec): CatalogEntry {
  return {
    ...common,
    sha256: w.sha256 ?? null,
    id: `whisper-${w.size}`,
    name: w.name,
    task: 'files',
    family: 'whisper',
    languages: w.languages,
    url: `${RELEASE}/sherpa-onnx-whisper-${w.size}.tar.bz2`,
    sizeBytes: w.sizeBytes,
    unpackedBytes: w.unpackedBytes,
    files: { encoder: `${w.size}-encoder.int8.onnx`, decoder: `${w.size}-decoder.int8.onnx`, tokens: `${w.size}-tokens.txt` },
    licence: 'MIT',
    speedClass: w.speedClass,
    wer: w.wer,
    rtf: null,
    wordTimings: 'segments',
    note: w.note,
  };
}

/** Whisper's multilingual languages we list (it knows 99; these are the ones with published WER under 15% on FLEURS for base). */
const WHISPER_LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'ru', 'pl', 'ja', 'zh', 'ko', 'tr', 'ca', 'sv', 'id'];

/** Parakeet TDT 0.6B v3's 25 European languages (the sherpa-onnx page of the export). */
const PARAKEET_V3_LANGUAGES = [
  'bg',
  'hr',
  'cs',
  'da',
  'nl',
  'en',
  'et',
  'fi',
  'fr',
  'de',
  'el',
  'hu',
  'it',
  'lv',
  'lt',
  'mt',
  'pl',
  'pt',
  'ro',
  'sk',
  'sl',
  'es',
  'sv',
  'ru',
  'uk',
];

const PARAKEET_FILES = { encoder: 'encoder.int8.onnx', decoder: 'decoder.int8.onnx', joiner: 'joiner.int8.onnx', tokens: 'tokens.txt' };
const MOONSHINE_FILES = {
  preprocessor: 'preprocess.onnx',
  encoder: 'encode.int8.onnx',
  uncachedDecoder: 'uncached_decode.int8.onnx',
  cachedDecoder: 'cached_decode.int8.onnx',
  tokens: 'tokens.txt',
};
const MOONSHINE_V2_FILES = { encoder: 'encoder_model.ort', mergedDecoder: 'decoder_model_merged.ort', tokens: 'tokens.txt' };

export const SPEECH_MODELS: CatalogEntry[] = [
  {
    ...common,
    id: 'parakeet-tdt-0.6b-v2',
    name: 'Parakeet TDT 0.6B v2 (int8)',
    task: 'files',
    family: 'nemo-transducer',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2`,
    sizeBytes: 482_468_385,
    unpackedBytes: 661_190_513,
    sha256: '157c157bc51155e03e37d2466522a3a737dd9c72bb25f36eb18912964161e1ad',
    files: PARAKEET_FILES,
    licence: 'CC-BY-4.0',
    speedClass: 'medium',
    wer: [clean(1.69, DOCS.parakeetCard), other(3.19, DOCS.parakeetCard)],
    rtf: { set: 'CPU, 2 threads', value: 0.12, source: DOCS.parakeet },
    wordTimings: 'words',
    note: 'The most accurate English model: punctuation, capitals and word times. Its published speed is the sherpa-onnx authors’ own; Test measures it on this computer.',
  },
  {
    ...common,
    id: 'parakeet-tdt-0.6b-v3',
    name: 'Parakeet TDT 0.6B v3 (int8, 25 European languages)',
    task: 'files',
    family: 'nemo-transducer',
    languages: PARAKEET_V3_LANGUAGES,
    url: `${RELEASE}/sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8.tar.bz2`,
    sizeBytes: 487_170_055,
    unpackedBytes: 670_478_772,
    sha256: '5793d0fd397c5778d2cf2126994d58e9d56b1be7c04d13c7a15bb1b4eafb16bf',
    files: PARAKEET_FILES,
    licence: 'CC-BY-4.0',
    speedClass: 'medium',
    wer: [],
    rtf: null,
    wordTimings: 'words',
    note: 'Parakeet for 25 European languages, English among them, with punctuation, capitals and word times; it finds the language itself.',
  },
  {
    ...common,
    id: 'zipformer-small-en',
    name: 'Zipformer small (English)',
    task: 'files',
    family: 'zipformer-transducer',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-zipformer-small-en-2023-06-26.tar.bz2`,
    sizeBytes: 112_232_184,
    unpackedBytes: 29_156_045,
    files: {
      encoder: 'encoder-epoch-99-avg-1.int8.onnx',
      decoder: 'decoder-epoch-99-avg-1.onnx',
      joiner: 'joiner-epoch-99-avg-1.int8.onnx',
      tokens: 'tokens.txt',
    },
    licence: 'Apache-2.0',
    speedClass: 'fast',
    wer: [clean(2.49, ICEFALL_RESULTS), other(5.91, ICEFALL_RESULTS)],
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
    sizeBytes: 107_600_538,
    unpackedBytes: 123_967_539,
    files: MOONSHINE_FILES,
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
    sizeBytes: 250_807_309,
    unpackedBytes: 286_929_760,
    files: MOONSHINE_FILES,
    licence: 'MIT',
    speedClass: 'fast',
    wer: [clean(3.23, DOCS.moonshinePaper), other(8.18, DOCS.moonshinePaper)],
    rtf: null,
    wordTimings: 'none',
    note: 'More accurate than tiny, still fast; no word times of its own, so Verbatim spreads them over each speech segment and marks them approximate.',
  },
  {
    ...common,
    id: 'moonshine-v2-tiny-en',
    name: 'Moonshine v2 tiny (English, quantized)',
    task: 'files',
    family: 'moonshine-v2',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-moonshine-tiny-en-quantized-2026-02-27.tar.bz2`,
    sizeBytes: 29_858_559,
    unpackedBytes: 46_687_744,
    sha256: '9ec31b342d8fa3240c3b81b8f82e1cf7e3ac467c93ca5a999b741d5887164f8d',
    files: MOONSHINE_V2_FILES,
    licence: 'MIT',
    speedClass: 'fast',
    wer: [],
    rtf: null,
    wordTimings: 'none',
    note: 'The smallest speech model here (a 30 MB download); no word times of its own, so Verbatim spreads them over each speech segment and marks them approximate.',
  },
  {
    ...common,
    id: 'moonshine-v2-base-en',
    name: 'Moonshine v2 base (English, quantized)',
    task: 'files',
    family: 'moonshine-v2',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-moonshine-base-en-quantized-2026-02-27.tar.bz2`,
    sizeBytes: 111_266_225,
    unpackedBytes: 143_156_736,
    files: MOONSHINE_V2_FILES,
    licence: 'MIT',
    speedClass: 'fast',
    wer: [],
    rtf: null,
    wordTimings: 'none',
    note: 'More accurate than v2 tiny at a 111 MB download; no word times of its own (approximate times per speech segment).',
  },
  {
    ...common,
    id: 'sense-voice-zh-en-ja-ko-yue',
    name: 'SenseVoice small (int8; Chinese, English, Japanese, Korean, Cantonese)',
    task: 'files',
    family: 'sense-voice',
    languages: ['zh', 'en', 'ja', 'ko', 'yue'],
    url: `${RELEASE}/sherpa-onnx-sense-voice-zh-en-ja-ko-yue-int8-2024-07-17.tar.bz2`,
    sizeBytes: 163_002_883,
    unpackedBytes: 239_549_735,
    files: { model: 'model.int8.onnx', tokens: 'tokens.txt' },
    licence: 'FunASR Model License 1.1',
    speedClass: 'fast',
    wer: [],
    rtf: null,
    wordTimings: 'words',
    note: 'Fast for Chinese, Japanese, Korean and Cantonese as well as English, with punctuation; it finds the language itself.',
  },
  whisper({
    size: 'tiny.en',
    name: 'Whisper tiny.en',
    sizeBytes: 118_071_777,
    unpackedBytes: 103_627_191,
    languages: ['en'],
    speedClass: 'fast',
    wer: [clean(5.6, DOCS.whisperPaper), other(14.6, DOCS.whisperPaper)],
    note: 'Whisper gives times per segment only and decodes 30 s at a time (Verbatim cuts long files at pauses).',
  }),
  whisper({
    size: 'base.en',
    name: 'Whisper base.en',
    sizeBytes: 208_576_005,
    unpackedBytes: 160_626_066,
    languages: ['en'],
    speedClass: 'medium',
    wer: [clean(4.2, DOCS.whisperPaper), other(10.2, DOCS.whisperPaper)],
    note: 'Times per segment only. Accuracy from the Whisper paper (greedy decoding, normalised text).',
  }),
  whisper({
    size: 'distil-small.en',
    name: 'Whisper distil-small.en',
    sizeBytes: 453_710_017,
    unpackedBytes: 298_876_082,
    languages: ['en'],
    speedClass: 'medium',
    wer: [],
    note: 'A distilled small.en: a shorter decoder, so faster than small.en. Times per segment only.',
  }),
  whisper({
    size: 'small.en',
    name: 'Whisper small.en',
    sizeBytes: 635_693_775,
    unpackedBytes: 375_501_079,
    languages: ['en'],
    speedClass: 'slow',
    wer: [clean(3.1, DOCS.whisperPaper), other(7.4, DOCS.whisperPaper)],
    note: 'Slow on a laptop CPU; times per segment only. Accuracy from the Whisper paper.',
  }),
  whisper({
    size: 'base',
    name: 'Whisper base (multilingual)',
    sizeBytes: 207_557_382,
    unpackedBytes: 160_609_290,
    sha256: '911b2083efd7c0dca2ac3b358b75222660dc09fb716d64fbfc417ba6c99ff3de',
    languages: WHISPER_LANGUAGES,
    speedClass: 'medium',
    wer: [clean(5.0, DOCS.whisperPaper), other(12.4, DOCS.whisperPaper)],
    note: 'Many languages, with language detection; times per segment only. English accuracy from the Whisper paper.',
  }),
  whisper({
    size: 'turbo',
    name: 'Whisper large-v3-turbo (int8, multilingual)',
    sizeBytes: 563_790_207,
    unpackedBytes: 1_036_613_791,
    sha256: 'b11acbbcd660b44a8e0df33724feb5aaa709cf65668f2823d59f656312544f22',
    languages: WHISPER_LANGUAGES,
    speedClass: 'slow',
    wer: [],
    note: 'Whisper’s large model with a 4-layer decoder: many languages, with language detection; about 1 GB once installed and slow on a laptop CPU. Times per segment only.',
  }),
  {
    ...common,
    id: 'streaming-zipformer-en',
    name: 'Streaming Zipformer (English, live)',
    task: 'live',
    family: 'streaming-transducer',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2`,
    sizeBytes: 310_414_022,
    unpackedBytes: 72_522_861,
    files: {
      encoder: 'encoder-epoch-99-avg-1-chunk-16-left-128.int8.onnx',
      decoder: 'decoder-epoch-99-avg-1-chunk-16-left-128.onnx',
      joiner: 'joiner-epoch-99-avg-1-chunk-16-left-128.int8.onnx',
      tokens: 'tokens.txt',
    },
    licence: 'Apache-2.0',
    speedClass: 'fast',
    // icefall's streaming zipformer (2023-05-17, the model this export converts): chunk-wise greedy search, 320 ms chunks, left context 128.
    wer: [clean(3.06, ICEFALL_RESULTS), other(7.79, ICEFALL_RESULTS)],
    rtf: null,
    wordTimings: 'words',
    note: 'For live captions: words appear as you speak.',
  },
  {
    ...common,
    id: 'streaming-zipformer-en-20m',
    name: 'Streaming Zipformer 20M (English, live, int8)',
    task: 'live',
    family: 'streaming-transducer',
    languages: ['en'],
    url: `${RELEASE}/sherpa-onnx-streaming-zipformer-en-20M-2023-02-17.tar.bz2`,
    sizeBytes: 127_887_156,
    unpackedBytes: 43_649_301,
    sha256: '9c559283e8498d3fe95913c79ca1cb454bb26281ac2b102b41306c7d752765d9',
    files: {
      encoder: 'encoder-epoch-99-avg-1.int8.onnx',
      decoder: 'decoder-epoch-99-avg-1.int8.onnx',
      joiner: 'joiner-epoch-99-avg-1.int8.onnx',
      tokens: 'tokens.txt',
    },
    licence: 'Apache-2.0',
    speedClass: 'fast',
    // icefall's pruned_transducer_stateless7_streaming "smaller model" (~20M parameters): greedy search, 320 ms chunks.
    wer: [clean(3.94, ICEFALL_RESULTS), other(9.79, ICEFALL_RESULTS)],
    rtf: null,
    wordTimings: 'words',
    note: 'A lighter model for live captions, for computers where the larger one falls behind; less accurate.',
  },
];

/** The "accurate" default for English files, the "small" one, and the live captions default. */
export const DEFAULT_FILES_MODEL = 'parakeet-tdt-0.6b-v2';
export const SMALL_FILES_MODEL = 'zipformer-small-en';
export const DEFAULT_LIVE_MODEL = 'streaming-zipformer-en';
