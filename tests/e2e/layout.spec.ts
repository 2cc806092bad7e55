/**
 * Layout at the window sizes people use: at 1280 px a transcript's actions keep one row beside its
 * title (speakers and review on a row of their own), and in a 1100×640 window a running caption
 * session leaves its captions in view (the inputs fold to one line while they cannot change).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoAxeViolations, expectNoAxeViolationsInBothThemes } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from './chromium';
import { expect, test } from './host';
import { seedLibrary } from './seed';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-layout-'));
const wav = join(dir, 'speech.wav');
execFileSync('flite', ['-voice', 'slt', '-t', 'Good morning everyone. The budget meeting starts at nine.', '-o', join(dir, 'raw.wav')]);
execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'raw.wav'), '-af', 'apad=pad_dur=2.5', '-ar', '48000', '-ac', '1', wav]);
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav)] }, permissions: ['microphone'] });

test('a transcript’s actions keep one row at 1280 px, and running captions stay in view in a 1100×640 window', async ({ page, host }) => {
  seedLibrary(host.dataDir, { count: 1, wordsPer: 300, titlePrefix: 'Quarterly planning with the design team', speakers: ['A', 'B'], audioFile: wav });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  await page
    .getByTestId('library-row')
    .first()
    .getByRole('button', { name: /^Open / })
    .click();
  const actions = page.locator('.transcript__actions > button');
  await expect(page.getByRole('button', { name: 'Understand…' })).toBeVisible();
  const tops = await actions.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  expect(tops.length).toBeGreaterThanOrEqual(7);
  expect(new Set(tops).size, `action rows: ${tops.join(', ')}`).toBe(1);
  // The title is read whole (two lines at most), and speakers and review have their own row.
  const title = page.locator('.transcript__title');
  expect(await title.evaluate((e) => e.scrollHeight <= e.clientHeight + 1)).toBe(true);
  await expect(page.getByRole('toolbar', { name: 'Speakers and review' }).getByRole('button', { name: 'Next doubtful' })).toBeVisible();
  await expectNoAxeViolationsInBothThemes(page, 'transcript at 1280 px', 'layout-transcript-1280');

  await page.setViewportSize({ width: 1100, height: 640 });
  await page.getByRole('button', { name: 'Live captions' }).click();
  await page.getByTestId('captions-start').click();
  await expect(page.getByTestId('source-mic')).toContainText('Live', { timeout: 90_000 });
  await expect(page.getByTestId('captions-listening')).toHaveText('Listening to Microphone · Default microphone');
  const panel = await page.getByTestId('captions-panel').boundingBox();
  expect(panel, 'the captions panel is on the page').not.toBeNull();
  // At least 300 px of captions show without scrolling (the full inputs card left 238).
  expect(640 - panel!.y).toBeGreaterThan(300);
  await expectNoAxeViolationsInBothThemes(page, 'captions running at 1100×640', 'layout-captions-1100');
  await page.getByTestId('captions-stop').click();
  await expect(page.getByRole('radio', { name: /^Microphone/ })).toBeVisible({ timeout: 60_000 });
});

test('the find’s current hit stays readable while it is the word playing, in the dark theme', async ({ page, host }) => {
  seedLibrary(host.dataDir, { count: 1, wordsPer: 120, titlePrefix: 'Standup', audioFile: wav });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(host.url);
  await page
    .getByTestId('library-row')
    .first()
    .getByRole('button', { name: /^Open / })
    .click();
  await page.getByRole('button', { name: 'Find' }).click();
  await page.getByRole('searchbox', { name: 'Find in transcript' }).fill('the');
  await expect(page.getByTestId('find-count')).toHaveText(/^1 of \d+$/);
  // The word playing takes w--active; here it is put on the current hit directly, so the check does not hang on playback timing.
  const current = page.getByTestId('transcript-body').locator('.w--current').first();
  await current.evaluate((e) => e.classList.add('w--active'));
  await expect.poll(() => current.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(250, 204, 21)');
  await expectNoAxeViolations(page, 'find hit playing, dark');
});
