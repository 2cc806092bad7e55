/** A chat as a Markdown document: title, model, recordings, then each question and answer with its citations as written. */
import { clockLabel } from '../../../shared/chat/citations';
import type { ChatDetail } from '../../../shared/chat/schema';

export function chatMarkdown(chat: ChatDetail): string {
  const lines = [`# ${chat.title}`, ''];
  lines.push(`- Started: ${chat.createdAt.slice(0, 16).replace('T', ' ')} UTC`);
  if (chat.model) lines.push(`- Model: ${chat.model}`);
  lines.push(chat.scope === 'library' ? '- Recordings: the whole library' : `- Recordings: ${chat.recordings.map((r) => r.title).join(', ') || 'none left'}`);
  lines.push('');
  for (const m of chat.messages) {
    if (m.role === 'user') {
      lines.push(`## ${m.content.replace(/\s+/g, ' ').trim()}`, '');
      continue;
    }
    lines.push(m.content.trim() || '_(no answer)_');
    if (m.status === 'stopped') lines.push('', '_(stopped)_');
    if (m.status === 'error') lines.push('', `_(failed: ${m.error ?? 'unknown error'})_`);
    if (m.citations.length) {
      const seen = new Set<string>();
      const refs = m.citations.filter((c) => !seen.has(`${c.recordingId}@${c.atMs}`) && seen.add(`${c.recordingId}@${c.atMs}`));
      const titleOf = (id: string, label: string) => m.sources.find((s) => s.recordingId === id)?.title ?? label;
      lines.push('', `Sources: ${refs.map((c) => `${titleOf(c.recordingId, c.label)} @ ${clockLabel(c.atMs)}`).join('; ')}`);
    } else if (m.sources.length) {
      lines.push('', `From: ${m.sources.map((s) => s.title).join(', ')}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
