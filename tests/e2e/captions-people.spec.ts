/**
 * A live session is linked to the people named in it, end to end in host mode: as in
 * captions-speakers.spec.ts, Chromium's fake audio device plays two generated voices A/B/A as the system
 * audio and Dana is remembered with voice A's print; once the session is saved, People lists it under Dana
 * ("recognised in live captions") and "Search what Dana said" finds her words, not the other voice's. axe,
 * light and dark.
 */
import { join } from 'node:path';
import { installModel, MARKS, tinyEmbedding } from '../fixtures/models/speakers';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from './chromium';
import { expect, test } from './host';
import { fakeMonitorInput, rememberDana, twoVoicesWav } from './live-voices';

const wav = twoVoicesWav('captions-people');

test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav)] },
  permissions: ['microphone'],
});

test.describe('people in live sessions', () => {
  test('a session where Dana was recognised is under Dana in People, and what she said is found', async ({ page, host }) => {
    installModel(join(host.dataDir, 'models'), 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
    rememberDana(host.dataDir);
    await page.addInitScript(fakeMonitorInput);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Live captions' }).click();
    await page.getByRole('radio', { name: /^System audio/ }).check();
    await page.getByText('Caption settings').click();
    const who = page.getByRole('switch', { name: 'Tell apart who speaks in the system audio' });
    await who.click({ force: true });
    await expect(who).toBeChecked();

    await page.getByTestId('captions-start').click();
    await expect(page.getByTestId('source-system')).toContainText('Live', { timeout: 90_000 });
    const panel = page.getByTestId('captions-panel');
    const finals = () =>
      panel
        .locator('[data-testid="caption-line"][data-final="true"]')
        .evaluateAll((els) =>
          els.map((e) => ({ who: e.querySelector('.cap-src')?.textContent?.trim() ?? '', text: e.querySelector('.cap-line__text')?.textContent ?? '' })),
        );
    // Dana's second turn has ended.
    await expect.poll(async () => (await finals()).filter((l) => l.who === 'Dana').length, { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
    // A word only Dana said and one only the other voice said, as the recogniser heard them.
    const lines = await finals();
    const wordsOf = (who: (w: string) => boolean) => new Set(lines.filter((l) => who(l.who)).flatMap((l) => l.text.toLowerCase().match(/[a-z]{3,}/g) ?? []));
    const hers = wordsOf((w) => w === 'Dana');
    const others = wordsOf((w) => w !== 'Dana');
    const herWord = [...hers].find((w) => !others.has(w));
    const otherWord = [...others].find((w) => !hers.has(w));
    expect(herWord, JSON.stringify(lines)).toBeDefined();
    expect(otherWord, JSON.stringify(lines)).toBeDefined();
    await page.getByTestId('captions-stop').click();
    await expect(page.getByTestId('caption-saved')).toContainText('Saved to the library', { timeout: 20_000 });

    await page.getByRole('button', { name: 'People' }).click();
    const dana = page
      .getByRole('list', { name: 'Remembered voices' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Dana' }) });
    await expect(dana).toContainText('Earlier meeting named there');
    await expect(dana.getByRole('listitem').filter({ hasText: 'Live session' })).toContainText('recognised, in live captions');
    const said = page.getByRole('search', { name: 'What Dana said' });
    const box = said.getByRole('searchbox', { name: 'Search what Dana said' });
    await box.fill(herWord as string);
    await said.getByRole('button', { name: 'Search' }).click();
    await expect(said.getByRole('status')).toHaveText(/^\d+ places? found\.$/);
    await box.fill(otherWord as string);
    await said.getByRole('button', { name: 'Search' }).click();
    await expect(said.getByRole('status')).toHaveText('Nothing found.');
    await expectNoAxeViolationsInBothThemes(page, 'people with a live session', 'captions-people');
  });
});
