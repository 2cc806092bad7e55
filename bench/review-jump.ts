/**
 * Review: jumping to the next doubtful word in a two-hour transcript (18,500 words, about 4% of them
 * under the threshold, seeded through the app's Library service), in the real browser over host mode:
 * from the F8 keydown to the caret in that word's editor (its focus), and to the next frame painted with
 * it (goal, issue 41: ≤ 16 ms key to caret). Each jump goes on from the last with the editor still open,
 * as a reviewer skipping words does; two jumps round the ends cross the whole transcript. Also the pure
 * jump (lib/review.ts) over the same words: building the doubtful list and one binary search.
 */
import { doubtfulWords, nextDoubtful } from '../src/renderer/src/lib/review';
import { makeWords, seedLibrary } from '../tests/e2e/seed';
import { ms, openHostPage, quantile, tempDataDir } from '../tests/e2e/bench-kit';
import { figure } from './_figure';

const WORDS = 18_500;
const JUMPS = 40;
const GOAL_MS = 16;

function pure(): void {
  const words = makeWords(WORDS);
  const none = new Set<number>();
  let t0 = performance.now();
  let list: number[] = [];
  for (let i = 0; i < 20; i++) list = doubtfulWords(words, 0.7, none, () => false);
  const build = (performance.now() - t0) / 20;
  t0 = performance.now();
  let at = -1;
  for (let i = 0; i < 100_000; i++) at = nextDoubtful(list, at);
  const jump = (performance.now() - t0) / 100_000;
  console.log(`  pure: ${list.length} doubtful of ${WORDS} words; the list built in ${ms(build)}, a jump in ${(jump * 1000).toFixed(2)} µs`);
}

async function main(): Promise<void> {
  console.log(`review-jump: ${WORDS} words (about two hours)`);
  pure();
  const dataDir = tempDataDir('review');
  // The first seeded recording is a local PocketSphinx one: its confidences are reviewable.
  seedLibrary(dataDir, { count: 1, wordsPer: WORDS, titlePrefix: 'Two-hour board meeting', speakers: ['A', 'B', 'C'] });
  const { url, page, close } = await openHostPage(dataDir);
  try {
    await page.goto(url);
    await page.locator('.lrow__open').first().click();
    await page.locator('[data-testid="transcript-body"]:not([aria-busy])').waitFor();
    await page.locator('[data-testid="review-count"][data-left]').waitFor();
    const left = await page.getByTestId('review-count').textContent();
    // Across the whole transcript first: Shift+F8 from the start goes round to the last doubtful word, F8 from there back round to the first.
    const far = await page.evaluate(async () => {
      const out: { ms: number; at: string }[] = [];
      for (const shiftKey of [true, false]) {
        const before = document.activeElement;
        const t0 = performance.now();
        const done = new Promise<void>((resolve) => {
          const onFocus = (e: FocusEvent) => {
            if (e.target === before || !(e.target as HTMLElement).getAttribute('aria-label')?.startsWith('Correct word')) return;
            document.removeEventListener('focusin', onFocus);
            resolve();
          };
          document.addEventListener('focusin', onFocus);
        });
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8', shiftKey, bubbles: true, cancelable: true }));
        await done;
        const took = performance.now() - t0;
        await new Promise((r) => setTimeout(r, 300));
        // Where it ended up once the scroll settled: the word's editor inside the text's box.
        const box = document.querySelector('[data-testid="transcript-body"]')?.getBoundingClientRect();
        const r = document.activeElement?.getBoundingClientRect();
        const seen = !!box && !!r && r.top >= box.top && r.bottom <= box.bottom;
        out.push({ ms: took, at: `${document.activeElement?.getAttribute('aria-label') ?? ''}${seen ? ', in view' : ', NOT in view'}` });
      }
      return out;
    });
    for (const f of far) console.log(`  across the transcript → ${f.at}: ${ms(f.ms)} key to caret`);
    const runs = await page.evaluate(async (n) => {
      const out: { focus: number; paint: number; word: number }[] = [];
      for (let i = 0; i < n; i++) {
        const r = await new Promise<{ focus: number; paint: number; word: number }>((resolve) => {
          const before = document.activeElement;
          const onFocus = (e: FocusEvent) => {
            const el = e.target as HTMLElement;
            if (el === before || !el.getAttribute('aria-label')?.startsWith('Correct word')) return;
            document.removeEventListener('focusin', onFocus);
            const focus = performance.now() - t0;
            requestAnimationFrame(() => resolve({ focus, paint: performance.now() - t0, word: Number(el.getAttribute('aria-label')?.split(' ').pop()) }));
          };
          document.addEventListener('focusin', onFocus);
          const t0 = performance.now();
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8', bubbles: true, cancelable: true }));
        });
        out.push(r);
        // The player plays the word's window; the next jump does not wait for it, as a reader's F8 does not.
        await new Promise((r) => setTimeout(r, 30));
      }
      return out;
    }, JUMPS);
    const focus = runs.map((r) => r.focus);
    const paint = runs.map((r) => r.paint);
    const words = runs.map((r) => r.word);
    console.log(`  ${left}; ${JUMPS} jumps, words ${words[0]} … ${words[words.length - 1]} (editor open between jumps)`);
    console.log(
      `  F8 → caret (focus in the word's editor): median ${ms(quantile(focus, 0.5))}, p95 ${ms(quantile(focus, 0.95))}, max ${ms(Math.max(...focus))} (goal ≤ ${GOAL_MS} ms; median ratio ${(quantile(focus, 0.5) / GOAL_MS).toFixed(2)}, max ratio ${(Math.max(...focus) / GOAL_MS).toFixed(2)})`,
    );
    console.log(`  each jump to the caret, in order: ${focus.map((f) => f.toFixed(1)).join(', ')} ms`);
    figure('F8 to caret, median', quantile(focus, 0.5), 'ms');
    figure('F8 to next frame painted, median', quantile(paint, 0.5), 'ms');
    console.log(`  F8 → next frame painted with it: median ${ms(quantile(paint, 0.5))}, p95 ${ms(quantile(paint, 0.95))}, max ${ms(Math.max(...paint))}`);
  } finally {
    await close();
  }
}

void main();
