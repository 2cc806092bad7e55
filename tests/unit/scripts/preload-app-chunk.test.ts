/**
 * The renderer's index.html names the app chunk (src/mount.tsx) and what it imports, scripts and styles, so the
 * browser fetches them beside the entry. A stylesheet left out was added by main.tsx's import('./mount') only
 * once the entry had run, and the app waited for that request before it could mount (issue 52: cold start).
 */
import { describe, expect, it } from 'vitest';
import { preloadAppChunkPlugin } from '../../../vite.renderer.config';

type Handler = (html: string, ctx: { bundle?: Record<string, unknown> }) => string;

const chunk = (fileName: string, imports: string[], css: string[], facadeModuleId?: string) => ({
  type: 'chunk',
  fileName,
  imports,
  facadeModuleId,
  viteMetadata: { importedCss: new Set(css), importedAssets: new Set<string>() },
});

const HTML = `<html>
  <head>
    <script type="module" crossorigin src="./assets/index-1.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/index-1.css">
  </head>
</html>`;

describe('preloadAppChunkPlugin', () => {
  it("links the app chunk's scripts as module preloads and its styles as stylesheets, each once", () => {
    const bundle = {
      'assets/index-1.js': chunk('assets/index-1.js', ['assets/shared-1.js'], ['assets/index-1.css'], '/r/src/main.tsx'),
      'assets/mount-1.js': chunk('assets/mount-1.js', ['assets/Button-1.js', 'assets/shared-1.js'], ['assets/mount-1.css'], '/r/src/mount.tsx'),
      'assets/Button-1.js': chunk('assets/Button-1.js', [], ['assets/Button-1.css']),
      'assets/shared-1.js': chunk('assets/shared-1.js', [], []),
    };
    const { handler } = preloadAppChunkPlugin().transformIndexHtml as { handler: Handler };
    const html = handler(HTML, { bundle });
    const links = [...html.matchAll(/<link rel="(\w+)" crossorigin href="\.\/([^"]+)">/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(links.sort()).toEqual(
      [
        'modulepreload assets/Button-1.js',
        'modulepreload assets/mount-1.js',
        'modulepreload assets/shared-1.js',
        'stylesheet assets/Button-1.css',
        'stylesheet assets/index-1.css',
        'stylesheet assets/mount-1.css',
      ].sort(),
    );
  });
});
