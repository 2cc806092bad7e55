/**
 * The Models screen on host mode: a model downloaded from a local server set
 * as the mirror (progress watched while the server holds the second half
 * back; paused, it says where it stopped with no estimate; resumed), made the
 * model for files, the screen checked with axe in both themes, and a dropped
 * file transcribed by that model, its words read. Install from a file shows
 * its result under its button and takes the single-file .onnx models. The
 * texts that name the model in use (Settings, the service section, the chat
 * model's whole name). The model is a tiny zipformer transducer written by the
 * test (tests/fixtures/models/speech.ts) under the catalog's archive name and file names.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { installTinyGguf } from '../fixtures/models/gguf';
import { tinySegmentation, wavBytes } from '../fixtures/models/speakers';
import { spokenToneSequence, writeTinyModel } from '../fixtures/models/speech';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { dropFileFrom, dropFiles } from './drop';
import { expect, launchHost, stopHost, test } from './host';
import { mirror, tinyArchive } from './models-mirror';
import { snap } from './snap';

const MODEL = 'zipformer-small-en';

/** The tone words over quiet speech (the speech detector passes speech, not bare tones), as a 16-bit WAV. */
function toneWav(dir: string): string {
  const path = join(dir, 'beeps.wav');
  writeFileSync(path, wavBytes(spokenToneSequence(dir).pcm));
  return path;
}

async function openModels(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('connection')).toHaveText('Connected');
  await page.getByRole('button', { name: 'Models', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible();
}

/** How wide a select's chosen option is in its own font (plus padding and the arrow), against the width the select has. */
function fit(select: Locator): Promise<{ text: string; need: number; have: number }> {
  return select.evaluate((el: HTMLSelectElement) => {
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = el.selectedOptions[0]?.text ?? '';
    // Chromium draws the drop-down arrow in about 20 px at the right, inside the padding box.
    const need = ctx.measureText(text).width + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + 20;
    return { text, need: Math.ceil(need), have: el.clientWidth };
  });
}

test.describe('models', () => {
  test('download from a mirror with progress, pause and resume, make it the default, then a dropped file is transcribed by it', async ({ page, host }) => {
    const work = mkdtempSync(join(tmpdir(), 'verbatim-e2e-models-'));
    const server = mirror([tinyArchive(work, MODEL)]);
    const base = await server.start();
    try {
      await openModels(page, host.url);
      const table = page.getByRole('table', { name: 'All models' });
      await expect(table.getByTestId(`model-${MODEL}`)).toBeVisible();
      await expect(page.getByLabel('Model for files')).toHaveValue('');

      const mirrorField = page.getByLabel('Download address (mirror)');
      await mirrorField.fill(base);
      await mirrorField.blur();
      await expect(mirrorField).toHaveValue(base);

      const row = table.getByTestId(`model-${MODEL}`);
      await row.getByRole('button', { name: /^Download/ }).click();
      // Half has arrived and the server holds the rest: the bar shows where it is, with Pause and Cancel.
      const bar = row.getByRole('progressbar');
      await expect(bar).toBeVisible();
      await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(40);
      await expect(row.getByTestId('download-state')).toContainText(' of ');
      await expect(row.getByRole('button', { name: /^Cancel/ })).toBeVisible();
      await row.scrollIntoViewIfNeeded();
      await snap(page, 'models-downloading-light');

      // Paused, it says where it stopped and estimates nothing.
      await row.getByRole('button', { name: /^Pause/ }).click();
      await expect(row.getByTestId('download-state')).toContainText('Paused at');
      await expect(row).not.toContainText('estimating');
      await snap(page, 'models-paused-light');
      await row.getByRole('button', { name: /^Resume/ }).click();
      await expect(row.getByRole('button', { name: /^Pause/ })).toBeVisible();
      server.release();

      await expect(row.getByText('Installed', { exact: true })).toBeVisible({ timeout: 60_000 });
      await row.getByRole('button', { name: /^Use for files/ }).click();
      await expect(page.getByLabel('Model for files')).toHaveValue(MODEL);
      await expect(row.getByText('In use for files')).toBeVisible();
      await expect(page.getByTestId('models-in-use')).toContainText('Files are transcribed with Zipformer small (English)');
      await expectNoAxeViolationsInBothThemes(page, 'models screen, a model in use', 'models-installed');

      // The keyboard reaches Delete in the details, and Delete asks first, saying what it frees.
      await row.getByRole('button', { name: /^Details/ }).focus();
      await page.keyboard.press('Enter');
      const details = page.getByTestId(`details-${MODEL}`);
      await expect(details.getByTestId('disk-use')).toBeVisible();
      await details.getByRole('button', { name: /^Delete/ }).focus();
      await page.keyboard.press('Enter');
      await expect(details.getByRole('group', { name: /^Delete/ })).toContainText('It frees');
      await details.getByRole('button', { name: 'Keep' }).click();
      await expect(details.getByRole('button', { name: /^Delete/ })).toBeFocused();

      // A dropped file now runs on the local model and its words come back.
      await page.getByRole('button', { name: 'Library', exact: true }).click();
      await dropFiles(page, [dropFileFrom(toneWav(work))]);
      const job = page.getByTestId('job-row').filter({ hasText: 'beeps.wav' });
      await expect(job).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
      await job.getByRole('button', { name: 'Open' }).click();
      const body = page.getByTestId('transcript-body');
      await expect(body.locator('.w').first()).toBeVisible();
      expect(((await body.textContent()) ?? '').toLowerCase()).toMatch(/beep\W+beep\W+boop/);
    } finally {
      await server.stop();
    }
  });

  test('install from a file: the result shows under its button, and single-file .onnx models can be picked', async ({ page, host }) => {
    const work = mkdtempSync(join(tmpdir(), 'verbatim-e2e-models-file-'));
    const archive = tinyArchive(work, MODEL);
    const server = mirror([archive]);
    server.release();
    const base = await server.start();
    try {
      await openModels(page, host.url);
      // Upstream's list is read from the mirror, as a corporate network would have it.
      const mirrorField = page.getByLabel('Download address (mirror)');
      await mirrorField.fill(base);
      await mirrorField.blur();
      const input = page.getByTestId('install-file-input');
      expect((await input.getAttribute('accept'))?.split(',')).toEqual(expect.arrayContaining(['.bz2', '.gguf', '.onnx']));

      const button = page.getByRole('button', { name: /Choose a file/ });
      const result = page.getByTestId('install-result');
      writeFileSync(join(work, 'not-a-model.tar.bz2'), 'nothing here');
      await input.setInputFiles(join(work, 'not-a-model.tar.bz2'));
      await expect(result).toContainText('not-a-model.tar.bz2');
      const near = async () => {
        const b = (await button.boundingBox())!;
        const r = (await result.boundingBox())!;
        return r.y - (b.y + b.height);
      };
      // Where the user is looking: right under the button, not at the top of the screen.
      expect(await near()).toBeGreaterThanOrEqual(0);
      expect(await near()).toBeLessThan(80);
      await result.scrollIntoViewIfNeeded();
      await snap(page, 'models-install-file-error-light');

      writeFileSync(join(work, archive.name), archive.body);
      await input.setInputFiles(join(work, archive.name));
      await expect(result).toHaveText(`Installed Zipformer small (English) from ${archive.name}.`, { timeout: 60_000 });
      expect(await near()).toBeLessThan(80);
      await expect(page.getByRole('table', { name: 'All models' }).getByTestId(`model-${MODEL}`)).toContainText('Installed');

      // Two models share one archive (pyannote segmentation and its int8 version): the row says which one the file is for.
      const top = join(work, 'seg', 'sherpa-onnx-pyannote-segmentation-3-0');
      mkdirSync(top, { recursive: true });
      writeFileSync(join(top, 'model.onnx'), tinySegmentation());
      writeFileSync(join(top, 'model.int8.onnx'), tinySegmentation());
      const segArchive = join(work, 'sherpa-onnx-pyannote-segmentation-3-0.tar.bz2');
      execFileSync('tar', ['-cjf', segArchive, '-C', join(work, 'seg'), 'sherpa-onnx-pyannote-segmentation-3-0']);
      const table = page.getByRole('table', { name: 'All models' });
      const int8 = table.getByTestId('model-pyannote-segmentation-3.0-int8');
      await int8.getByRole('button', { name: /^Details/ }).click();
      const details = page.getByTestId('details-pyannote-segmentation-3.0-int8');
      await expect(details.getByRole('button', { name: /^Install from a file/ })).toBeVisible();
      await page.getByTestId('install-file-input-pyannote-segmentation-3.0-int8').setInputFiles(segArchive);
      await expect(details.getByTestId('row-install-result')).toContainText('Installed', { timeout: 60_000 });
      await expect(int8).toContainText('Installed');
      await expect(table.getByTestId('model-pyannote-segmentation-3.0')).not.toContainText('Installed');
    } finally {
      await server.stop();
    }
  });

  test('a mirror holding a file no published list names: the row says so, offers the publisher and no "Download again"', async ({ page }) => {
    const work = mkdtempSync(join(tmpdir(), 'verbatim-e2e-models-changed-'));
    const archive = tinyArchive(work, MODEL);
    const server = mirror([archive]);
    server.release();
    const base = await server.start();
    // Verbatim verified an earlier release of this archive; the mirror's list now names a third file, and the mirror's archive is neither.
    server.list(archive.name, 'c'.repeat(64));
    const dataDir = join(work, 'data');
    mkdirSync(join(dataDir, 'models'), { recursive: true });
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ models: { files: '', live: '', mirror: base } }));
    writeFileSync(
      join(dataDir, 'models', '.verbatim-state.json'),
      JSON.stringify({ downloads: {}, verified: { [MODEL]: { sha256: 'a'.repeat(64), bytes: archive.body.length, source: 'published' } } }),
    );
    const host = await launchHost(dataDir);
    try {
      await openModels(page, host.url);
      const row = page.getByRole('table', { name: 'All models' }).getByTestId(`model-${MODEL}`);
      await row.getByRole('button', { name: /^Download/ }).click();
      const error = row.getByTestId('download-error');
      await expect(error).toContainText(`${archive.name} on your mirror matches no published version of this model`, { timeout: 60_000 });
      await expect(error).not.toContainText('new version');
      // Fetching the mirror's file again cannot help: the row offers the publisher's address instead.
      await expect(row.getByRole('button', { name: /^Download again|^Try again/ })).toHaveCount(0);
      await expect(row.getByRole('button', { name: /^Download from github\.com/ })).toBeVisible();
      await row.scrollIntoViewIfNeeded();
      await snap(page, 'models-mirror-mismatch-light');
      // The mirror gets the right file (its list now names it); the message is dismissed and the row's Download takes it.
      server.list(archive.name, createHash('sha256').update(archive.body).digest('hex'));
      await row.getByRole('button', { name: /^Dismiss/ }).click();
      await row.getByRole('button', { name: /^Download/ }).click();
      await expect(row.getByText('Installed', { exact: true })).toBeVisible({ timeout: 60_000 });
    } finally {
      await stopHost(host.child);
      await server.stop();
    }
  });

  test('the texts name the model in use: Settings, the service section, and a chat model’s whole name', async ({ page }) => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'verbatim-e2e-models-texts-')), 'data');
    const models = join(dataDir, 'models');
    mkdirSync(models, { recursive: true });
    writeTinyModel(models, 'zipformer-transducer', MODEL);
    // A chat model installed under the catalog's id and name, the longest kind of name there is.
    installTinyGguf(models, 'qwen2.5-0.5b-instruct');
    const manifest = join(models, 'qwen2.5-0.5b-instruct', 'verbatim-model.json');
    writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), name: 'Qwen2.5 0.5B Instruct (Q4_K_M)' }));
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ region: 'local', models: { files: MODEL, live: '', mirror: '' } }));
    const host = await launchHost(dataDir);
    try {
      await page.goto(host.url);
      await expect(page.getByTestId('connection')).toHaveText('Connected');
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      const service = page.getByTestId('local-model-note');
      await expect(service).toContainText('files are transcribed with Zipformer small (English)');
      await expect(page.getByRole('region', { name: 'New transcriptions' })).not.toContainText('ignores this choice');
      await expect(page.getByTestId('settings-models-summary')).toContainText('files are transcribed with Zipformer small (English)');
      for (const label of ['Model for files', 'Model for live captions']) {
        const f = await fit(page.getByLabel(label));
        expect(f.need, `“${f.text}” fits its picker`).toBeLessThanOrEqual(f.have);
      }
      await page.getByRole('region', { name: 'Models' }).scrollIntoViewIfNeeded();
      await snap(page, 'models-settings-card-light');

      // Settings leads to the Models screen.
      await page.getByRole('button', { name: 'Compare and download models' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible();
      await expect(page.getByTestId('models-in-use')).toContainText('Files are transcribed with Zipformer small (English)');
      await expect(page.locator('.page__intro')).not.toContainText('transcribes with PocketSphinx');

      await page.getByRole('button', { name: 'Chat', exact: true }).click();
      const picker = page.locator('.chat__model select');
      await expect(picker.locator('option', { hasText: 'Qwen2.5 0.5B Instruct (Q4_K_M)' })).toHaveCount(1);
      await picker.selectOption({ label: 'Qwen2.5 0.5B Instruct (Q4_K_M)' });
      const f = await fit(picker);
      expect(f.text).toBe('Qwen2.5 0.5B Instruct (Q4_K_M)');
      expect(f.need, 'the chat model’s whole name shows').toBeLessThanOrEqual(f.have);
      await snap(page, 'models-chat-model-name-light');
    } finally {
      await stopHost(host.child);
    }
  });
});
