/** Catalog entries for local chat models (GGUF, run by node-llama-cpp); the llm engineer fills them. */
import type { CatalogEntry } from './catalog';

export const CHAT_MODELS: CatalogEntry[] = [];
