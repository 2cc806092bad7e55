/** Catalog entries for speaker diarization models (segmentation and embedding); the speakers engineer fills them. */
import type { CatalogEntry } from './catalog';

export const SPEAKER_MODELS: CatalogEntry[] = [];
