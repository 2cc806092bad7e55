/** isOwnUrlFor (issue 26, item 16): the app's own page matched exactly, every hostile look-alike refused. */
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { isOwnUrlFor, safeExternalUrl } from '../../../src/main/windows/own-url';

const FILE = '/opt/Verbatim/resources/app/out/renderer/index.html';
const OWN = pathToFileURL(FILE).href;
const built = { file: FILE };
const dev = { url: 'http://localhost:5173' };

describe('isOwnUrlFor, the built app', () => {
  it.each([OWN, `${OWN}#overlay`, `${OWN}#/library/abc`, 'file:///opt/Verbatim/resources/app/out/renderer/index.html'])('accepts its own page %s', (u) => {
    expect(isOwnUrlFor(u, built)).toBe(true);
  });

  it.each([
    'file:///home/u/Downloads/page.html#/renderer/index.html',
    'file:///home/u/Downloads/renderer/index.html',
    'file:///tmp/x/renderer/index.html',
    `${OWN}?evil=1`,
    `${OWN}?x`,
    'file://evil.example/opt/Verbatim/resources/app/out/renderer/index.html',
    'file:///opt/Verbatim/resources/app/out/renderer/index.html.evil',
    'file:///opt/Verbatim/resources/app/out/renderer/index.html/../../../../home/u/x.html',
    'file:///opt/Verbatim/resources/app/out/renderer/../renderer2/index.html',
    'file:///opt/Verbatim/resources/app/out/renderer/index%2ehtml',
    'file:///opt/Verbatim/resources/app/out/renderer/Index.html',
    'file:///opt/Verbatim/resources/app/out/renderer/index.html%00.evil',
    'https://evil.example/renderer/index.html',
    'http://localhost:5173/',
    'data:text/html,<script>1</script>#/renderer/index.html',
    'javascript:alert(1)//renderer/index.html',
    'about:blank#/renderer/index.html',
    'blob:file:///opt/Verbatim/resources/app/out/renderer/index.html',
    'view-source:file:///opt/Verbatim/resources/app/out/renderer/index.html',
    'not a url /renderer/index.html',
    '',
  ])('refuses %s', (u) => {
    expect(isOwnUrlFor(u, built)).toBe(false);
  });
});

describe('isOwnUrlFor, the dev server', () => {
  it.each(['http://localhost:5173', 'http://localhost:5173/', 'http://localhost:5173/#overlay', 'http://localhost:5173/index.html'])('accepts %s', (u) => {
    expect(isOwnUrlFor(u, dev)).toBe(true);
  });

  it.each([
    'http://localhost:51730/',
    'http://localhost:5173.evil.example/',
    'http://localhost:5173@evil.example/',
    'http://user:pw@localhost:5173/',
    'https://localhost:5173/',
    'http://127.0.0.1:5173/',
    'http://localhost:5174/',
    'ws://localhost:5173/',
    'file:///home/u/Downloads/page.html#http://localhost:5173',
    'http://evil.example/?http://localhost:5173',
  ])('refuses %s', (u) => {
    expect(isOwnUrlFor(u, dev)).toBe(false);
  });

  it('refuses everything when the dev URL cannot be parsed', () => {
    expect(isOwnUrlFor('http://localhost:5173/', { url: 'not a url' })).toBe(false);
  });
});

describe('safeExternalUrl (the links shell.openExternal gets)', () => {
  it.each(['https://www.assemblyai.com/docs', 'https://example.com/a?b=c#d'])('passes %s', (u) => {
    expect(safeExternalUrl(u)).toBe(new URL(u).href);
  });

  it.each([
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://evil/share',
    'ms-msdt:/id PCWDiagnostic',
    'https://user:pw@example.com/',
    'https://user@example.com/',
    'HTTPS:',
    'not a url',
    '',
  ])('refuses %s', (u) => {
    expect(safeExternalUrl(u)).toBeNull();
  });
});
