// Loaded with --import into a process under test: measures its event-loop delay (perf_hooks.monitorEventLoopDelay) and writes the figures to VERBATIM_LOOP_PROBE every 250 ms; SIGUSR2 starts a fresh measurement (after start-up).
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.VERBATIM_LOOP_PROBE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let since = Date.now();
  const write = () => {
    const ms = (ns) => Math.round(ns / 1e5) / 10;
    writeFileSync(
      file,
      JSON.stringify({
        maxMs: ms(h.max),
        p99Ms: ms(h.percentile(99)),
        meanMs: ms(h.mean),
        samples: h.count,
        since,
        rssMiB: Math.round(process.memoryUsage().rss / 1048576),
      }),
    );
  };
  setInterval(write, 250).unref();
  process.on('SIGUSR2', () => {
    h.reset();
    since = Date.now();
    write();
  });
}
