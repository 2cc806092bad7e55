/**
 * Display names and initial values the renderer needs before main answers,
 * from src/shared's zod-free modules (defaults.ts, job-states.ts) so the page
 * does not load the schemas.
 */
import { isFinalJobStatus, type JobStatus } from '../../../shared/job-states';
import { DEFAULT_SETTINGS, PII_POLICY_LABELS, REGION_LABELS, type PiiPolicy } from '../../../shared/defaults';
import type { Region, SettingsView } from '../../../shared/settings';

export const regionLabels: Readonly<Record<Region, string>> = REGION_LABELS;

export type { PiiPolicy };
export const piiPolicyLabels: Readonly<Record<PiiPolicy, string>> = PII_POLICY_LABELS;

/** Final job states come from src/shared/job-states (no zod there). */
export const isFinalStatus = (s: JobStatus): boolean => isFinalJobStatus(s);

/** Shown for the few milliseconds before `settings.get` answers; main's values replace it. */
export const initialSettings: SettingsView = { ...structuredClone(DEFAULT_SETTINGS), webhookAuthHeaderSaved: false };

/** Languages offered for new jobs, and the names shown for the codes the service answers with. */
export const languageLabels: ReadonlyArray<readonly [code: string, label: string]> = [
  ['en_us', 'English (US)'],
  ['en_uk', 'English (UK)'],
  ['en_au', 'English (Australia)'],
  ['en', 'English (global)'],
  ['es', 'Spanish'],
  ['fr', 'French'],
  ['de', 'German'],
  ['it', 'Italian'],
  ['pt', 'Portuguese'],
  ['nl', 'Dutch'],
  ['hi', 'Hindi'],
  ['ja', 'Japanese'],
  ['zh', 'Chinese'],
  ['ko', 'Korean'],
  ['ru', 'Russian'],
  ['tr', 'Turkish'],
  ['pl', 'Polish'],
  ['uk', 'Ukrainian'],
  ['vi', 'Vietnamese'],
  ['fi', 'Finnish'],
];
