/**
 * Chat figures: retrieval over 10,000 transcripts (goal ≤ 50 ms p95), a
 * 200-message chat opened from the list until its latest 20 messages are
 * painted (goal ≤ 200 ms; earlier ones behind "Show earlier"), and the first token of an answer from the offline
 * extractive model over a two-hour transcript on screen (goal ≤ 300 ms), all
 * on the built renderer in host mode with the real local engine.
 */
import { ms, openHostPage, quantile, tempDataDir } from '../tests/e2e/bench-kit';
import { seedLibrary } from '../tests/e2e/seed';
import { Library } from '../src/main/services/library/library';
import { figure } from './_figure';

const QUESTIONS = [
  'What did they say about the market and the budget?',
  'When is the product launch scheduled?',
  'Which customer interview was in the report?',
  'What is the design review about?',
  'Who answered the research question?',
  'How is the engineering schedule?',
  'What data did the team model?',
  'Did the project meeting cover the quarter?',
  'Tell me about speech and audio recording.',
  'What new people want to know first?',
];

function retrievalBench(): void {
  const dataDir = tempDataDir('chat-retrieval');
  const t0 = performance.now();
  seedLibrary(dataDir, { count: 10_000, wordsPer: 150, titlePrefix: 'Call' });
  console.log(`chat: seeded 10,000 transcripts of 150 words in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const lib = new Library(dataDir);
  try {
    const times: number[] = [];
    let passages = 0;
    for (let round = 0; round < 5; round++) {
      for (const q of QUESTIONS) {
        const s = performance.now();
        const r = lib.retrieval.retrieve(q, { recordingIds: null, budgetChars: 24_000 });
        times.push(performance.now() - s);
        passages += r.recordings.reduce((a, x) => a + x.passages.length, 0);
      }
    }
    const p95 = quantile(times, 0.95);
    figure('retrieval over 10,000 transcripts, median', quantile(times, 0.5), 'ms');
    figure('retrieval over 10,000 transcripts, p95', p95, 'ms');
    console.log(
      `  retrieval over 10,000 transcripts (whole library, 24,000-character budget, ${times.length} questions): median ${ms(quantile(times, 0.5))}, p95 ${ms(p95)} (goal ≤ 50 ms; ratio ${(p95 / 50).toFixed(2)}), ${Math.round(passages / times.length)} sentences a question`,
    );
  } finally {
    lib.close();
  }
}

async function uiBench(): Promise<void> {
  const dataDir = tempDataDir('chat-ui');
  const [twoHour] = seedLibrary(dataDir, { count: 1, wordsPer: 18_500, titlePrefix: 'Two-hour board meeting', speakers: ['A', 'B'] });
  const lib = new Library(dataDir);
  const long = lib.chats.create({ scope: 'recordings', recordingIds: [twoHour!], title: 'A long chat', model: 'verbatim-extractive' });
  for (let i = 0; i < 100; i++) {
    lib.chats.addMessage(long.id, { role: 'user', content: `Question ${i}: what did they say about the budget and the schedule?` });
    lib.chats.addMessage(long.id, {
      role: 'assistant',
      content: `Answer ${i}:\n\n- "The budget review moved to the next quarter" [00:${String(i % 60).padStart(2, '0')}]\n- **Schedule**: the launch stays in May.\n\n| who | what |\n|---|---|\n| A | budget |`,
      citations: [{ recordingId: twoHour!, label: '', atMs: (i % 60) * 1000, index: 50, length: 7 }],
      sources: [{ recordingId: twoHour!, title: 'Two-hour board meeting 00001', label: '', passages: 1 }],
    });
  }
  lib.chats.create({ scope: 'recordings', recordingIds: [twoHour!], title: 'Ask the board meeting', model: 'verbatim-extractive' });
  lib.close();
  const { url, page, close } = await openHostPage(dataDir);
  try {
    await page.goto(url);
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.locator('.chatlist__open').first().waitFor();
    const opens: number[] = [];
    for (let i = 0; i < 6; i++) {
      // Alternate between the two chats so each open is a real switch.
      // The long chat paints its latest 20 messages and offers the 180 earlier ones behind a button.
      for (const [title, wantMessages] of [
        ['Ask the board meeting', 0],
        ['A long chat', 20],
      ] as const) {
        const t = await page.evaluate(
          ({ title, wantMessages }) =>
            new Promise<number>((resolve) => {
              const button = [...document.querySelectorAll<HTMLButtonElement>('.chatlist__open')].find((b) => b.textContent?.startsWith(title));
              const t0 = performance.now();
              button?.click();
              const done = () =>
                document.querySelector('#chat-title')?.textContent === title && document.querySelectorAll('.messages > li').length === wantMessages;
              const tick = () => (done() ? requestAnimationFrame(() => resolve(performance.now() - t0)) : requestAnimationFrame(tick));
              tick();
            }),
          { title, wantMessages },
        );
        if (wantMessages === 20) opens.push(t);
      }
    }
    const med = quantile(opens, 0.5);
    const earlier = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const t0 = performance.now();
          document.querySelector<HTMLButtonElement>('.chat__earlier button')?.click();
          const tick = () =>
            document.querySelectorAll('.messages > li').length === 120
              ? requestAnimationFrame(() => resolve(performance.now() - t0))
              : requestAnimationFrame(tick);
          tick();
        }),
    );
    figure('open a 200-message chat, median', med, 'ms');
    figure('open a 200-message chat, max', Math.max(...opens), 'ms');
    figure('show 100 earlier messages', earlier, 'ms');
    console.log(`  then "Show 100 earlier messages" (click → 120 painted): ${ms(earlier)}`);
    console.log(
      `  open a 200-message chat (click → latest 20 messages painted, 180 behind "Show earlier"), ${opens.length} opens: median ${ms(med)}, max ${ms(Math.max(...opens))} (goal ≤ 200 ms; ratio ${(med / 200).toFixed(2)})`,
    );

    // First token: the engine is started and warmed by one question, then each question is timed from Enter to text in the answer.
    await page.locator('.chatlist__open', { hasText: 'Ask the board meeting' }).click();
    const input = page.getByRole('textbox', { name: 'Ask a question' });
    await input.fill('What about the market budget?');
    await input.press('Enter');
    await page.locator('[data-testid="answer"][data-status="done"]').last().waitFor({ timeout: 120_000 });
    const firsts: number[] = [];
    const words = ['budget', 'schedule', 'launch', 'customer', 'research', 'design', 'report', 'engineering'];
    for (const w of words) {
      await input.fill(`What was said about the ${w}?`);
      const n = await page.locator('[data-testid="answer"]').count();
      const t = await page.evaluate(
        (n) =>
          new Promise<number>((resolve) => {
            const box = document.querySelector<HTMLTextAreaElement>('#chat-input');
            const t0 = performance.now();
            box?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
            const ready = () => {
              const answers = document.querySelectorAll('[data-testid="answer"]');
              const a = answers[n];
              return a && a.querySelector('.answer') && (a.textContent ?? '').length > 40;
            };
            const tick = () => (ready() ? requestAnimationFrame(() => resolve(performance.now() - t0)) : requestAnimationFrame(tick));
            tick();
          }),
        n,
      );
      firsts.push(t);
      await page.locator('[data-testid="answer"]').nth(n).and(page.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
    }
    const fm = quantile(firsts, 0.5);
    figure('first token on screen, median', fm, 'ms');
    figure('first token on screen, max', Math.max(...firsts), 'ms');
    console.log(
      `  first token on screen, extractive model, 2-hour transcript (18,500 words; Enter → answer text painted), ${firsts.length} questions: median ${ms(fm)}, max ${ms(Math.max(...firsts))} (goal ≤ 300 ms; ratio ${(fm / 300).toFixed(2)})`,
    );
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  retrievalBench();
  await uiBench();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
