// Loaded with --import into a process under test: measures its event-loop delay (perf_hooks.monitorEventLoopDelay) and memory, and writes them to VERBATIM_LOOP_PROBE every 250 ms; SIGUSR2 runs a full garbage collection and starts a fresh measurement.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const file = process.env.VERBATIM_LOOP_PROBE;
// Only this process: children it spawns (the engine's recognizers, host mode's engine) inherit NODE_OPTIONS but not the file.
delete process.env.VERBATIM_LOOP_PROBE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let since = Date.now();
  // The longest gap between 10 ms ticks, with the main thread's own CPU time inside it: that part is the
  // process holding its loop; the rest of the gap is waiting for a core on a busy machine.
  let worst = { gapMs: 0, cpuMs: 0 };
  let tick = { at: performance.now(), cpu: process.threadCpuUsage() };
  setInterval(() => {
    const now = { at: performance.now(), cpu: process.threadCpuUsage() };
    const gapMs = now.at - tick.at - 10;
    if (gapMs > worst.gapMs) worst = { gapMs, cpuMs: (now.cpu.user + now.cpu.system - tick.cpu.user - tick.cpu.system) / 1000 };
    tick = now;
  }, 10).unref();
  const mib = (b) => Math.round(b / 1048576);
  const write = () => {
    const ms = (ns) => Math.round(ns / 1e5) / 10;
    const m = process.memoryUsage();
    writeFileSync(
      file,
      JSON.stringify({
        maxMs: ms(h.max),
        p99Ms: ms(h.percentile(99)),
        meanMs: ms(h.mean),
        samples: h.count,
        worstGapMs: Math.round(worst.gapMs * 10) / 10,
        worstGapCpuMs: Math.round(worst.cpuMs * 10) / 10,
        since,
        at: Date.now(),
        rssMiB: mib(m.rss),
        heapUsedMiB: mib(m.heapUsed),
        externalMiB: mib(m.external),
      }),
    );
  };
  setInterval(write, 250).unref();
  process.on('SIGUSR2', () => {
    setFlagsFromString('--expose-gc');
    runInNewContext('gc')();
    // The fresh measurement starts once both timers have ticked after the collection: the probe's own
    // full GC (100-200 ms after a big phase) is not the process holding its loop.
    setTimeout(() => {
      h.reset();
      worst = { gapMs: 0, cpuMs: 0 };
      tick = { at: performance.now(), cpu: process.threadCpuUsage() };
      since = Date.now();
      write();
    }, 25);
  });
}
