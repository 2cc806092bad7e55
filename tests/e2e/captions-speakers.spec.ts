/**
 * Speakers in live captions end to end in host mode: Chromium's fake audio device plays two generated
 * voices taking turns A/B/A (flite voices, each turn marked by the quiet tone the tiny speaker-embedding
 * model hears as the voice: tests/fixtures/models/speakers.ts) as the system audio; with "Tell apart who
 * speaks" on and Dana remembered with voice A's print, the panel and the overlay read Dana, Speaker A,
 * Dana; the saved session names them the same; axe finds nothing, light and dark.
 */
import { join } from 'node:path';
import { installModel, MARKS, tinyEmbedding } from '../fixtures/models/speakers';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { CHROMIUM_ARGS, CHROMIUM_PATH, fakeMicrophoneArgs } from './chromium';
import { expect, test } from './host';
import { fakeMonitorInput, rememberDana, twoVoicesWav } from './live-voices';
import { snap } from './snap';

const wav = twoVoicesWav('captions-speakers');

test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...fakeMicrophoneArgs(wav)] },
  permissions: ['microphone'],
});

test.describe('speakers in live captions', () => {
  test('labels the system audio’s voices by name and letter in the panel, the overlay and the saved session', async ({ page, host }) => {
    installModel(join(host.dataDir, 'models'), 'tiny-embedding', 'embedding', tinyEmbedding({ hz: MARKS }));
    rememberDana(host.dataDir);
    await page.addInitScript(fakeMonitorInput);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Live captions' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Live captions' })).toBeVisible();
    await page.getByRole('radio', { name: /^System audio/ }).check();
    await page.getByText('Caption settings').click();
    const who = page.getByRole('switch', { name: 'Tell apart who speaks in the system audio' });
    await who.click({ force: true });
    await expect(who).toBeChecked();

    await page.getByTestId('captions-start').click();
    await expect(page.getByTestId('source-system')).toContainText('Live', { timeout: 90_000 });
    const panel = page.getByTestId('captions-panel');
    // The label of each finished line, and the order in which they change.
    const changes = async () => {
      const labels = await panel
        .locator('[data-testid="caption-line"][data-final="true"] .cap-src')
        .evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ''));
      return labels.filter((l, i) => l !== labels[i - 1]).slice(0, 3);
    };
    await expect.poll(changes, { timeout: 90_000 }).toEqual(['Dana', 'Speaker A', 'Dana']);

    // The overlay: a pop-out window, or Document Picture-in-Picture where Chromium offers it; the same component.
    const popupOpened = page.waitForEvent('popup', { timeout: 8000 }).catch(() => null);
    await page.getByRole('button', { name: 'Pop out captions' }).click();
    const popup = await popupOpened;
    if (popup) {
      await expect(popup.getByTestId('captions-overlay')).toContainText(/Dana: |Speaker A: /, { timeout: 20_000 });
      await popup.close();
    } else {
      const pipText = () =>
        page.evaluate(
          () =>
            (window as unknown as { documentPictureInPicture?: { window: Window | null } }).documentPictureInPicture?.window?.document.body.textContent ?? '',
        );
      await expect.poll(pipText, { timeout: 20_000 }).toMatch(/Dana: |Speaker A: /);
    }
    await expectNoAxeViolationsInBothThemes(page, 'captions with speakers', 'captions-speakers');

    await page.getByTestId('captions-stop').click();
    await expect(page.getByTestId('caption-saved')).toContainText('Saved to the library', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Library' }).click();
    await page
      .getByTestId('library-row')
      .filter({ hasText: 'Live session' })
      .first()
      .getByRole('button', { name: /^Open Live session/ })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: /Live session/ })).toBeVisible();
    const body = page.getByTestId('transcript-body');
    await expect(body.getByRole('button', { name: 'Dana: rename' }).first()).toBeVisible();
    const names = await body.getByRole('button', { name: /: rename$/ }).evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ''));
    expect(names.filter((n, i) => n !== names[i - 1]).slice(0, 3)).toEqual(['Dana', 'Speaker A', 'Dana']);
    await snap(page, 'captions-speakers-session-light');
  });
});
