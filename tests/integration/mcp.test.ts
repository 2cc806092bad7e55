/**
 * `verbatim mcp` driven by the MCP SDK's own Client over stdio: the tools it lists, every tool's
 * answer with its citations, transcripts as resources, a read-only refusal of a write tool, and
 * hostile inputs answered as errors with the server still alive. With --allow-write, the write
 * tools on generated speech and the real local engine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { hasSpeechTools, makeSpeech } from '../fixtures/speech';
import { addCompleted } from '../support/library';

const bin = resolve('scripts/verbatim.mjs');
let dir: string;
let data: string;
let recordingId: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verbatim-mcp-'));
  data = join(dir, 'data');
  const r = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const lib = new Library(data);
  const words: Word[] = [];
  let t = 0;
  for (const [speaker, text] of [
    ['A', 'Welcome to the launch review.'],
    ['B', 'The launch moves to Friday because the budget slipped.'],
    ['A', 'Then we tell the customers on Monday.'],
  ] as const) {
    for (const w of text.split(' ')) {
      words.push({ text: w, start: t, end: t + 300, confidence: 0.9, speaker });
      t += 350;
    }
    t += 61_000;
  }
  const ids = addCompleted(lib, 'Launch: "go/no-go"', words, { durationMs: 200_000 });
  recordingId = ids.recordingId;
  lib.edits.renameSpeaker(recordingId, 'A', 'Ana');
  lib.edits.renameSpeaker(recordingId, 'B', 'Ben');
  lib.insights.save(ids.transcriptId, '', 'test', { kind: 'summary', bullets: ['The launch moves to Friday.'] });
  for (let i = 0; i < 12; i++) addCompleted(lib, `Other ${i}`, [{ text: `filler${i}`, start: 0, end: 300, confidence: 0.9, speaker: null }]);
  lib.close();
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function connect(extra: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--data', data, ...extra],
    env: { ...(process.env as Record<string, string>), VERBATIM_KEY_DIR: join(dir, 'keys'), ASSEMBLYAI_API_KEY: '' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'verbatim-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

type Answer = { content: { type: string; text: string }[]; isError?: boolean };
const textOf = (a: unknown) => (a as Answer).content.map((c) => c.text).join('\n');

/** A call the server must refuse: a tool error, or a protocol error; never a dead server. */
async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  try {
    const r = (await client.callTool({ name, arguments: args })) as Answer;
    expect(r.isError, `${name} ${JSON.stringify(args).slice(0, 200)} was answered: ${textOf(r).slice(0, 200)}`).toBe(true);
    return textOf(r);
  } catch (e) {
    return (e as Error).message;
  }
}

describe('verbatim mcp', () => {
  it('lists the read-only tools, answers each with citations, serves transcripts as resources, and refuses bad calls', { timeout: 120_000 }, async () => {
    const client = await connect();
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(tools).toEqual(['get_summary', 'get_transcript', 'list_people', 'list_recordings', 'search_transcripts']);

      const search = textOf(await client.callTool({ name: 'search_transcripts', arguments: { query: 'launch', said_by: 'Ben' } }));
      expect(search).toBe(
        `- [Launch: "go/no-go" @ 01:02](verbatim://recording/${recordingId}?t=62) Ben: “The launch moves to Friday because the budget slipped.” (recording id ${recordingId})`,
      );
      const dated = textOf(await client.callTool({ name: 'search_transcripts', arguments: { query: 'launch', from: '2000-01-01', to: '2000-12-31' } }));
      expect(dated).toContain('Nothing found');

      const transcript = textOf(await client.callTool({ name: 'get_transcript', arguments: { id: recordingId, page_size: 2 } }));
      expect(transcript).toContain('Page 1 of 2: ask for page 2 for more.');
      expect(transcript).toContain(`[00:00] Ana: Welcome to the launch review. — [Launch: "go/no-go" @ 00:00](verbatim://recording/${recordingId}?t=0)`);
      const page2 = textOf(await client.callTool({ name: 'get_transcript', arguments: { id: recordingId, page_size: 2, page: 2 } }));
      expect(page2).toContain('[02:06] Ana: Then we tell the customers on Monday.');
      const ranged = textOf(await client.callTool({ name: 'get_transcript', arguments: { id: recordingId, from_seconds: 60, to_seconds: 70 } }));
      expect(ranged).toContain('Ben: The launch moves');
      expect(ranged).not.toContain('Ana:');

      const list = textOf(await client.callTool({ name: 'list_recordings', arguments: { limit: 5 } }));
      expect(list.split('\n')[0]).toBe('1-5 of 13:');
      expect(list).toMatch(/^- \[Other 11 @ 00:00\]\(verbatim:\/\/recording\/[\w-]+\?t=0\)/m);
      const summary = textOf(await client.callTool({ name: 'get_summary', arguments: { id: recordingId } }));
      expect(summary).toBe(`[Launch: "go/no-go" @ 00:00](verbatim://recording/${recordingId}?t=0)\nSummary:\n- The launch moves to Friday.`);
      expect(textOf(await client.callTool({ name: 'list_people', arguments: {} }))).toContain('No remembered people yet');

      const resources = (await client.listResources()).resources;
      expect(resources).toHaveLength(13);
      const res = await client.readResource({ uri: `verbatim://recording/${recordingId}` });
      const md = (res.contents[0] as { text: string }).text;
      expect(parse(/^---\n([\s\S]*?)\n---\n/.exec(md)![1]!)).toMatchObject({ title: 'Launch: "go/no-go"', speakers: ['Ana', 'Ben'] });

      // Read-only: the write tools are not there.
      expect(await refused(client, 'transcribe_file', { path: '/etc/passwd' })).toMatch(/transcribe_file/);
      expect(await refused(client, 'add_vocabulary', { terms: ['x'] })).toMatch(/add_vocabulary/);
      // Hostile inputs: bounds, bad ids, injection strings, wrong types.
      await refused(client, 'search_transcripts', { query: 'launch', limit: 1e9 });
      await refused(client, 'search_transcripts', { query: 'x'.repeat(100_000) });
      await refused(client, 'search_transcripts', { query: 42 });
      await refused(client, 'get_transcript', { id: "' OR 1=1; DROP TABLE recordings; --" });
      expect(await refused(client, 'get_transcript', { id: 'no-such-recording' })).toMatch(/no longer in the library|not found|no recording/i);
      await refused(client, 'get_transcript', { id: recordingId, page: 99 });
      await refused(client, 'get_transcript', { id: recordingId, page_size: 1e6 });
      await refused(client, 'list_recordings', { limit: -1 });
      await refused(client, 'get_summary', { id: '../../etc/passwd' });
      await expect(client.readResource({ uri: 'verbatim://recording/does-not-exist' })).rejects.toThrow();
      // FTS syntax and SQL in a query are words to find, not commands.
      const inj = await client.callTool({ name: 'search_transcripts', arguments: { query: 'launch" OR * NEAR( ; DROP TABLE sentences; --' } });
      expect((inj as Answer).isError).toBeFalsy();
      // Still alive, and the library intact.
      expect(textOf(await client.callTool({ name: 'search_transcripts', arguments: { query: 'customers' } }))).toContain('@ 02:06');
    } finally {
      await client.close();
    }
  });

  it.runIf(hasSpeechTools())('with --allow-write, transcribes a file and adds vocabulary', { timeout: 300_000 }, async () => {
    const client = await connect(['--allow-write']);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('transcribe_file');
      expect(tools).toContain('add_vocabulary');
      const wav = makeSpeech(dir, 'fox', 'The quick brown fox jumps over the lazy dog.');
      const done = textOf(await client.callTool({ name: 'transcribe_file', arguments: { path: wav } }));
      const id = /recording id ([\w-]+)/.exec(done)?.[1];
      expect(done, done).toContain('Transcribed into the library');
      expect(textOf(await client.callTool({ name: 'get_transcript', arguments: { id } }))).toMatch(/fox/i);
      expect(await refused(client, 'transcribe_file', { path: 'relative.wav' })).toContain('absolute path');
      expect(await refused(client, 'transcribe_file', { path: join(dir, 'data', 'library.sqlite') })).toContain('not an audio or video file');
      expect(textOf(await client.callTool({ name: 'add_vocabulary', arguments: { terms: ['Verbatim', 'Ana Lopez'] } }))).toContain('holds 2 term(s)');
      await refused(client, 'add_vocabulary', { terms: Array.from({ length: 51 }, (_, i) => `t${i}`) });
    } finally {
      await client.close();
    }
  });
});
