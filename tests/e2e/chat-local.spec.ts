/**
 * Chat with a local GGUF model on host mode: a llama model written by the
 * test (tests/fixtures/models/gguf.ts; wide enough that its answer takes
 * seconds) installed in the app's models folder, which the app's engine
 * runs. The chat picks it with no key, Summary streams its answer into the
 * chat, Stop stops it, and the answer names the model. Axe in both themes.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Library } from '../../src/main/services/library/library';
import type { Word } from '../../src/shared/library';
import { installTinyGguf } from '../fixtures/models/gguf';
import { expectNoAxeViolationsInBothThemes } from './axe';
import { expect, test } from './host';
import { snap } from './snap';

function seedTranscript(dataDir: string, title: string, sentences: [number, string][]): void {
  mkdirSync(dataDir, { recursive: true });
  const lib = new Library(dataDir);
  const { transcriptId } = lib.recordings.add({ title, source: `${title}.wav`, sourceKind: 'file', sizeBytes: 1, region: 'local', baseUrl: null, options: {} });
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
  lib.close();
}

test.describe('chat with a local model', () => {
  test('Summary streams the local model’s answer into the chat, Stop stops it, and the answer names its model', async ({ page, host }) => {
    // Loops its sentence until max_tokens; 512 wide and 4 layers, so its 1,500 tokens take seconds, not milliseconds.
    installTinyGguf(join(host.dataDir, 'models'), 'tiny-llama-chat', { loop: true, width: 512, layers: 4, ffnWidth: 2048 });
    seedTranscript(host.dataDir, 'Launch meeting', [
      [0, 'Good morning and thanks for joining.'],
      [5000, 'We agreed to ship the report on Friday.'],
      [11_000, 'Sam will send the slides to the board.'],
    ]);
    await host.restart();
    await page.goto(host.url);
    await expect(page.getByTestId('connection')).toHaveText('Connected');
    const row = page.getByTestId('library-row');
    await expect(row).toHaveCount(1);
    await row.getByRole('checkbox').check();
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Ask' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Launch meeting/ })).toBeVisible();
    // No key: the installed local model, not the extractive one, is the chat's model.
    await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('tiny-llama-chat');

    await page.getByRole('button', { name: 'Summary', exact: true }).click();
    const answer = page.getByTestId('answer').last();
    await expect(page.getByTestId('answer')).toHaveCount(1);
    await expect(answer).toContainText('The meeting agreed to ship the report', { timeout: 60_000 });
    await expect(answer).toHaveAttribute('data-status', 'streaming');
    const stop = page.getByRole('button', { name: 'Stop' });
    await expect(stop).toBeVisible();
    await snap(page, 'chat-local-streaming');
    await stop.click();
    await expect(answer).toHaveAttribute('data-status', 'stopped');
    await expect(answer.getByText('Stopped')).toBeVisible();
    const stopped = (await answer.textContent()) ?? '';
    await expect(answer.getByTestId('answered-by')).toHaveText(/Answered by Tiny test model/);
    // Stopped means stopped: nothing more arrives once the chat is idle again.
    await expect(page.getByRole('button', { name: 'Summary', exact: true })).toBeEnabled();
    expect((await answer.textContent()) ?? '').toBe(stopped);
    await expectNoAxeViolationsInBothThemes(page, 'chat-local-stopped', 'chat-local-stopped');
  });
});
