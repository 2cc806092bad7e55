/**
 * Power lost while a subtitle edit is being saved: host mode takes a chain of
 * subtitles.run calls over its bridge as the editor sends them (mostly one
 * cue retyped, now and then a file's text that replaces every cue), and
 * is SIGKILLed with the next commit in flight, after a random number of
 * acknowledged ones. Restarted on the same data folder, the document opens
 * with the last acknowledged commit in it (or the one in flight, whole), its
 * history intact. Ten kills; each restart is the host of the next round.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unpackCues } from '../../src/shared/subtitles/cue-columns';
import { commands, cuesFromContent, defaultProfile, type Cue } from '../../src/shared/subtitles/index';
import type { CueColumns } from '../../src/shared/subtitles/wire';
import { srtOf } from '../support/srt';
import { call, killHard, seededRandom, startHost, type RunningHost } from './support/powerloss';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-powerloss-subtitles-'));
const KILLS = 10;
const CUES = 2000;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Doc {
  version: number;
  cues: Cue[];
}
const open = async (app: RunningHost, id: string): Promise<Doc & { undo: string[] }> => {
  const doc = await call<{ version: number; cues: CueColumns; undo: string[] }>(app, 'subtitles.open', { id });
  return { ...doc, cues: unpackCues(doc.cues) };
};

/** What a commit must leave: each cue's times and text (words and corrections follow from them). */
const shape = (cues: Cue[]) => cues.map((c) => [c.start, c.end, c.text]);

type Edit = { label: string; command: 'editText' | 'replaceFrom'; args: { index: number; text: string } | { content: string; name: string }; view: object };
const view = { selection: [], caret: null, playheadMs: 0 };

/** The next edit the editor would send, and the cues it leaves: a cue retyped, or (one in four) every cue replaced by a file's, as an import onto the cues does. */
function nextEdit(cues: Cue[], round: number, n: number, pick: (max: number) => number): { edit: Edit; after: Cue[]; text: string } {
  if (n % 4 === 3) {
    const content = srtOf(cues.length, (i) => `round ${round} import ${n} cue ${i}`);
    const edit = { label: `Import ${n}.srt`, command: 'replaceFrom' as const, args: { content, name: `${n}.srt` }, view };
    return { edit, after: cuesFromContent(content).cues, text: `round ${round} import ${n} cue 0` };
  }
  const index = pick(cues.length - 1);
  const text = `round ${round} edit ${n}`;
  const after = commands.editText.perform({ cues, selection: [], caret: null, playheadMs: 0, words: [], profile: defaultProfile }, { index, text })!.cues;
  return { edit: { label: 'Edit text', command: 'editText', args: { index, text }, view }, after, text };
}

const input = ({ label: _label, ...edit }: Edit) => edit;

describe('power lost while a subtitle edit is saved', () => {
  it(`keeps the last acknowledged edit and the document opens, ${KILLS} kills out of ${KILLS}`, async () => {
    const rnd = seededRandom('powerloss-subtitles');
    let app: RunningHost = await startHost(dir);
    try {
      for (let round = 0; round < KILLS; round++) {
        const made = await call<{ id: string; cues: number }>(app, 'subtitles.importNew', { name: `talk ${round}.srt`, content: srtOf(CUES) });
        expect(made.cues).toBe(CUES);
        const id = made.id;
        let doc: Doc = await open(app, id);
        // The condition: commits acknowledged one after another, the next one in flight; the kill comes after a random number of them.
        const acked = rnd.int(1, 12);
        let labels: string[] = [];
        for (let n = 0; n < acked; n++) {
          const { edit, after } = nextEdit(doc.cues, round, n, (max) => rnd.int(0, max));
          const { version } = await call<{ version: number }>(app, 'subtitles.run', { id, version: doc.version, ...input(edit) });
          expect(version).toBeGreaterThan(doc.version);
          doc = { version, cues: after };
          labels = [...labels, edit.label];
        }
        const { edit: inFlight, after } = nextEdit(doc.cues, round, acked, (max) => rnd.int(0, max));
        // The kill comes a random number of bridge round trips after it was sent (cheap calls answered while the commit is saved), so it lands anywhere in the save.
        let answered = false;
        app.bridge.ws.on('message', (d: Buffer) => void ((JSON.parse(d.toString()) as { id?: number }).id === 1e9 && (answered = true)));
        app.bridge.ws.send(JSON.stringify({ id: 1e9, channel: 'subtitles.run', input: { id, version: doc.version, ...input(inFlight) } }));
        const trips = rnd.int(0, 16);
        for (let t = 0; t < trips; t++) await call(app, 'library.tags');
        await killHard(app.host.proc);

        app = await startHost(dir);
        const reopened = await open(app, id);
        const landed = reopened.version > doc.version;
        console.log(
          `kill ${round + 1}: ${acked} commits acknowledged, then ${trips} round trips; the one in flight ${answered ? 'answered' : landed ? 'landed' : 'did not land'}`,
        );
        // One answered before the kill is acknowledged: it must be there.
        if (answered) expect(landed, `kill ${round + 1}: an answered commit`).toBe(true);
        expect(reopened.version, `kill ${round + 1}`).toBeGreaterThanOrEqual(doc.version);
        expect(shape(reopened.cues), `kill ${round + 1}: the cues`).toEqual(shape(landed ? after : doc.cues));
        expect(reopened.undo.slice(-labels.length - (landed ? 1 : 0))).toEqual(landed ? [...labels, inFlight.label] : labels);
        // The document goes on: the next edit commits on the version it opened at.
        const next = nextEdit(reopened.cues, round, acked + 1, (max) => rnd.int(0, max));
        await call(app, 'subtitles.run', { id, version: reopened.version, ...input(next.edit) });
        const exported = await call<{ content: string }>(app, 'library.export', { id, format: 'srt' });
        expect(exported.content).toContain(next.text);
      }
    } finally {
      await killHard(app.host.proc);
    }
  }, 600_000);
});
