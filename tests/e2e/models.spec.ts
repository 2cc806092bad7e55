/**
 * Settings → Models on host mode: a model downloaded from a local server set
 * as the mirror (its progress watched while the server holds the second half
 * back), made the default for files, the screen checked with axe in both
 * themes, and a dropped file transcribed by that model, its words read.
 * The model is a tiny zipformer transducer written by the test
 * (tests/fixtures/models/speech.ts) under the catalog's archive name and file names.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { catalogEntry } from '../../src/shared/models';
import { wavBytes } from '../fixtures/models/speakers';
import { spokenToneSequence, writeTinyModel } from '../fixtures/models/speech';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { dropFileFrom, dropFiles } from './drop';
import { expect, test } from './host';
import { snap } from './snap';

const MODEL = 'zipformer-small-en';

/** The tiny model packed as the catalog entry's archive: its files under the catalog's names, in the archive's top folder, plus filler the installer skips. */
function tinyArchive(dir: string): { name: string; body: Buffer } {
  const entry = catalogEntry(MODEL)!;
  const archiveName = basename(new URL(entry.url).pathname);
  const top = archiveName.replace(/\.tar\.bz2$/, '');
  const tiny = writeTinyModel(join(dir, 'tiny'), 'zipformer-transducer', 'tiny');
  const manifest = JSON.parse(readFileSync(join(tiny, 'verbatim-model.json'), 'utf8')) as { files: Record<string, string> };
  mkdirSync(join(dir, 'pack', top, 'test_wavs'), { recursive: true });
  for (const [role, path] of Object.entries(entry.files)) copyFileSync(join(tiny, manifest.files[role]!), join(dir, 'pack', top, path));
  // Incompressible filler (as the upstream archives carry test wavs and fp32 weights), so the download takes a moment.
  writeFileSync(join(dir, 'pack', top, 'test_wavs', 'filler.bin'), randomBytes(3 * 1024 * 1024));
  const file = join(dir, archiveName);
  execFileSync('tar', ['-cjf', file, '-C', join(dir, 'pack'), top]);
  return { name: archiveName, body: readFileSync(file) };
}

/** The tone words over quiet speech (the speech detector passes speech, not bare tones), as a 16-bit WAV. */
function toneWav(dir: string): string {
  const path = join(dir, 'beeps.wav');
  writeFileSync(path, wavBytes(spokenToneSequence(dir).pcm));
  return path;
}

/** Serves the archive; the first full request sends half, then holds the rest until `release()`. */
function mirror(archive: { name: string; body: Buffer }) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const held = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    if (req.url !== `/${archive.name}`) return void res.writeHead(404).end();
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = m ? Number(m[1]) : 0;
    const rest = archive.body.subarray(from);
    const headers = { 'content-type': 'application/octet-stream', 'content-length': rest.length };
    if (from > 0) res.writeHead(206, { ...headers, 'content-range': `bytes ${from}-${archive.body.length - 1}/${archive.body.length}` });
    else res.writeHead(200, headers);
    const half = Math.floor(rest.length / 2);
    held.add(res);
    res.on('close', () => held.delete(res));
    res.write(rest.subarray(0, half));
    void released.then(() => res.end(rest.subarray(half)));
  });
  return {
    server,
    release,
    async start(): Promise<string> {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop(): Promise<void> {
      release();
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

test.describe('models', () => {
  test.setTimeout(240_000);

  test('download from a mirror with progress, make it the default, then a dropped file is transcribed by it', async ({ page, host }) => {
    const work = mkdtempSync(join(tmpdir(), 'verbatim-e2e-models-'));
    const server = mirror(tinyArchive(work));
    const base = await server.start();
    try {
      await page.goto(host.url);
      await expect(page.getByTestId('connection')).toHaveText('Connected');
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      const section = page.getByRole('region', { name: 'Models' });
      await expect(section.getByTestId(`model-${MODEL}`)).toBeVisible();
      await expect(page.getByLabel('Model for files')).toHaveValue('');

      const mirrorField = page.getByLabel('Download address (mirror)');
      await mirrorField.fill(base);
      await mirrorField.blur();
      await expect(mirrorField).toHaveValue(base);

      const row = section.getByTestId(`model-${MODEL}`);
      await row.getByRole('button', { name: /^Download/ }).click();
      // Half has arrived and the server holds the rest: the bar shows where it is, with Pause and Cancel.
      const bar = row.getByRole('progressbar');
      await expect(bar).toBeVisible();
      await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(40);
      await expect(row.getByTestId('download-state')).toContainText('Downloading:');
      await expect(row.getByRole('button', { name: /^Pause/ })).toBeVisible();
      await expect(row.getByRole('button', { name: /^Cancel/ })).toBeVisible();
      await row.scrollIntoViewIfNeeded();
      await snap(page, 'models-downloading-light');
      server.release();

      await expect(row.getByText('Installed', { exact: true })).toBeVisible({ timeout: 60_000 });
      await expect(row.getByTestId('disk-use')).toBeVisible();
      await row.getByRole('button', { name: /^Use for files/ }).click();
      await expect(page.getByLabel('Model for files')).toHaveValue(MODEL);
      await expect(row.getByText('Default for files')).toBeVisible();
      await row.scrollIntoViewIfNeeded();
      await expectNoAxeViolationsInBothThemes(page, 'settings, models', 'models-installed');

      // The keyboard reaches Delete, and Delete asks first, saying what it frees.
      await row.getByRole('button', { name: /^Delete/ }).focus();
      await page.keyboard.press('Enter');
      await expect(row.getByRole('group', { name: /^Delete/ })).toContainText('It frees');
      await row.getByRole('button', { name: 'Keep' }).click();
      await expect(row.getByRole('button', { name: /^Delete/ })).toBeFocused();
      await section.getByRole('heading', { name: 'Models', exact: true }).scrollIntoViewIfNeeded();
      await snap(page, 'models-top-light');

      // A dropped file now runs on the local model and its words come back.
      await page.getByRole('button', { name: 'Library', exact: true }).click();
      await dropFiles(page, [dropFileFrom(toneWav(work))]);
      const job = page.getByTestId('job-row').filter({ hasText: 'beeps.wav' });
      await expect(job).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
      await job.getByRole('button', { name: 'Open' }).click();
      const body = page.getByTestId('transcript-body');
      await expect(body.locator('.w').first()).toBeVisible();
      expect(((await body.textContent()) ?? '').toLowerCase()).toMatch(/beep\W+beep\W+boop/);
      await snap(page, 'models-transcript-light');
    } finally {
      await server.stop();
    }
  });
});
