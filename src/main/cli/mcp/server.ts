/**
 * `verbatim mcp [--allow-write]`: a Model Context Protocol server over stdio (the official SDK).
 * Read-only tools and transcripts as resources over the library (a second SQLite connection beside
 * the app's); with --allow-write, transcribe_file and add_vocabulary, which start the services the
 * way `verbatim transcribe` does. Nothing but the protocol goes to stdout; logs go to stderr.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { Library } from '../../services/library/library';
import { recordingLink } from '../../../shared/recording-link';
import type { Values } from '../errors';
import { collectFiles } from '../media-sniff';
import { appVersion, dataDirOf, openCore, openLibrary, type CliCore } from '../session';
import { speakerOptions } from '../transcribe';
import { guarded, idSchema, registerReadTools, text } from './tools';

export interface McpOptions {
  dataDir: string;
  allowWrite: boolean;
}

export async function createMcpServer(opts: McpOptions): Promise<{ server: McpServer; close(): Promise<void> }> {
  const library: Library = await openLibrary(opts.dataDir);
  let services: Promise<CliCore> | null = null;
  const core = () => (services ??= openCore(opts.dataDir, (m) => process.stderr.write(`verbatim: ${m}\n`)));
  const server = new McpServer(
    { name: 'verbatim', version: appVersion() },
    {
      instructions:
        'Verbatim is the user’s transcription library. Search it with search_transcripts, read with get_transcript, and cite what you quote as “recording @ mm:ss” with the verbatim:// link each answer gives: it opens the app at that moment.',
    },
  );
  registerReadTools(server, () => library);

  server.registerResource(
    'transcript',
    new ResourceTemplate('verbatim://recording/{id}', {
      list: () => ({
        resources: library.recordings
          .list({ status: ['completed'], sort: 'created', order: 'desc', limit: 500, offset: 0 })
          .items.map((i) => ({ uri: recordingLink(i.id), name: i.title, mimeType: 'text/markdown', description: `Transcript of ${i.source}` })),
      }),
    }),
    {
      title: 'Transcripts',
      description: 'Each finished transcript as Markdown: front matter, summary, speaker-labelled paragraphs with links to their moments.',
      mimeType: 'text/markdown',
    },
    (uri, vars) => {
      const id = idSchema.parse(String(vars.id));
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: library.exports.render(id, 'md').content }] };
    },
  );

  if (opts.allowWrite) {
    server.registerTool(
      'transcribe_file',
      {
        title: 'Transcribe a file',
        description:
          'Transcribes an audio or video file on this computer into the Verbatim library (as if dropped on the app). Waits up to 50 s; a longer one goes on, and its id is given to read later.',
        inputSchema: {
          path: z.string().min(1).max(4096).describe('An absolute path to the file.'),
          language: z.string().min(2).max(16).optional(),
          speakers: z.union([z.literal('auto'), z.number().int().min(1).max(10)]).optional(),
        },
      },
      ({ path, language, speakers }) =>
        guarded(async () => {
          if (!path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path)) throw new Error('Give an absolute path to the file.');
          const [w] = await collectFiles([resolve(path)]);
          if (!w || w.problem) throw new Error(`${path}: ${w?.problem ?? 'no such file'}`);
          const { core: c } = await core();
          const [job] = await c.jobs.addFiles([{ path: w.path, picked: true }], {
            ...(language ? { languageCode: language } : {}),
            ...speakerOptions(speakers === undefined ? undefined : String(speakers)),
          });
          const final = await new Promise<string>((res) => {
            const timer = setTimeout(() => res('transcribing'), 50_000);
            const off = c.router.subscribe((event, payload) => {
              const p = payload as { id: string; job: { status: string; error: { message: string } | null } | null };
              if (event !== 'jobs.changed' || p.id !== job!.id || !p.job) return;
              if (p.job.status === 'completed' || p.job.status === 'error' || p.job.status === 'canceled') {
                clearTimeout(timer);
                off();
                res(p.job.status === 'completed' ? 'completed' : `failed: ${p.job.error?.message ?? 'canceled'}`);
              }
            });
          });
          if (final.startsWith('failed')) throw new Error(`${path}: ${final}`);
          return text(
            final === 'completed'
              ? `Transcribed into the library: recording id ${job!.recordingId} (${recordingLink(job!.recordingId)}). Read it with get_transcript.`
              : `Still transcribing: recording id ${job!.recordingId}. Ask get_transcript for it in a while.`,
          );
        }),
    );
    server.registerTool(
      'add_vocabulary',
      {
        title: 'Add to the vocabulary',
        description: 'Adds names or terms to the vocabulary every transcription and live caption is given (Settings → Vocabulary).',
        inputSchema: { terms: z.array(z.string().min(1).max(100)).min(1).max(50) },
      },
      ({ terms }) =>
        guarded(async () => {
          const { core: c } = await core();
          let list: string[] = [];
          for (const t of terms) list = c.vocabulary.add(t);
          return text(`Added. The vocabulary now holds ${list.length} term(s).`);
        }),
    );
  }

  return {
    server,
    async close() {
      await server.close();
      if (services) await (await services).close();
      library.close();
    },
  };
}

export async function mcpCommand(values: Values): Promise<number> {
  const { server, close } = await createMcpServer({ dataDir: dataDirOf(values.data as string | undefined), allowWrite: values['allow-write'] === true });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((res) => {
    transport.onclose = () => res();
    process.stdin.once('end', () => res());
  });
  await server.connect(transport);
  process.stderr.write(`verbatim: MCP server ready on stdio${values['allow-write'] ? ' (with write tools)' : ' (read-only)'}.\n`);
  await closed;
  await close();
  return 0;
}
