/** What a transcript says about its speakers under Re-cluster: short speakers merged, and the remembered voices recognised in it. */
import type { SpeakerNote, VoiceMatch } from '../../../../shared/ipc/people';
import { matchText } from '../../../../shared/voices/live';

export function noteText(note: SpeakerNote | null, matches: readonly VoiceMatch[]): string {
  const parts: string[] = [];
  if (note && note.merged > 0) parts.push(`${note.merged} short ${note.merged === 1 ? 'speaker was' : 'speakers were'} merged into the nearest voice.`);
  // A speaker named here is no recognition; a recognised voice may match fully (100%).
  const recognised = matches.filter((m) => !m.named);
  if (recognised.length > 0) parts.push(`Recognised: ${recognised.map((m) => `${m.name} (${matchText(m.similarity)})`).join(', ')}.`);
  return parts.join(' ');
}
