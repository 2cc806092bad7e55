/**
 * Markdown with YAML front matter (a note for Obsidian, Logseq and the like): the front matter is
 * written by the `yaml` library (names with colons, quotes or line breaks stay what they are), then
 * the summary and action items when there are any, then the transcript as speaker-labelled
 * paragraphs whose times link back to that moment of the recording.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Insight } from '../../../shared/chat/schema';
import type { Transcript } from '../../../shared/library';
import { clockOf, recordingLink } from '../../../shared/recording-link';

/**
 * The `yaml` library, loaded on the first Markdown export instead of with the services: its ~50
 * module files took ~20 ms of every host-mode start, on the path to the page's first answer (issue 52).
 */
let yamlLib: typeof Yaml | null = null;
function yaml(): typeof Yaml {
  return (yamlLib ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
}

/** What the front matter says (also what a notes-folder test reads back). */
export interface NoteFrontMatter {
  title: string;
  date: string;
  duration: string | null;
  source: string;
  language: string | null;
  model: string | null;
  speakers: string[];
  tags: string[];
  link: string;
}

export function frontMatterOf(t: Transcript): NoteFrontMatter {
  const item = t.item;
  return {
    title: item.title,
    date: item.createdAt,
    duration: item.durationMs === null ? null : clockOf(item.durationMs),
    source: item.source,
    language: item.language,
    model: item.model,
    speakers: t.speakers.map((s) => s.name ?? `Speaker ${s.id}`),
    tags: item.tags,
    link: recordingLink(item.id),
  };
}

/** One line of Markdown: no line breaks, and the characters that would start markup at its beginning or inside are escaped. */
export function mdInline(text: string): string {
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/([\\`*_[\]<>|])/g, '\\$1')
    .replace(/^([#>+-]|\d+\.)/, '\\$1');
}

/** A paragraph as the user left it (exports.ts editedParagraphs). */
export interface NoteParagraph {
  speaker: string | null;
  start: number;
  text: string;
}

export function toMarkdown(t: Transcript, paragraphs: NoteParagraph[], insights: Insight[]): string {
  const front = yaml().stringify(frontMatterOf(t), { lineWidth: 0 }).trimEnd();
  const out: string[] = ['---', front, '---', '', `# ${mdInline(t.item.title)}`, ''];
  const summary = insights.find((i) => i.kind === 'summary')?.result;
  if (summary?.kind === 'summary' && summary.bullets.length) {
    out.push('## Summary', '', ...summary.bullets.map((b) => `- ${mdInline(b)}`), '');
  }
  const actions = insights.find((i) => i.kind === 'action_items')?.result;
  if (actions?.kind === 'action_items' && actions.items.length) {
    out.push(
      '## Action items',
      '',
      ...actions.items.map((a) => {
        const extra = [a.owner && `owner: ${mdInline(a.owner)}`, a.due && `due: ${mdInline(a.due)}`].filter(Boolean).join(', ');
        return `- [ ] ${mdInline(a.task)}${extra ? ` (${extra})` : ''}`;
      }),
      '',
    );
  }
  out.push('## Transcript', '');
  for (const p of paragraphs) {
    if (!p.text.trim()) continue;
    const time = `[${clockOf(p.start)}](${recordingLink(t.item.id, p.start)})`;
    out.push(`${time} ${p.speaker ? `**${mdInline(p.speaker)}:** ` : ''}${mdInline(p.text)}`, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
