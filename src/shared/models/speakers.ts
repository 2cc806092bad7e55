/**
 * Catalog entries for speaker diarization: segmentation models (who talks
 * when, pyannote) and speaker-embedding models (what each voice sounds like),
 * from sherpa-onnx's speaker-segmentation-models and speaker-recongition-models
 * releases (the tag's spelling is upstream's). Diarization needs one of each;
 * the engine takes the first installed entry of each task in this order.
 * Sizes marked approximate are the figures upstream lists; the manager checks
 * the server's length and records the SHA-256 on the first download.
 */
import type { CatalogEntry } from './catalog';

const SEGMENTATION = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-segmentation-models';
const EMBEDDING = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-recongition-models';
const MB = 1_000_000;

/** pyannote's segmentation is trained on speech in many languages and reads no words: it is language-independent. */
const ANY_LANGUAGE = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'ja', 'zh', 'ko', 'ru', 'ar'];

const common = { sha256: null, wer: [], rtf: null, wordTimings: 'none' as const, contextLength: null, ramBytes: null };

export const SPEAKER_MODELS: CatalogEntry[] = [
  {
    ...common,
    id: 'pyannote-segmentation-3.0',
    name: 'pyannote segmentation 3.0',
    task: 'segmentation',
    family: 'pyannote-segmentation',
    languages: ANY_LANGUAGE,
    url: `${SEGMENTATION}/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2`,
    format: 'tar.bz2',
    // The archive (model.onnx 5.7 MB, model.int8.onnx 1.5 MB, licence, scripts), as a byte-for-byte mirror lists it.
    sizeBytes: 6_958_444,
    unpackedBytes: 6_000_000,
    checksums: null,
    files: { model: 'model.onnx' },
    licence: 'MIT',
    speedClass: 'fast',
    note: 'Finds who speaks when (up to 3 voices in each 10 s window, 2 at once). Needed, with a speaker-embedding model, for speaker labels.',
  },
  {
    ...common,
    id: 'pyannote-segmentation-3.0-int8',
    name: 'pyannote segmentation 3.0 (int8)',
    task: 'segmentation',
    family: 'pyannote-segmentation',
    languages: ANY_LANGUAGE,
    url: `${SEGMENTATION}/sherpa-onnx-pyannote-segmentation-3-0.tar.bz2`,
    format: 'tar.bz2',
    sizeBytes: 6_958_444,
    unpackedBytes: 1_600_000,
    checksums: null,
    files: { model: 'model.int8.onnx' },
    licence: 'MIT',
    speedClass: 'fast',
    note: 'The same model quantized to 8 bits: 1.5 MB instead of 5.7 MB once installed, a little less precise. Same download.',
  },
  {
    ...common,
    id: '3dspeaker-campplus-en',
    name: '3D-Speaker CAM++ (English, VoxCeleb)',
    task: 'embedding',
    family: 'speaker-embedding',
    languages: ['en'],
    url: `${EMBEDDING}/3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx`,
    format: 'file',
    // Approximate: 29.6 MB as upstream lists it.
    sizeBytes: Math.round(29.6 * MB),
    unpackedBytes: Math.round(29.6 * MB),
    checksums: `${EMBEDDING}/checksum.txt`,
    files: { model: '3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx' },
    licence: 'Apache-2.0',
    speedClass: 'fast',
    note: 'Tells English voices apart (192-value voiceprints). Fast: CAM++ needs less than half the compute of ECAPA-TDNN.',
  },
  {
    ...common,
    id: '3dspeaker-campplus-zh-en',
    name: '3D-Speaker CAM++ (multilingual, Chinese and English)',
    task: 'embedding',
    family: 'speaker-embedding',
    languages: ['zh', 'en'],
    url: `${EMBEDDING}/3dspeaker_speech_campplus_sv_zh_en_16k-common_advanced.onnx`,
    format: 'file',
    // Approximate: 28.3 MB as upstream lists it.
    sizeBytes: Math.round(28.3 * MB),
    unpackedBytes: Math.round(28.3 * MB),
    checksums: `${EMBEDDING}/checksum.txt`,
    files: { model: '3dspeaker_speech_campplus_sv_zh_en_16k-common_advanced.onnx' },
    licence: 'Apache-2.0',
    speedClass: 'fast',
    note: 'Trained on Chinese and English speech from many sources; the better choice for recordings that are not only English.',
  },
  {
    ...common,
    id: 'wespeaker-campplus-en',
    name: 'WeSpeaker CAM++ (English, VoxCeleb)',
    task: 'embedding',
    family: 'speaker-embedding',
    languages: ['en'],
    url: `${EMBEDDING}/wespeaker_en_voxceleb_CAM++.onnx`,
    format: 'file',
    sizeBytes: 29_292_684,
    unpackedBytes: 29_292_684,
    checksums: `${EMBEDDING}/checksum.txt`,
    files: { model: 'wespeaker_en_voxceleb_CAM++.onnx' },
    licence: 'Apache-2.0 code, CC-BY-4.0 weights (VoxCeleb)',
    speedClass: 'fast',
    note: 'The same architecture trained by the WeSpeaker toolkit; an alternative when the 3D-Speaker model splits one voice in two.',
  },
];
