/** The service's speech models in the user's words, for every picker that offers them (Settings, watch folders, live captions): one list, src/shared/api/service-models.ts. */
import { findServiceModel, offeredServiceModels, type ServiceModel, type ServiceModelKind } from '../../../shared/api/service-models';
import { catalogEntry } from '../../../shared/models/lookup';

export interface ServiceModelChoice {
  id: string;
  label: string;
  help: string;
}

/** "English", "32 languages"; a deprecated model says what replaces it. */
export function serviceModelHelp(m: ServiceModel): string {
  const languages = m.languageCount === 1 && m.languages?.[0] === 'en' ? 'English' : `${m.languageCount} languages`;
  if (m.status !== 'deprecated') return `${languages}.`;
  const by = m.replacedBy ? (findServiceModel(m.kind, m.replacedBy)?.label ?? m.replacedBy) : null;
  return `${languages}; being retired${by ? ` in favour of ${by}` : ''}.`;
}

/** The models a picker offers (none the service has retired), the recommended ones first as the list has them. */
export function serviceModelChoices(kind: ServiceModelKind): ServiceModelChoice[] {
  return offeredServiceModels(kind).map((m) => ({ id: m.id, label: m.label, help: serviceModelHelp(m) }));
}

/** The service's name for a model id (or the id when the list does not know it). */
export function serviceModelLabel(kind: ServiceModelKind, id: string): string {
  return findServiceModel(kind, id)?.label ?? id;
}

/** The model a transcript says ran (`speech_model_used`): the service's or the catalog's name, with the id the service answered. */
export function usedModelText(id: string): string {
  const name = catalogEntry(id)?.name ?? findServiceModel('prerecorded', id)?.label ?? findServiceModel('streaming', id)?.label;
  return name && name !== id ? `${name} (${id})` : id;
}
