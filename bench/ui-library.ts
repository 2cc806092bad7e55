/**
 * The library list with 10,000 transcripts (seeded through the app's Library
 * service): first paint of rows after navigation (goal ≤ 200 ms for the list
 * itself), remounting the screen, and a fast scroll through the whole list
 * counting frames over 16.7 ms.
 */
import { ms, openHostPage, quantile, tempDataDir } from '../tests/e2e/bench-kit';
import { seedLibrary } from '../tests/e2e/seed';
import { figure } from './_figure';

const N = 10_000;

async function main(): Promise<void> {
  const dataDir = tempDataDir('library');
  const seedStart = performance.now();
  seedLibrary(dataDir, { count: N, wordsPer: 40, titlePrefix: 'Meeting', tags: ['weekly', 'clients', 'research'] });
  console.log(`ui-library: seeded ${N} transcripts in ${ms(performance.now() - seedStart)}`);
  const { url, page, close } = await openHostPage(dataDir);
  try {
    await page.goto(url);
    // Navigation start → first row painted (bundle, bridge connect, first page of 200 items, render).
    const firstRow = await page.evaluate(
      () =>
        new Promise<{ row: number; connected: number }>((resolve) => {
          let connected = 0;
          const tick = () => {
            if (!connected && document.querySelector('[data-testid="connection"]')?.textContent === 'Connected') connected = performance.now();
            if (document.querySelector('[data-testid="library-row"]')) requestAnimationFrame(() => resolve({ row: performance.now(), connected }));
            else requestAnimationFrame(tick);
          };
          tick();
        }),
    );
    const marks = await page.evaluate(() =>
      performance
        .getEntriesByType('mark')
        .map((m) => `${m.name}@${m.startTime.toFixed(0)}`)
        .slice(0, 4)
        .join(', '),
    );
    const answered = await page.evaluate(() => performance.getEntriesByName('library:list:0:answered')[0]?.startTime ?? NaN);
    const sent = await page.evaluate(() => performance.getEntriesByName('library:list:0:sent')[0]?.startTime ?? NaN);
    const rowsInDom = await page.getByTestId('library-row').count();
    const total = await page.getByText(`${N.toLocaleString('en-US')} recordings`).count();

    // Remount: Settings → Library with 10,000 items in the store.
    const remount: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      remount.push(
        await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const t0 = performance.now();
              (Array.from(document.querySelectorAll('button.nav__item')).find((b) => b.textContent === 'Library') as HTMLButtonElement).click();
              const tick = () =>
                document.querySelector('[data-testid="library-row"]')
                  ? requestAnimationFrame(() => resolve(performance.now() - t0))
                  : requestAnimationFrame(tick);
              tick();
            }),
        ),
      );
    }

    // Scroll the whole list fast (a fling every frame), recording frame times and rows still loading.
    const scroll = await page.evaluate(
      () =>
        new Promise<{ frames: number[]; skeletonFrames: number; distance: number }>((resolve) => {
          const el = document.querySelector('[data-testid="library-scroll"]') as HTMLElement;
          const frames: number[] = [];
          let last = performance.now();
          let skeletonFrames = 0;
          const step = 168; // three rows per frame: a brisk, steady scroll (~10,000 px/s)
          const tick = (now: number) => {
            frames.push(now - last);
            last = now;
            if (document.querySelector('.lrow--loading')) skeletonFrames++;
            if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2 || frames.length > 900)
              resolve({ frames: frames.slice(1), skeletonFrames, distance: el.scrollTop });
            else {
              el.scrollTop += step;
              requestAnimationFrame(tick);
            }
          };
          requestAnimationFrame(tick);
        }),
    );
    // Jumps: drag the scrollbar to 20 places; time until every visible row has its data.
    const jumps = await page.evaluate(async () => {
      const el = document.querySelector('[data-testid="library-scroll"]') as HTMLElement;
      const out: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        el.scrollTop = (((i * 7919) % 97) / 97) * (el.scrollHeight - el.clientHeight);
        await new Promise<void>((res) => {
          const tick = () => (document.querySelector('.lrow--loading') ? requestAnimationFrame(tick) : requestAnimationFrame(() => res()));
          requestAnimationFrame(tick);
        });
        out.push(performance.now() - t0);
      }
      return out;
    });
    const over16 = scroll.frames.filter((f) => f > 16.7).length;
    const over20 = scroll.frames.filter((f) => f > 20).length;
    const over33 = scroll.frames.filter((f) => f > 33.4).length;
    console.log(`  rows in the DOM for ${N} items: ${rowsInDom} (virtualized); total shown: ${total ? 'yes' : 'no'}`);
    console.log(`  navigation → bridge connected: ${ms(firstRow.connected)}`);
    console.log(
      `  navigation → first row painted: ${ms(firstRow.row)}; list part (connected → first row) ${ms(firstRow.row - firstRow.connected)} (goal ≤ 200 ms; ratio ${((firstRow.row - firstRow.connected) / 200).toFixed(2)})`,
    );
    console.log(`  first page request (ms since navigation): ${marks}`);
    console.log(
      `  split: main answers library.list in ${ms(answered - sent)} (round trip); renderer answer → first row painted ${ms(firstRow.row - answered)} (goal ≤ 200 ms for the list; ratio ${((firstRow.row - answered) / 200).toFixed(2)})`,
    );
    console.log(`  remount Settings → Library with ${N} items: median ${ms(quantile(remount, 0.5))}, max ${ms(Math.max(...remount))}`);
    console.log(
      `  scroll ${Math.round(scroll.distance).toLocaleString('en-US')} px in ${scroll.frames.length} frames: median ${ms(quantile(scroll.frames, 0.5))}, p95 ${ms(quantile(scroll.frames, 0.95))}, max ${ms(Math.max(...scroll.frames))}; frames > 16.7 ms: ${over16} (${((100 * over16) / scroll.frames.length).toFixed(1)}%), > 20 ms (beyond vsync jitter): ${over20} (${((100 * over20) / scroll.frames.length).toFixed(1)}%), > 33.4 ms: ${over33}; frames showing loading rows: ${scroll.skeletonFrames}`,
    );
    console.log(`  jump to 20 random places: rows filled in median ${ms(quantile(jumps, 0.5))}, max ${ms(Math.max(...jumps))}`);
    figure('navigation to first row painted', firstRow.row, 'ms');
    figure('remount Settings to Library, median', quantile(remount, 0.5), 'ms');
    figure('scroll frame, p95', quantile(scroll.frames, 0.95), 'ms');
    figure('jump rows filled, median', quantile(jumps, 0.5), 'ms');
  } finally {
    await close();
  }
}

void main();
