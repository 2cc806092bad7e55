// The native child host: requests with PCM answered by a forked child; a crash, an exit or a deadline becomes an Error for every pending request, and the next request gets a fresh child.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NativeChild } from '../../src/engine/native/child-host';

const modules = { t: join(import.meta.dirname, '../fixtures/native/test-kind.ts') };
let child: NativeChild | null = null;
afterEach(() => child?.close());

interface Echo {
  length: number;
  sum: number;
  isInt16: boolean;
  pid: number;
}

describe('NativeChild', () => {
  it('answers requests with typed arrays intact, and reports handler errors', async () => {
    child = new NativeChild({ name: 'test work', modules });
    const pcm = Int16Array.from({ length: 48_000 }, (_, i) => (i % 200) - 100);
    const r = await child.request<Echo>('t.echo', { pcm });
    expect(r).toMatchObject({ length: 48_000, sum: pcm.reduce((a, b) => a + b, 0), isInt16: true });
    await expect(child.request('t.fail', { message: 'bad model' })).rejects.toThrow('bad model');
    await expect(child.request('t.nothing', {})).rejects.toThrow(/no such kind/);
    // A handler error leaves the child as it was.
    expect((await child.request<Echo>('t.echo', { pcm: new Int16Array(1) })).pid).toBe(r.pid);
  });

  for (const how of ['SIGSEGV', 'SIGABRT', 'exit255'] as const) {
    it(`turns a child dying by ${how} into an Error for every pending request, then starts afresh`, async () => {
      const exits: string[] = [];
      child = new NativeChild({ name: 'test work', modules, onExit: (r) => exits.push(r) });
      const first = await child.request<Echo>('t.echo', { pcm: new Int16Array(4) });
      const hanging = child.request('t.hang', {});
      const dying = child.request('t.die', { how });
      const expected = how === 'exit255' ? /exited with status 255/ : new RegExp(`killed by ${how}`);
      await expect(dying).rejects.toThrow(expected);
      await expect(hanging).rejects.toThrow(expected);
      await expect(dying).rejects.toThrow(/during t\.die .*dying by/);
      expect(exits).toHaveLength(1);
      const again = await child.request<Echo>('t.echo', { pcm: new Int16Array(4) });
      expect(again.pid).not.toBe(first.pid);
      expect(child.generation).toBe(2);
    });
  }

  it('stops a request past its deadline, with a clear Error, and serves the next one', async () => {
    child = new NativeChild({ name: 'test work', modules });
    await expect(child.request('t.hang', {}, { timeoutMs: 300 })).rejects.toThrow(/t\.hang took longer than 0\.3 s; the worker was stopped/);
    expect((await child.request<Echo>('t.echo', { pcm: new Int16Array(2) })).length).toBe(2);
  });

  it('exits when idle and comes back on the next request', async () => {
    const exits: string[] = [];
    child = new NativeChild({ name: 'test work', modules, idleMs: 200, onExit: (r) => exits.push(r) });
    await child.request('t.echo', { pcm: new Int16Array(2) });
    await expect.poll(() => child?.running, { timeout: 20_000 }).toBe(false);
    expect(exits).toEqual(['test work: idle']);
    await child.request('t.echo', { pcm: new Int16Array(2) });
    expect(child.running).toBe(true);
  });

  it('refuses requests once closed', async () => {
    child = new NativeChild({ name: 'test work', modules });
    const hanging = child.request('t.hang', {});
    child.close();
    await expect(hanging).rejects.toThrow(/shut down/);
    await expect(child.request('t.echo', { pcm: new Int16Array(1) })).rejects.toThrow(/shut down/);
  });
});
