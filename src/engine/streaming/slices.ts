/**
 * The streaming sessions' audio work (resampling, Silero VAD, turn logic) run
 * in slices: one queue for every session, in arrival order, worked through a
 * few milliseconds at a time with a turn of the event loop between slices.
 * A socket read can deliver many frames of several sessions at once, and a
 * new session's Silero detector takes ~50 ms to build: run where they arrive,
 * they held the loop for up to 200 ms (hostile-streaming), delaying every
 * other session, /health and the job API behind them.
 */

/** Work done in one turn of the event loop before yielding (ms). */
const SLICE_MS = 8;

const queue: (() => void)[] = [];
let head = 0;
let scheduled = false;

async function run(): Promise<void> {
  const until = performance.now() + SLICE_MS;
  while (head < queue.length) {
    const task = queue[head] as () => void;
    queue[head++] = noop;
    try {
      task();
    } catch {
      // Each task handles its own errors (a session turns them into a close code); one bad task must not stop the queue.
    }
    if (performance.now() >= until) break;
    // The task's promise callbacks that are already due (a hypothesis answered at once) run before the next task, as
    // they did when each frame was handled where it arrived.
    await undefined;
  }
  if (head >= queue.length) {
    queue.length = 0;
    head = 0;
  }
  scheduled = false;
  if (head < queue.length) schedule();
}

function noop(): void {}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => void run());
}

/** Runs `task` after every task queued before it, in a later turn of the event loop. */
export function inSlice(task: () => void): void {
  queue.push(task);
  schedule();
}

/** Tasks waiting (for tests). */
export function pendingSlices(): number {
  return queue.length - head;
}
