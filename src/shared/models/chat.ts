/**
 * Catalog entries for local chat models: small instruct models as Q4_K_M
 * GGUF files, run on the CPU by node-llama-cpp in the engine's gateway.
 * Each URL pins a Hugging Face revision, so the file's size and SHA-256 are
 * the ones Hugging Face keeps for its LFS object at that revision (sources
 * in upstream.ts). `ramBytes` is what the model needs loaded with a
 * 4,096-token context: the file, its F16 KV cache (2 × layers × KV heads ×
 * head size × 2 bytes a token) and 64 MB of buffers; the engine checks it
 * against free memory before loading.
 */
import type { CatalogEntry } from './catalog';

const HF = 'https://huggingface.co';
const common = { task: 'chat' as const, family: 'gguf' as const, format: 'file' as const, wer: [], rtf: null, wordTimings: 'none' as const };

function entry(e: Omit<CatalogEntry, keyof typeof common | 'files' | 'unpackedBytes' | 'checksums'> & { file: string }): CatalogEntry {
  const { file, ...rest } = e;
  return { ...common, ...rest, unpackedBytes: rest.sizeBytes, checksums: null, files: { model: file } };
}

const QWEN_LANGUAGES = ['en', 'zh', 'fr', 'es', 'pt', 'de', 'it', 'ru', 'ja', 'ko', 'vi', 'th', 'ar'];
const LLAMA_LANGUAGES = ['en', 'de', 'fr', 'it', 'pt', 'hi', 'es', 'th'];
const PHI_LANGUAGES = ['en', 'ar', 'zh', 'nl', 'fr', 'de', 'it', 'ja', 'ko', 'pl', 'pt', 'ru', 'es', 'sv', 'th', 'tr', 'uk'];

export const CHAT_MODELS: CatalogEntry[] = [
  entry({
    id: 'qwen2.5-0.5b-instruct',
    name: 'Qwen2.5 0.5B Instruct (Q4_K_M)',
    languages: QWEN_LANGUAGES,
    url: `${HF}/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/9217f5db79a29953eb74d5343926648285ec7e67/qwen2.5-0.5b-instruct-q4_k_m.gguf`,
    file: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    sizeBytes: 491_400_032,
    sha256: '74a4da8c9fdbcd15bd1f6d01d621410d31c6fc00986f5eb687824e7b93d7a9db',
    licence: 'Apache-2.0',
    speedClass: 'fast',
    contextLength: 32_768,
    ramBytes: 650_000_000,
    note: 'The smallest: quick on any laptop, good for short summaries and action items; weaker at long or subtle answers.',
  }),
  entry({
    id: 'qwen2.5-1.5b-instruct',
    name: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    languages: QWEN_LANGUAGES,
    url: `${HF}/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/91cad51170dc346986eccefdc2dd33a9da36ead9/qwen2.5-1.5b-instruct-q4_k_m.gguf`,
    file: 'qwen2.5-1.5b-instruct-q4_k_m.gguf',
    sizeBytes: 1_117_320_736,
    sha256: '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
    licence: 'Apache-2.0',
    speedClass: 'medium',
    contextLength: 32_768,
    ramBytes: 1_300_000_000,
    note: 'The recommended start: good summaries, translation and follow-up emails.',
  }),
  entry({
    id: 'qwen2.5-3b-instruct',
    name: 'Qwen2.5 3B Instruct (Q4_K_M)',
    languages: QWEN_LANGUAGES,
    url: `${HF}/Qwen/Qwen2.5-3B-Instruct-GGUF/resolve/7dabda4d13d513e3e842b20f0d435c732f172cbe/qwen2.5-3b-instruct-q4_k_m.gguf`,
    file: 'qwen2.5-3b-instruct-q4_k_m.gguf',
    sizeBytes: 2_104_932_768,
    sha256: '626b4a6678b86442240e33df819e00132d3ba7dddfe1cdc4fbb18e0a9615c62d',
    licence: 'Qwen Research License (non-commercial)',
    speedClass: 'slow',
    contextLength: 32_768,
    ramBytes: 2_350_000_000,
    note: 'Better answers than 1.5B, but slower: its file is nearly twice the size. Its licence allows research and non-commercial use only.',
  }),
  entry({
    id: 'llama-3.2-1b-instruct',
    name: 'Llama 3.2 1B Instruct (Q4_K_M)',
    languages: LLAMA_LANGUAGES,
    url: `${HF}/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/067b946cf014b7c697f3654f621d577a3e3afd1c/Llama-3.2-1B-Instruct-Q4_K_M.gguf`,
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    sizeBytes: 807_694_464,
    sha256: '6f85a640a97cf2bf5b8e764087b1e83da0fdb51d7c9fab7d0fece9385611df83',
    licence: 'Llama 3.2 Community License',
    speedClass: 'fast',
    contextLength: 131_072,
    ramBytes: 1_000_000_000,
    note: "Meta's small model: fast, fine for summaries in its eight languages.",
  }),
  entry({
    id: 'llama-3.2-3b-instruct',
    name: 'Llama 3.2 3B Instruct (Q4_K_M)',
    languages: LLAMA_LANGUAGES,
    url: `${HF}/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/5ab33fa94d1d04e903623ae72c95d1696f09f9e8/Llama-3.2-3B-Instruct-Q4_K_M.gguf`,
    file: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
    sizeBytes: 2_019_377_696,
    sha256: '6c1a2b41161032677be168d354123594c0e6e67d2b9227c84f296ad037c728ff',
    licence: 'Llama 3.2 Community License',
    speedClass: 'slow',
    contextLength: 131_072,
    ramBytes: 2_550_000_000,
    // The memory figure is ramBytes, worked out as this file's header says (file + F16 KV cache at 4,096 tokens + buffers).
    note: 'Better at following instructions than 1B; needs about 2.6 GB of free memory to load.',
  }),
  entry({
    id: 'phi-3.5-mini-instruct',
    name: 'Phi-3.5 mini Instruct (Q4_K_M)',
    languages: PHI_LANGUAGES,
    url: `${HF}/bartowski/Phi-3.5-mini-instruct-GGUF/resolve/6d70da17e749a471ccb62ade694486011a75cda3/Phi-3.5-mini-instruct-Q4_K_M.gguf`,
    file: 'Phi-3.5-mini-instruct-Q4_K_M.gguf',
    sizeBytes: 2_393_232_672,
    sha256: 'e4165e3a71af97f1b4820da61079826d8752a2088e313af0c7d346796c38eff5',
    licence: 'MIT',
    speedClass: 'slow',
    contextLength: 131_072,
    ramBytes: 4_000_000_000,
    note: "Microsoft's 3.8B model, strong at reasoning; the largest here, with a large memory need (no grouped-query attention).",
  }),
];
