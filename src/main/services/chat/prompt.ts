/**
 * The messages a chat sends to the gateway: the passages the prompt quotes,
 * each line prefixed `[Label @ mm:ss]`, the instructions that ask for
 * citations in that form, the conversation so far, and the question. One
 * cloud transcript travels by `transcript_id` and `{{ transcript }}` instead.
 */
import { clockLabel, type CitationSource } from '../../../shared/chat/citations';
import type { ChatMessage as StoredMessage } from '../../../shared/chat/schema';
import type { ChatMessage } from '../../../shared/api/gateway';
import type { Retrieved } from '../library/retrieval';

/** Hardening caps gateway bodies at 2 MB; text may be 3 bytes a character once UTF-8 encoded. */
export const MAX_PROMPT_CHARS = 600_000;
/** Room kept for the answer and the instructions. */
const ANSWER_TOKENS = 1500;

/** Characters of passages a model can read (about 3.5 characters a token, a fifth kept spare). */
export function budgetChars(contextLength: number, historyChars: number): number {
  const tokens = Math.max(1000, contextLength - ANSWER_TOKENS - Math.ceil(historyChars / 3.5));
  return Math.max(2000, Math.min(MAX_PROMPT_CHARS - historyChars, Math.floor(tokens * 3.5 * 0.8)));
}

export function passageLines(retrieved: Retrieved, labels: Map<string, string>): string {
  const lines: string[] = [];
  for (const { recording, passages } of retrieved.recordings) {
    const label = labels.get(recording.id) ?? recording.title;
    for (const p of passages) lines.push(`[${label ? `${label} @ ` : ''}${clockLabel(p.startMs)}] ${p.text.replace(/\s+/g, ' ').trim()}`);
  }
  return lines.join('\n');
}

function instructions(sources: CitationSource[], whole: boolean): string {
  const names = sources.map((s) => `“${s.label}”`).join(', ');
  return [
    'You answer questions about recordings, using only their transcripts below.',
    `Recordings: ${names || 'none'}.`,
    whole ? 'The transcripts are given whole.' : 'Only the passages that best match the question are given, not whole transcripts.',
    'Each line starts with [Recording @ mm:ss]: the recording and the moment it was said.',
    'After every statement you make, cite the line it comes from exactly in that form, for example [' + (sources[0]?.label ?? 'Recording') + ' @ 01:05].',
    'If the transcripts do not answer the question, say so plainly. Answer in Markdown, briefly.',
  ].join(' ');
}

/** Earlier turns that fit in `maxChars`, newest kept first; stopped or failed answers are left out. */
export function historyMessages(history: StoredMessage[], maxChars: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  let used = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i] as StoredMessage;
    if (m.role === 'assistant' && m.status !== 'done') continue;
    if (!m.content.trim()) continue;
    if (used + m.content.length > maxChars) break;
    used += m.content.length;
    out.unshift({ role: m.role, content: m.content });
  }
  return out;
}

export interface PromptInput {
  question: string;
  history: StoredMessage[];
  retrieved: Retrieved;
  sources: CitationSource[];
  /** The offline model ranks every system and earlier user line as a passage: it gets the passages and the question only. */
  extractive: boolean;
}

export function buildMessages(p: PromptInput): ChatMessage[] {
  const labels = new Map(p.sources.map((s) => [s.recordingId, s.label]));
  const passages = passageLines(p.retrieved, labels);
  if (p.extractive)
    return [
      { role: 'system', content: passages },
      { role: 'user', content: p.question },
    ];
  return [
    { role: 'system', content: `${instructions(p.sources, p.retrieved.whole)}\n\nTranscripts:\n${passages}` },
    ...historyMessages(p.history, 40_000),
    { role: 'user', content: p.question },
  ];
}

/** One cloud transcript: the service fills in `{{ transcript }}` itself, without times, so answers quote sentences and main finds their moments. */
export function buildTranscriptIdMessages(question: string, history: StoredMessage[], source: CitationSource): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `You answer questions about the recording “${source.label}”, using only its transcript: {{ transcript }}\n\n` +
        'Quote the sentences your answer rests on word for word, in double quotes. If the transcript does not answer the question, say so plainly. Answer in Markdown, briefly.',
    },
    ...historyMessages(history, 40_000),
    { role: 'user', content: question },
  ];
}
