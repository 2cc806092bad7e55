/**
 * Live captions you can look back at, in host mode with Chromium's fake
 * microphone (a loop of flite sentences between pauses): the panel scrolls
 * back while new captions keep arriving, "Back to live" returns, replay plays
 * the recording in an audio element while capture goes on, a past line plays
 * from its moment; the pop-out overlay rewinds with the keyboard. With a
 * tiny local language model installed, each final line gets one translated
 * line (the model's fixed sentence) and no growing line gets one, and "What
 * did I miss?" answers. The saved session, opened from the library, shows
 * the summaries asked during it (a citation plays the recording from its
 * moment) and, on request, each line's translation under the text. Axe in
 * light and dark on each state.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { fixedSentence, installTinyGguf } from '../fixtures/models/gguf';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from './chromium';
import { expect, test } from './host';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-captions-rewind-e2e-'));
const wav = join(dir, 'speech.wav');
// Short sentences: each is a caption line, and the panel must fill before there is anything to scroll back over.
const SENTENCES = ['Good morning everyone.', 'Budget at nine.', 'Bring the numbers.', 'Thank you all.'];
const parts = SENTENCES.map((text, i) => {
  execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', join(dir, `r${i}.wav`)]);
  // 1.8 s of silence after each sentence: each is a turn of its own.
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-i',
    join(dir, `r${i}.wav`),
    '-af',
    'apad=pad_dur=1.8',
    '-ar',
    '48000',
    '-ac',
    '1',
    join(dir, `p${i}.wav`),
  ]);
  return join(dir, `p${i}.wav`);
});
execFileSync('sox', [...parts, wav]);
/** The tiny model's answer to every prompt: what each translated line must read. */
const TRANSLATED = ['[FR]', 'Bonjour', 'à', 'tous', '.'];

test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav)] },
  permissions: ['microphone'],
  // A short window: the panel is at its least height (240 px), so it overflows after a few lines and there is
  // something to scroll back over (7 lines here, 8 at 640 px high).
  viewport: { width: 1100, height: 480 },
});

async function startCaptions(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Live captions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Live captions' })).toBeVisible();
  await page.getByText('Caption settings').click();
  for (const name of ['Echo cancellation', 'Noise suppression', 'Automatic gain']) {
    const sw = page.getByRole('switch', { name });
    if (await sw.isChecked()) await sw.click({ force: true });
    await expect(sw).not.toBeChecked();
  }
  await page.getByText('Caption settings').click();
  await page.getByTestId('captions-start').click();
  await expect(page.getByTestId('source-mic')).toContainText('Live', { timeout: 90_000 });
}

/** Opens the one saved live session from the library. */
async function openSavedSession(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Library' }).click();
  const row = page.getByTestId('library-row').filter({ hasText: 'Live session' }).first();
  await row.getByRole('button', { name: /^Open Live session/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Live session/ })).toBeVisible();
}

const finals = (page: Page) => page.getByTestId('captions-panel').locator('[data-testid="caption-line"][data-final="true"]');

test.describe('live captions: rewind and replay', () => {
  test('scrolls back while captions arrive, returns to live, replays the recording while capture goes on', async ({ page, host }) => {
    test.setTimeout(540_000);
    await startCaptions(page, host.url);
    const panel = page.getByTestId('captions-panel');
    // Enough lines that the panel scrolls further than the 40 px that still count as following the newest line.
    await expect.poll(() => panel.evaluate((el) => el.scrollHeight - el.clientHeight), { timeout: 120_000 }).toBeGreaterThan(40);

    // Scroll back to the start of the session.
    await panel.evaluate((el) => (el.scrollTop = 0));
    await expect(panel).toHaveAttribute('data-following', 'false');
    const back = page.getByTestId('captions-back-to-live');
    await expect(back).toBeVisible();
    const before = await finals(page).count();
    // New captions still arrive while the user reads back, and the view stays where the user put it.
    await expect.poll(() => finals(page).count(), { timeout: 60_000 }).toBeGreaterThan(before);
    expect(await panel.evaluate((el) => el.scrollTop)).toBe(0);
    await expect(back).toContainText(/new line/);
    // No screenshots while captions run here: snap.ts awaits every finite animation, and one of the running page's can outlast the test.
    await expectNoAxeViolationsInBothThemes(page, 'captions rewound');

    // Back to live: the newest line is in view again and followed.
    await back.click();
    await expect(panel).toHaveAttribute('data-following', 'true');
    await expect.poll(() => panel.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(40);
    await expect(back).toBeHidden();

    // Replay the last 10 s: the audio element plays while the capture continues.
    await page.getByTestId('replay-10').click();
    const audio = page.getByTestId('caption-replay-audio');
    await expect(audio).toBeVisible();
    const t0 = await expect
      .poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(0)
      .then(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime));
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 20_000 }).toBeGreaterThan(t0 + 0.5);
    const during = await finals(page).count();
    await expect.poll(() => finals(page).count(), { timeout: 60_000 }).toBeGreaterThan(during);
    await expect(page.getByTestId('source-mic')).toContainText('Live');
    await expectNoAxeViolationsInBothThemes(page, 'captions replaying');

    // A past line plays from its moment (keyboard: its time is a button).
    const second = finals(page).nth(1);
    const clock = (await second.locator('time').textContent()) ?? '00:00';
    const [mm, ss] = clock.split(':').map(Number);
    const lineS = (mm ?? 0) * 60 + (ss ?? 0);
    await second.getByTestId('caption-play').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => audio.evaluate((a: HTMLAudioElement) => (a.paused ? -1 : a.currentTime)), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(Math.max(0, lineS - 1));
    expect(await audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeLessThan(lineS + 5);

    // The pop-out overlay (the page the pop-out window loads): the keyboard rewinds it while lines arrive; End returns.
    const pop = await page.context().newPage();
    await pop.goto(`${host.url}#overlay`);
    const overlay = pop.getByTestId('captions-overlay');
    await expect(overlay.getByTestId('overlay-line').first()).toBeVisible({ timeout: 20_000 });
    await overlay.focus();
    await pop.keyboard.press('PageUp');
    await pop.keyboard.press('PageUp');
    await expect(overlay).toHaveAttribute('data-rewound', 'true');
    const shown = await overlay.getByTestId('overlay-line').allTextContents();
    await expect(pop.getByTestId('overlay-back-to-live')).toBeVisible();
    await expect(overlay).toContainText(/[1-9]\d* newer lines?/, { timeout: 60_000 });
    expect(await overlay.getByTestId('overlay-line').allTextContents()).toEqual(shown);
    await expectNoAxeViolationsInBothThemes(pop, 'captions pop-out rewound');
    await pop.keyboard.press('End');
    await expect(overlay).toHaveAttribute('data-rewound', 'false');
    await pop.close();

    await page.getByTestId('captions-stop').click();
    await expect(page.getByTestId('caption-saved')).toContainText('Saved to the library', { timeout: 30_000 });
  });

  test('translates each final line once through the local model, never a growing one, and answers What did I miss?', async ({ page, host }) => {
    // The engine captions, translates and summarises on the same cores: on a loaded 2-core machine this runs 6–9 minutes.
    test.setTimeout(720_000);
    installTinyGguf(join(host.dataDir, 'models'), 'tiny-translator', { words: TRANSLATED });
    await host.restart();
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Live captions' }).click();
    await page.getByLabel('Translate captions into').selectOption('fr');
    await startCaptions(page, host.url);
    await expect(page.getByTestId('caption-translation-status')).toContainText('on this computer', { timeout: 60_000 });

    const panel = page.getByTestId('captions-panel');
    await expect.poll(() => panel.getByTestId('caption-translation').count(), { timeout: 180_000 }).toBeGreaterThan(1);
    // Every translation sits under a final line, one each, reading the model's answer; growing lines have none.
    const lines = await panel.getByTestId('caption-line').evaluateAll((els) =>
      els.map((el) => ({
        final: el.getAttribute('data-final') === 'true',
        translations: [...el.querySelectorAll('[data-testid="caption-translation"]')].map((t) => t.textContent),
      })),
    );
    for (const l of lines) {
      if (!l.final) expect(l.translations).toEqual([]);
      else expect(l.translations.length).toBeLessThanOrEqual(1);
      for (const t of l.translations) expect(t).toBe(fixedSentence(TRANSLATED));
    }
    await expectNoAxeViolationsInBothThemes(page, 'captions translated', 'captions-translated');

    // "What did I miss?" over the last 2 minutes: the local model answers, and it is shown as it streams and ends.
    await page.getByLabel('Summarise').selectOption('2');
    await page.getByTestId('missed-ask').click();
    const summary = page.getByTestId('missed-summary');
    await expect(summary).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    await expect(summary).toContainText('tiny-translator');
    await expect(page.getByTestId('missed-answer')).toContainText('Bonjour');
    await expectNoAxeViolationsInBothThemes(page, 'captions what did I miss', 'captions-missed');

    // The pop-out overlay shows the translations under their lines too.
    const pop = await page.context().newPage();
    await pop.goto(`${host.url}#overlay`);
    await expect(pop.getByTestId('overlay-translation').first()).toHaveText(fixedSentence(TRANSLATED), { timeout: 30_000 });
    await pop.close();

    await page.getByTestId('captions-stop').click();
    await expect(page.getByTestId('caption-saved')).toContainText('Saved to the library', { timeout: 30_000 });

    // The saved session exports its captions with the translation under each original line.
    await page.getByLabel('Export captions as').selectOption('srt');
    await page.getByLabel('With', { exact: true }).selectOption('both');
    const download = page.waitForEvent('download');
    await page.getByTestId('captions-export-button').click();
    const file = await download;
    const srt = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      void file.createReadStream().then((st) => {
        st.on('data', (c: Buffer) => chunks.push(c));
        st.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        st.on('error', reject);
      });
    });
    expect(srt).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> /);
    expect(srt).toContain(`\n${fixedSentence(TRANSLATED)}\n`);
    expect(srt.toLowerCase()).toMatch(/morning|budget|numbers|thank/);
    await expectNoAxeViolationsInBothThemes(page, 'captions saved with translation');

    // Opened from the library, the saved session shows the summary asked during it, by the model that wrote it,
    // and its translated lines under the text once asked for (keyboard: the toggle is a button).
    await openSavedSession(page);
    const saved = page.getByTestId('session-summaries');
    await expect(saved.getByRole('heading', { name: 'Summaries from the session' })).toBeVisible();
    // The summary asked during it, and the one of the whole session written at Stop (a writing model is installed).
    await expect(saved.getByTestId('session-summary')).toHaveCount(2);
    await expect(saved.getByTestId('session-summary').filter({ hasText: 'Summary of the whole session' })).toHaveCount(1);
    const asked = saved.getByTestId('session-summary').filter({ hasNotText: 'Summary of the whole session' });
    await expect(asked.getByTestId('session-summary-model')).toContainText('By Tiny test model (tiny-translator).');
    await expect(asked.getByTestId('session-summary-text')).toContainText('Bonjour');
    const toggle = page.getByTestId('show-translation');
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByTestId('transcript-translation')).toHaveCount(0);
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const under = page.getByTestId('transcript-body').getByTestId('transcript-translation');
    await expect(under.first()).toHaveText(fixedSentence(TRANSLATED));
    await expect(under.first()).toHaveAttribute('lang', 'fr');
    await expectNoAxeViolationsInBothThemes(page, 'saved session translated', 'captions-saved-session-translated');
  });

  test('keeps the summary asked during a session with it: opened from the library, its citations play the recording from their moment', async ({
    page,
    host,
  }) => {
    // No language model installed: the built-in extractive one answers, quoting the captions with their moments.
    test.setTimeout(480_000);
    await startCaptions(page, host.url);
    await expect.poll(() => finals(page).count(), { timeout: 180_000 }).toBeGreaterThan(2);
    await page.getByLabel('Summarise').selectOption('2');
    await page.getByTestId('missed-ask').click();
    await expect(page.getByTestId('missed-summary')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    await expect(page.getByTestId('missed-cite').first()).toBeVisible();
    await page.getByTestId('captions-stop').click();
    await expect(page.getByTestId('caption-saved')).toContainText('Saved to the library', { timeout: 30_000 });

    await openSavedSession(page);
    const summary = page.getByTestId('session-summaries').getByTestId('session-summary');
    await expect(summary).toHaveCount(1);
    await expect(summary).toHaveAttribute('data-status', 'done');
    await expect(summary.getByRole('heading')).toHaveText(/^Summary of \d\d:\d\d–\d\d:\d\d of the session$/);
    await expect(summary.getByTestId('session-summary-model')).toContainText('By Verbatim extractive (offline), extractive');
    // The session was not translated: no toggle for it.
    await expect(page.getByTestId('show-translation')).toHaveCount(0);
    await expectNoAxeViolationsInBothThemes(page, 'saved session with its summary', 'captions-saved-session-summary');

    // The latest moment it cites: the player goes there and plays, and focus stays on the link.
    const cite = summary.getByTestId('session-summary-cite').last();
    const citedS = Number(await cite.getAttribute('data-ms')) / 1000;
    expect(citedS).toBeGreaterThan(0);
    const audio = page.getByTestId('audio');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeLessThan(citedS);
    await cite.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => (a.paused ? -1 : a.currentTime)), { timeout: 10_000 }).toBeGreaterThanOrEqual(citedS);
    expect(await audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeLessThan(citedS + 3);
    await expect(cite).toBeFocused();
  });
});
