/**
 * The chat's whole-recording actions (summary, action items, follow-up
 * email): every line of the transcripts, labelled `[Label @ mm:ss]`, when
 * they fit the model's context; else map-reduce: the lines are cut into
 * parts that fit, the model takes notes on each part (keeping the citations
 * of the lines it used), and the action is asked of the notes. Progress is
 * reported part by part; the signal stops it between and during parts.
 */
import { clockLabel, type CitationSource, type GivenPassage } from '../../../shared/chat/citations';
import type { ChatAction } from '../../../shared/chat/actions';
import type { ChatMessage } from '../../../shared/api/gateway';
import { AppError } from '../../../shared/errors';

export interface ActionRecording {
  recordingId: string;
  label: string;
  sentences: { startMs: number; text: string }[];
}

export interface ActionPrompt {
  messages: ChatMessage[];
  given: GivenPassage[];
  /** How many parts the transcripts were cut into (1: whole). */
  parts: number;
}

export interface MapReduceHooks {
  /** One model call, whole answer (the notes on one part). */
  complete(messages: ChatMessage[], signal: AbortSignal): Promise<string>;
  /** Called before each part: `done` of `total` parts have notes. */
  progress(done: number, total: number): void;
  signal: AbortSignal;
}

function instructions(sources: CitationSource[]): string {
  const names = sources.map((s) => `“${s.label}”`).join(', ');
  return [
    `You work on recordings (${names}) from their transcripts below.`,
    'Each line starts with [Recording @ mm:ss]: the recording and the moment it was said.',
    `After every statement, cite the line it comes from exactly in that form, for example [${sources[0]?.label ?? 'Recording'} @ 01:05].`,
    'Use only what the transcripts say. Answer in Markdown.',
  ].join(' ');
}

/** The transcripts' lines, in order, with their citation labels. */
export function actionLines(recordings: ActionRecording[]): string[] {
  return recordings.flatMap((r) => r.sentences.map((s) => `[${r.label} @ ${clockLabel(s.startMs)}] ${s.text.replace(/\s+/g, ' ').trim()}`));
}

/** Lines cut into parts of at most `budget` characters each (a line longer than that is a part alone, cut short). */
export function cutParts(lines: string[], budget: number): string[][] {
  const parts: string[][] = [];
  let cur: string[] = [];
  let used = 0;
  for (const raw of lines) {
    const line = raw.length > budget ? raw.slice(0, budget) : raw;
    if (used + line.length + 1 > budget && cur.length) {
      parts.push(cur);
      cur = [];
      used = 0;
    }
    cur.push(line);
    used += line.length + 1;
  }
  if (cur.length) parts.push(cur);
  return parts;
}

/** The messages for `action` over `recordings`, with map-reduce when they exceed `budget` characters. */
export async function actionPrompt(action: ChatAction, recordings: ActionRecording[], budget: number, hooks: MapReduceHooks): Promise<ActionPrompt> {
  const sources = recordings.map((r) => ({ recordingId: r.recordingId, label: r.label }));
  const given = recordings.flatMap((r) => r.sentences.map((s) => ({ recordingId: r.recordingId, startMs: s.startMs })));
  const lines = actionLines(recordings);
  const whole = lines.join('\n');
  if (whole.length <= budget) {
    return {
      messages: [
        { role: 'system', content: `${instructions(sources)}\n\nTranscripts:\n${whole}` },
        { role: 'user', content: `${action.task}` },
      ],
      given,
      parts: 1,
    };
  }
  const parts = cutParts(lines, budget);
  const notes: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (hooks.signal.aborted) throw new AppError('canceled', 'Stopped.');
    hooks.progress(i, parts.length);
    const note = await hooks.complete(
      [
        {
          role: 'system',
          content:
            `${instructions(sources)} This is part ${i + 1} of ${parts.length} of the transcripts. ` +
            `Take brief notes, as a Markdown list, of what in this part matters for this task: ${action.task}\n\nTranscript part ${i + 1}:\n${(parts[i] as string[]).join('\n')}`,
        },
        { role: 'user', content: `Notes on part ${i + 1}, each with its citation:` },
      ],
      hooks.signal,
    );
    notes.push(`Part ${i + 1}:\n${note.trim()}`);
  }
  hooks.progress(parts.length, parts.length);
  // The notes must fit too: each part's notes get an equal share.
  const share = Math.max(200, Math.floor(budget / notes.length));
  const joined = notes.map((n) => (n.length > share ? n.slice(0, share) : n)).join('\n\n');
  return {
    messages: [
      {
        role: 'system',
        content: `${instructions(sources)} The transcripts were too long to read at once: below are notes on each of their ${parts.length} parts, in order, with the citations of the lines they come from. Keep those citations.\n\nNotes:\n${joined}`,
      },
      { role: 'user', content: action.task },
    ],
    given,
    parts: parts.length,
  };
}
