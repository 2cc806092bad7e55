/** One vocabulary for a transcript's or job's state, used by the list, the queue and the details panel alike. */
import type { JobStatus } from '../../../shared/jobs';
import type { Tone } from './Badge';
import { languageLabels } from './labels';

export const statusLabel: Record<JobStatus, [label: string, tone: Tone]> = {
  queued: ['Waiting', 'neutral'],
  uploading: ['Uploading', 'accent'],
  submitted: ['In progress', 'accent'],
  processing: ['Transcribing', 'accent'],
  completed: ['Ready', 'ok'],
  error: ['Failed', 'danger'],
  canceled: ['Canceled', 'neutral'],
};

/** An unknown code is shown as it is. */
const languageNames = new Map(languageLabels);

export function languageName(code: string | null): string {
  if (!code) return '—';
  return languageNames.get(code.toLowerCase()) ?? code;
}
