/**
 * The MCP server's read-only tools over the library. Inputs are zod shapes with bounds (the SDK
 * validates them before a handler runs); every answer cites `title @ mm:ss` with the verbatim://
 * link to that moment; a failure is a tool error the client reads, never a crash.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Library } from '../../services/library/library';
import { clockOf, recordingLink } from '../../../shared/recording-link';
import { cite, lineText, searchLibrary, transcriptLines } from '../queries';

export const idSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,80}$/, 'A recording id is letters, digits, - and _ (as list_recordings and search_transcripts give them).');
const dateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is YYYY-MM-DD.');

export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

export function text(t: string): ToolResult {
  return { content: [{ type: 'text', text: t }] };
}

/** Runs a tool's work; any failure becomes the tool's error answer (the server goes on). */
export async function guarded(fn: () => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await fn();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { content: [{ type: 'text', text: `Error: ${message}` }], isError: true };
  }
}

const link = (c: { cite: string; link: string }) => `[${c.cite}](${c.link})`;

export function registerReadTools(server: McpServer, library: () => Library): void {
  server.registerTool(
    'search_transcripts',
    {
      title: 'Search transcripts',
      description:
        'Full-text search over every transcript in the Verbatim library. Each hit: the sentence, who said it, and a citation "recording @ mm:ss" linking to that moment (verbatim://recording/ID?t=SECONDS).',
      inputSchema: {
        query: z.string().min(1).max(500).describe('Words to find; "quoted phrase" for an exact phrase.'),
        said_by: z.string().min(1).max(100).optional().describe('Only sentences said by this person (a remembered voice or a speaker name).'),
        from: dateSchema.optional().describe('Only recordings made on or after this date (YYYY-MM-DD).'),
        to: dateSchema.optional().describe('Only recordings made on or before this date (YYYY-MM-DD).'),
        limit: z.number().int().min(1).max(50).default(10),
      },
      annotations: { readOnlyHint: true },
    },
    ({ query, said_by, from, to, limit }) =>
      guarded(() => {
        const hits = searchLibrary(library(), { query, limit, ...(said_by ? { saidBy: said_by } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) });
        if (!hits.length) return text(`Nothing found for “${query}”${said_by ? ` said by ${said_by}` : ''}.`);
        return text(hits.map((h) => `- ${link(h)} ${h.speaker ? `${h.speaker}: ` : ''}“${h.sentence}” (recording id ${h.recordingId})`).join('\n'));
      }),
  );

  server.registerTool(
    'get_transcript',
    {
      title: 'Get a transcript',
      description:
        'A transcript as speaker-labelled lines with their times, each citing "recording @ mm:ss" with a link to that moment. Optionally only a time range; long transcripts come in pages.',
      inputSchema: {
        id: idSchema,
        from_seconds: z.number().min(0).max(1e7).optional(),
        to_seconds: z.number().min(0).max(1e7).optional(),
        page: z.number().int().min(1).max(100_000).default(1),
        page_size: z.number().int().min(1).max(500).default(100).describe('Lines per page.'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ id, from_seconds, to_seconds, page, page_size }) =>
      guarded(() => {
        const { item, lines } = transcriptLines(library(), id, (from_seconds ?? 0) * 1000, to_seconds === undefined ? undefined : to_seconds * 1000);
        const pages = Math.max(1, Math.ceil(lines.length / page_size));
        if (page > pages) throw new Error(`There are ${pages} pages of ${page_size} lines; page ${page} is past the end.`);
        const shown = lines.slice((page - 1) * page_size, page * page_size);
        const head = `${item.title} (${item.createdAt.slice(0, 10)}${item.durationMs === null ? '' : `, ${clockOf(item.durationMs)}`}) ${recordingLink(item.id)}\nPage ${page} of ${pages}${page < pages ? `: ask for page ${page + 1} for more` : ''}.`;
        return text([head, '', ...shown.map((l) => `${lineText(l)} — ${link(l)}`)].join('\n'));
      }),
  );

  server.registerTool(
    'list_recordings',
    {
      title: 'List recordings',
      description: 'The recordings in the library, newest first: title, date, length, status and id, each with its verbatim:// link.',
      inputSchema: {
        title: z.string().max(200).optional().describe('Only titles containing this.'),
        from: dateSchema.optional(),
        to: dateSchema.optional(),
        limit: z.number().int().min(1).max(200).default(50),
        offset: z.number().int().min(0).max(1_000_000).default(0),
      },
      annotations: { readOnlyHint: true },
    },
    ({ title, from, to, limit, offset }) =>
      guarded(() => {
        const { items, total } = library().recordings.list({
          sort: 'created',
          order: 'desc',
          limit,
          offset,
          ...(title ? { title } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
        });
        if (!items.length) return text(total ? `No recordings past ${offset} (there are ${total}).` : 'No recordings match.');
        const lines = items.map(
          (i) =>
            `- ${link(cite(i.id, i.title, 0))} ${i.createdAt.slice(0, 10)}${i.durationMs === null ? '' : `, ${clockOf(i.durationMs)}`}, ${i.status}, id ${i.id}${i.tags.length ? `, tags: ${i.tags.join(', ')}` : ''}`,
        );
        return text([`${offset + 1}-${offset + items.length} of ${total}:`, ...lines].join('\n'));
      }),
  );

  server.registerTool(
    'get_summary',
    {
      title: 'Get the saved summary',
      description: 'The summary, action items and decisions saved with a recording in Verbatim (made in the app), citing the recording.',
      inputSchema: { id: idSchema },
      annotations: { readOnlyHint: true },
    },
    ({ id }) =>
      guarded(() => {
        const lib = library();
        const t = lib.transcripts.get(id);
        const c = link(cite(id, t.item.title, 0));
        const out: string[] = [];
        for (const i of lib.insights.list(t.transcriptId)) {
          const r = i.result;
          if (r.kind === 'summary') out.push('Summary:', ...r.bullets.map((b) => `- ${b}`));
          if (r.kind === 'action_items')
            out.push('Action items:', ...r.items.map((a) => `- ${a.task}${a.owner ? ` (owner: ${a.owner})` : ''}${a.due ? ` (due: ${a.due})` : ''}`));
          if (r.kind === 'decisions') out.push('Decisions:', ...r.decisions.map((d) => `- ${d}`));
        }
        if (!out.length) return text(`${c} has no saved summary. Make one in the app (the transcript's Summary), or read the transcript with get_transcript.`);
        return text([c, ...out].join('\n'));
      }),
  );

  server.registerTool(
    'list_people',
    {
      title: 'List people',
      description: 'The people whose voices Verbatim remembers, with the recordings they speak in (use said_by in search_transcripts).',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(() => {
        const people = library().voices.people.list();
        if (!people.length) return text('No remembered people yet: name a speaker in the app and choose to remember their voice.');
        return text(
          people
            .map(
              (p) =>
                `- ${p.name}: ${p.recordings.length} recording(s)${
                  p.recordings.length
                    ? `: ${p.recordings
                        .slice(0, 20)
                        .map((r) => link(cite(r.id, r.title, 0)))
                        .join(', ')}`
                    : ''
                }`,
            )
            .join('\n'),
        );
      }),
  );
}
