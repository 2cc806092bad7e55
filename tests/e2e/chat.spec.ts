/**
 * Chat over recordings on host mode against the real local engine: a
 * flite-spoken recording transcribed by the engine, asked with the offline
 * extractive model, its citation opening and playing the moment; then an
 * OpenAI-compatible upstream (a real HTTP server started here, behind the
 * engine through gateway.json): a progressively streamed answer, Stop
 * mid-stream, action items in a JSON schema, and a 429 from the engine's
 * limiter that the chat waits out and retries by itself (the engine's test
 * window: a refusal's Retry-After is seconds, not the rest of a minute).
 * Axe in both themes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { startUpstream, type Upstream } from '../fixtures/openai-upstream';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { dropFileFrom, dropFiles } from './drop';
import { expect, test } from './host';
import { snap } from './snap';

/** Three flite sentences with two seconds of silence between them, so each starts at its own time. */
function spokenMeeting(dir: string): string {
  const parts = ['Hello world.', 'This is a test of the transcription system.', 'The weather today is sunny and warm.'].map((t, i) => {
    const f = join(dir, `p${i}.wav`);
    execFileSync('flite', ['-voice', 'slt', '-t', t, '-o', f]);
    return f;
  });
  const out = join(dir, 'weather-report.wav');
  const silence = join(dir, 'silence.wav');
  execFileSync('sox', ['-n', '-r', '16000', '-c', '1', silence, 'trim', '0', '2']);
  execFileSync('sox', [parts[0]!, silence, parts[1]!, silence, parts[2]!, '-r', '16000', '-c', '1', out]);
  return out;
}

function seedTranscripts(dataDir: string, items: { title: string; sentences: [number, string][] }[]): string[] {
  mkdirSync(dataDir, { recursive: true });
  const lib = new Library(dataDir);
  const ids = items.map(({ title, sentences }) => {
    const { recordingId, transcriptId } = lib.recordings.add({
      title,
      source: `${title}.wav`,
      sourceKind: 'file',
      sizeBytes: 1,
      region: 'local',
      baseUrl: null,
      options: {},
    });
    const words: Word[] = sentences.flatMap(([start, text]) =>
      text.split(' ').map((w, i) => ({ text: w, start: start + i * 300, end: start + i * 300 + 250, confidence: 0.9, speaker: null })),
    );
    lib.transcripts.complete(transcriptId, {
      remoteId: null,
      text: sentences.map((s) => s[1]).join(' '),
      words,
      sentences: null,
      paragraphs: null,
      confidence: 0.9,
      language: 'en_us',
      model: 'test',
      durationMs: (words.at(-1)?.end ?? 0) + 500,
    });
    return recordingId;
  });
  lib.close();
  return ids;
}

test.describe('chat over recordings', () => {
  test('opens ready to type: a question typed with no other click asks the whole library and cites its moment', async ({ page, host }) => {
    seedTranscripts(host.dataDir, [
      {
        title: 'Harbour log',
        sentences: [
          [0, 'Good morning from the harbour office.'],
          [12_000, 'The ferry to the island leaves at seven tomorrow.'],
          [20_000, 'Nets are mended on the north pier.'],
        ],
      },
      {
        title: 'Budget call',
        sentences: [
          [0, 'Welcome to the budget call.'],
          [5000, 'Printing costs went down this year.'],
        ],
      },
    ]);
    await host.restart();
    await page.goto(host.url);
    await expect(page.getByTestId('connection')).toHaveText('Connected');
    await expect(page.getByTestId('library-row')).toHaveCount(2);
    await page.getByRole('button', { name: 'Chat', exact: true }).click();

    const input = page.getByRole('textbox', { name: 'Ask a question' });
    await expect(input).toBeFocused();
    await expect(page.getByRole('combobox', { name: 'Ask about' })).toHaveValue('library');
    await expect(page.getByRole('button', { name: 'What was decided?' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('verbatim-extractive');
    // No click: the keyboard goes straight to the focused box.
    await page.keyboard.type('When does the ferry leave for the island?');
    await page.keyboard.press('Enter');

    const answer = page.getByTestId('answer').last();
    await expect(answer).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await expect(answer).toContainText(/ferry to the island leaves at seven/i);
    const cite = answer.locator('a.cite').filter({ hasText: /00:12/ });
    await expect(cite.first()).toBeVisible();
    await expect(answer.getByRole('button', { name: 'Harbour log' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Ask about' })).toHaveValue('library');
    await expectNoAxeViolationsInBothThemes(page, 'chat-ready-answer', 'chat-ready-answer');

    // The scope beside the box can be changed: a new chat about the recording open last.
    await cite.first().click();
    await expect(page.getByTestId('transcript-body')).toBeVisible();
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect(input).toBeFocused();
    await page.getByRole('combobox', { name: 'Ask about' }).selectOption('this');
    await expect(page.getByRole('heading', { level: 1, name: 'Chat with your recordings' })).toBeVisible();
    await expect(page.locator('.chat__about')).toContainText('“Harbour log”');
    await expect(input).toBeFocused();
    await page.keyboard.type('Where are the nets mended?');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: /Harbour log/ })).toBeVisible();
    await expect(page.getByTestId('answer').last()).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await expect(page.getByTestId('answer').last()).toContainText(/north pier/);
    await expect(page.getByRole('combobox', { name: 'Ask about' })).toHaveValue('this');
  });

  test('offline: the extractive model quotes the right sentence and its citation opens the recording there and plays it', async ({ page, host }) => {
    const wav = spokenMeeting(mkdtempSync(join(tmpdir(), 'verbatim-chat-wav-')));
    await page.goto(host.url);
    await expect(page.getByTestId('connection')).toHaveText('Connected');
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Chat with your recordings' })).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page, 'chat-empty', 'chat-empty');

    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await dropFiles(page, [dropFileFrom(wav)]);
    const row = page.getByTestId('job-row').filter({ hasText: 'weather-report.wav' });
    await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });
    await row.getByRole('button', { name: 'Open' }).click();
    const body = page.getByTestId('transcript-body');
    await expect(body.locator('.w').first()).toBeVisible();
    expect(((await body.textContent()) ?? '').toLowerCase()).toContain('weather');

    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: /weather-report/ })).toBeVisible();
    const model = page.getByRole('combobox', { name: 'Model' });
    await expect(model).toHaveValue('verbatim-extractive');
    const input = page.getByRole('textbox', { name: 'Ask a question' });
    await expect(input).toBeFocused();
    await input.fill('What is the weather like today?');
    await input.press('Enter');

    const answer = page.getByTestId('answer').last();
    await expect(answer).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await expect(answer).toContainText(/weather today is sunny/i);
    await expect(answer).toContainText('extractive');
    const cite = answer
      .locator('a.cite')
      .filter({ hasText: /@ 00:0\d/ })
      .first();
    await expect(cite).toBeVisible();
    await expect(answer.getByText('From')).toBeVisible();
    const citeText = (await cite.textContent()) ?? '';
    const [, mm, ss] = /(\d{2}):(\d{2})/.exec(citeText) ?? [];
    const citedSeconds = Number(mm) * 60 + Number(ss);
    // The weather sentence is the third, after two sentences and two 2-second pauses.
    expect(citedSeconds).toBeGreaterThanOrEqual(4);
    await expectNoAxeViolationsInBothThemes(page, 'chat-extractive-answer', 'chat-extractive-answer');

    await cite.click();
    await expect(page.getByTestId('transcript-body')).toBeVisible();
    const audio = page.getByTestId('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => !a.paused && a.currentTime > 0)).toBe(true);
    const at = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);
    expect(at).toBeGreaterThanOrEqual(citedSeconds);
    expect(at).toBeLessThan(citedSeconds + 3);
    // The word being spoken is in the cited sentence.
    const active = page.getByTestId('transcript-body').locator('.w--active');
    await expect(active).toBeVisible();
    await expect
      .poll(async () =>
        (
          await active.evaluate((el) => `${el.textContent} ${el.nextElementSibling?.textContent} ${el.nextElementSibling?.nextElementSibling?.textContent}`)
        ).toLowerCase(),
      )
      .toMatch(/weather|today|sunny|warm/);
    await snap(page, 'chat-citation-opened');

    // The chat is saved: listed, searchable, exported.
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search chats' }).fill('sunny');
    await expect(page.getByRole('navigation', { name: 'Saved chats' }).locator('.chatlist__open').filter({ hasText: 'weather-report' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search chats' }).fill('zebra');
    await expect(page.getByText('No chat matches this search.')).toBeVisible();
  });

  // The limiter counts this test's requests in one window however slow the machine, and ends a refused request's
  // window RETRY_S later (engine/index.ts, VERBATIM_TEST_RATE_RETRY_MS): the 429 says when and the chat asks again
  // by itself then, as with a real minute, in seconds. Long enough that the waiting state stays while axe checks it.
  const RETRY_S = 15;
  test.use({ hostEnv: { VERBATIM_TEST_RATE_RETRY_MS: String(RETRY_S * 1000) } });

  test('with an OpenAI-compatible upstream: streams progressively, stops, answers action items, waits out a 429 and retries', async ({ page, host }) => {
    let upstream: Upstream | null = null;
    try {
      upstream = await startUpstream({ pieceDelayMs: 60, fillerWords: 60 });
      mkdirSync(join(host.dataDir, 'engine'), { recursive: true });
      // Three requests a window: the stream, the stopped stream, the action items; the fourth is refused.
      writeFileSync(
        join(host.dataDir, 'engine', 'gateway.json'),
        JSON.stringify({
          upstreams: [{ baseUrl: upstream.baseUrl, models: [{ id: 'test-llm', name: 'Test LLM', context_length: 16000 }] }],
          limits: { 'test-llm': 3 },
        }),
      );
      seedTranscripts(host.dataDir, [
        {
          title: 'Monday standup',
          sentences: [
            [0, 'Good morning everyone.'],
            [4000, 'The river project is two weeks late.'],
            [9000, 'Dana will send the revised budget on Friday.'],
          ],
        },
        {
          title: 'Quarterly review',
          sentences: [
            [0, 'Welcome to the review.'],
            [65_000, 'Revenue grew eleven percent this quarter.'],
          ],
        },
      ]);
      await host.restart();
      await page.goto(host.url);
      await expect(page.getByTestId('connection')).toHaveText('Connected');

      // Ask about two recordings selected in the library.
      await expect(page.getByTestId('library-row')).toHaveCount(2);
      for (const r of await page.getByTestId('library-row').all()) await r.getByRole('checkbox').check();
      await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Ask' }).click();
      await expect(page.getByRole('heading', { level: 1, name: /and 1 more/ })).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('test-llm');
      const input = page.getByRole('textbox', { name: 'Ask a question' });
      await input.fill('How much did revenue grow?');
      await page.getByRole('button', { name: 'Ask', exact: true }).click();

      const answer = page.getByTestId('answer').last();
      await expect(answer).toHaveAttribute('data-status', 'streaming');
      await expect.poll(async () => ((await answer.textContent()) ?? '').length).toBeGreaterThan(10);
      const partial = ((await answer.textContent()) ?? '').length;
      await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
      await snap(page, 'chat-streaming-light');
      await expect(answer).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
      const full = (await answer.textContent()) ?? '';
      expect(full.length).toBeGreaterThan(partial + 50);
      expect(full).toContain('word59');
      const cite = answer.locator('a.cite');
      await expect(cite).toHaveText('Quarterly review @ 01:05');
      await expect(page.getByTestId('rate-limit')).toContainText('2/3 requests left');

      // Stop mid-stream keeps what arrived.
      await input.fill('When is the revised budget sent?');
      await input.press('Enter');
      const second = page.getByTestId('answer').last();
      await expect.poll(async () => ((await second.textContent()) ?? '').length).toBeGreaterThan(10);
      await page.getByRole('button', { name: 'Stop' }).click();
      await expect(second).toHaveAttribute('data-status', 'stopped');
      await expect(second.getByText('Stopped')).toBeVisible();
      expect((await second.textContent()) ?? '').not.toContain('word59');
      await expect.poll(() => upstream?.aborted ?? 0).toBeGreaterThan(0);
      await expectNoAxeViolationsInBothThemes(page, 'chat-upstream-answers', 'chat-upstream-answers');

      // Action items from a transcript, in a JSON schema.
      await page.locator('.chat__about').getByRole('button', { name: 'Monday standup', exact: true }).click();
      await page.getByRole('button', { name: 'Understand…' }).click();
      const dialog = page.getByRole('dialog', { name: /Understand/ });
      await dialog.getByRole('button', { name: 'Action items' }).click();
      const items = dialog.getByTestId('insight-action_items');
      await expect(items.getByRole('row')).toHaveCount(3);
      await expect(items.getByRole('row').nth(1)).toContainText('Dana');
      await expect(items.getByRole('row').nth(1)).toContainText('Send the revised budget');
      await expect(items.getByRole('row').nth(1)).toContainText('Friday');
      await expect(items.getByRole('row').nth(2)).toContainText('Unassigned');
      await expectNoAxeViolationsInBothThemes(page, 'chat-action-items', 'chat-action-items');
      await dialog.getByRole('button', { name: 'Close' }).click();

      // The fourth request this window is refused: the chat says when (the 429's Retry-After), then asks by itself.
      await page.getByRole('button', { name: 'Chat', exact: true }).click();
      await page.getByRole('navigation', { name: 'Saved chats' }).locator('.chatlist__open').filter({ hasText: 'and 1 more' }).click();
      await input.fill('How much did revenue grow this quarter?');
      await input.press('Enter');
      // The time it names is the engine's Retry-After, counted down from RETRY_S (a real minute would read up to 60 s).
      await expect(page.getByTestId('chat-state')).toContainText(
        /limit is reached\. You can ask again at .*; Verbatim will ask by itself then \(in ([1-9]|1[0-5]) s\)/,
      );
      await expect(page.getByTestId('rate-limit')).toContainText('0/3 requests left');
      await expectNoAxeViolationsInBothThemes(page, 'chat-rate-limited', 'chat-rate-limited');
      const retried = page.getByTestId('answer').last();
      await expect(retried).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
      await expect(retried.locator('a.cite')).toHaveText('Quarterly review @ 01:05');
      expect(upstream.requests.filter((r) => r.stream === true)).toHaveLength(3);
    } finally {
      await upstream?.close();
    }
  });
});
