/** Dispatches a real drop of files onto the page, as a user dragging them from a file manager would. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Page } from '@playwright/test';

export interface DropFile {
  name: string;
  mime: string;
  /** Base64 bytes. */
  data: string;
}

export function dropFileFrom(path: string, mime = 'audio/wav', name = basename(path)): DropFile {
  return { name, mime, data: readFileSync(path).toString('base64') };
}

export async function dropFiles(page: Page, files: DropFile[]): Promise<void> {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bin = atob(f.data);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name, { type: f.mime }));
    }
    const target = document.querySelector('main') ?? document.body;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
  }, files);
}
