/** One CSP for the header and the meta tag (issue 12.15). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, CSP_PLACEHOLDER, META_CONTENT_SECURITY_POLICY } from '../../../src/shared/csp';
import { cspMetaPlugin } from '../../../vite.renderer.config';

function buildIndexHtml(): string {
  const html = readFileSync(resolve(import.meta.dirname, '../../../src/renderer/index.html'), 'utf8');
  const hook = cspMetaPlugin().transformIndexHtml as (html: string) => string;
  return hook(html);
}

describe('Content-Security-Policy', () => {
  it('writes the shared policy into index.html, identical to the header but for frame-ancestors', () => {
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(buildIndexHtml())?.[1];
    expect(meta).toBe(META_CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY.split('; ').filter((d) => !d.startsWith('frame-ancestors'))).toEqual(meta?.split('; '));
  });

  it('lets both forms play verbatim-media: URLs (the desktop app’s media protocol)', () => {
    expect(CONTENT_SECURITY_POLICY).toMatch(/media-src [^;]*verbatim-media:/);
    expect(META_CONTENT_SECURITY_POLICY).toMatch(/media-src [^;]*verbatim-media:/);
  });

  it('keeps no hand-written policy in index.html', () => {
    const source = readFileSync(resolve(import.meta.dirname, '../../../src/renderer/index.html'), 'utf8');
    expect(source).toContain(CSP_PLACEHOLDER);
    expect(source).not.toMatch(/default-src/);
  });
});
