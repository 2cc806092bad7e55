/**
 * main's zod is jitless (src/main/zod-setup.ts): checking an IPC payload
 * generates no code. zod reads the setting when a schema is built, so it must
 * be set before the contract's modules build theirs; set in core.ts's body
 * (as it was), every contract schema still compiled a parser with
 * `new Function` on its first use. Each test loads main's modules afresh, in
 * one mode's order, with Function watched.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const made: string[] = [];
const RealFunction = globalThis.Function;
beforeEach(() => {
  vi.resetModules();
  made.length = 0;
  globalThis.Function = new Proxy(RealFunction, {
    construct(target, args: string[]) {
      made.push(String(args.at(-1)).slice(0, 60));
      return Reflect.construct(target, args) as object;
    },
  });
});
afterEach(() => {
  globalThis.Function = RealFunction;
});

/** Parses something through every channel's schemas (valid or not: a compiled parser is made on the first parse either way). */
async function parseEveryChannel(): Promise<void> {
  const { channels } = await import('../../../src/shared/ipc');
  for (const [name, c] of Object.entries(channels)) {
    c.input.safeParse({ id: 'x', sort: 'created', ids: ['x'], query: 'q' });
    c.output.safeParse({ ok: true, items: [], total: 0 });
    expect(made, name).toEqual([]);
  }
}

describe("main's zod", () => {
  it('generates no code in Electron order (index.ts imports core first)', async () => {
    await import('../../../src/main/core');
    await parseEveryChannel();
  });

  it("generates no code in host mode's order (host/cli.ts: zod-setup, the contract, then core)", async () => {
    await import('../../../src/main/zod-setup');
    await import('../../../src/shared/ipc');
    await import('../../../src/main/core');
    await parseEveryChannel();
  });
});
