/** One vocabulary for a transcript's or job's state, used by the list, the queue and the details panel alike. */
import type { JobStatus } from '../../../shared/jobs';
import type { Tone } from './Badge';

export const statusLabel: Record<JobStatus, [label: string, tone: Tone]> = {
  queued: ['Waiting', 'neutral'],
  uploading: ['Uploading', 'accent'],
  submitted: ['In progress', 'accent'],
  processing: ['Transcribing', 'accent'],
  completed: ['Ready', 'ok'],
  error: ['Failed', 'danger'],
  canceled: ['Canceled', 'neutral'],
};

/** Readable names for the language codes the service answers with; an unknown code is shown as it is. */
const languageNames: Record<string, string> = {
  en: 'English',
  en_us: 'English (US)',
  en_uk: 'English (UK)',
  en_au: 'English (Australia)',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  it: 'Italian',
  pt: 'Portuguese',
  nl: 'Dutch',
  hi: 'Hindi',
  ja: 'Japanese',
  zh: 'Chinese',
  ko: 'Korean',
  ru: 'Russian',
  tr: 'Turkish',
  pl: 'Polish',
  uk: 'Ukrainian',
  vi: 'Vietnamese',
  fi: 'Finnish',
};

export function languageName(code: string | null): string {
  if (!code) return '—';
  return languageNames[code.toLowerCase()] ?? code;
}
