/** A chat model's name as the user knows it: the catalog's, else the one the service lists (a model installed by hand names itself), never a bare id when a name is known. */
import { catalogEntry } from '../../../shared/models/lookup';

export interface NamedModel {
  id: string;
  name: string;
}

/** `id`'s name: the catalog entry's, else the listed model's, else the id itself. */
export function chatModelName(id: string, listed: readonly NamedModel[] = []): string {
  return catalogEntry(id)?.name ?? listed.find((m) => m.id === id)?.name ?? id;
}
