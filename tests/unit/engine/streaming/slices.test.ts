/** The streaming sessions' shared slices: tasks run in the order given, and the event loop gets a turn between slices. */
import { describe, expect, it } from 'vitest';
import { inSlice, pendingSlices } from '../../../../src/engine/streaming/slices';

/** Holds the thread for `ms` of wall-clock time (more than one slice's budget). */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy on purpose
  }
}

describe('inSlice', () => {
  it('runs tasks in order, later than the call, and survives a task that throws', async () => {
    const ran: number[] = [];
    inSlice(() => ran.push(1));
    inSlice(() => {
      throw new Error('bad task');
    });
    inSlice(() => ran.push(2));
    expect(ran).toEqual([]);
    await expect.poll(() => ran).toEqual([1, 2]);
    expect(pendingSlices()).toBe(0);
  });

  it("lets a task's promise callbacks run before the next task", async () => {
    const order: string[] = [];
    inSlice(() => void Promise.resolve().then(() => order.push('callback of task 1')));
    inSlice(() => order.push('task 2'));
    await expect.poll(() => order.length).toBe(2);
    expect(order).toEqual(['callback of task 1', 'task 2']);
  });

  it('yields to timers between tasks that outlast a slice', async () => {
    const order: string[] = [];
    for (let i = 0; i < 3; i++)
      inSlice(() => {
        order.push(`task ${i}`);
        hold(12);
      });
    setTimeout(() => order.push('timer'), 0);
    await expect.poll(() => order.length).toBe(4);
    // The timer waited for at most one slice, never for all three tasks.
    expect(order.indexOf('timer')).toBeLessThan(3);
  });
});
