/**
 * Catalog entries for speaker diarization: segmentation models (who talks
 * when, pyannote) and speaker-embedding models (what each voice sounds like),
 * from sherpa-onnx's speaker-segmentation-models and speaker-recongition-models
 * releases (the tag's spelling is upstream's). Diarization needs one of each;
 * the engine takes the first installed entry of each task in this order.
 * Sizes and SHA-256 are upstream's, each with its source in upstream.ts.
 * sherpa-onnx publishes a checksum.txt for the speaker-recongition-models tag
 * (`checksums`) but none for speaker-segmentation-models, so the segmentation
 * archive's SHA-256 is recorded on its first download.
 */
import type { CatalogEntry } from './catalog';

const SEGMENTATION = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-segmentation-models';
const EMBEDDING = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/speaker-recongition-models';

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
    sizeBytes: 6_958_444,
    unpackedBytes: 5_992_913,
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
    unpackedBytes: 1_625_293,
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
    sizeBytes: 29_596_978,
    unpackedBytes: 29_596_978,
    checksums: `${EMBEDDING}/checksum.txt`,
    sha256: '357a834f702b80161e5b981182c038e18553c1f2ca752ed6cec2052365d4129b',
    files: { model: '3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx' },
    licence: 'Apache-2.0',
    speedClass: 'fast',
    // Source of "faster": the CAM++ paper's abstract (arXiv:2303.00332, https://huggingface.co/papers/2303.00332) reports lower computational cost
    // and faster inference than ECAPA-TDNN; it gives no ratio in the abstract, so the note names none.
    note: 'Tells English voices apart (512-value voiceprints). Fast: its authors report less computation and faster inference than ECAPA-TDNN.',
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
    sizeBytes: 28_281_164,
    unpackedBytes: 28_281_164,
    checksums: `${EMBEDDING}/checksum.txt`,
    sha256: 'aa3cfc16963a10586a9393f5035d6d6b57e98d358b347f80c2a30bf4f00ceba2',
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
    sha256: 'c46fad10b5f81e1aa4a60c162714208577093655076c5450f8c469e522ec54ef',
    files: { model: 'wespeaker_en_voxceleb_CAM++.onnx' },
    licence: 'Apache-2.0 code, CC-BY-4.0 weights (VoxCeleb)',
    speedClass: 'fast',
    note: 'The same architecture trained by the WeSpeaker toolkit; an alternative when the 3D-Speaker model splits one voice in two.',
  },
  {
    ...common,
    id: 'nemo-titanet-small',
    name: 'NeMo TitaNet small (English)',
    task: 'embedding',
    family: 'speaker-embedding',
    languages: ['en'],
    url: `${EMBEDDING}/nemo_en_titanet_small.onnx`,
    format: 'file',
    sizeBytes: 40_257_283,
    unpackedBytes: 40_257_283,
    checksums: `${EMBEDDING}/checksum.txt`,
    sha256: 'ad4a1802485d8b34c722d2a9d04249662f2ece5d28a7a039063ca22f515a789e',
    files: { model: 'nemo_en_titanet_small.onnx' },
    licence: 'CC-BY-4.0',
    speedClass: 'fast',
    note: 'NVIDIA’s TitaNet voice model for English; another choice when speakers come out labelled wrongly.',
  },
  {
    ...common,
    id: 'nemo-titanet-large',
    name: 'NeMo TitaNet large (English)',
    task: 'embedding',
    family: 'speaker-embedding',
    languages: ['en'],
    url: `${EMBEDDING}/nemo_en_titanet_large.onnx`,
    format: 'file',
    sizeBytes: 101_405_493,
    unpackedBytes: 101_405_493,
    checksums: `${EMBEDDING}/checksum.txt`,
    files: { model: 'nemo_en_titanet_large.onnx' },
    licence: 'CC-BY-4.0',
    speedClass: 'medium',
    note: 'The larger TitaNet: a 101 MB download, slower than the small one, for recordings where voices are hard to tell apart.',
  },
];
