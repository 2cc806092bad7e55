import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { CSP_PLACEHOLDER, META_CONTENT_SECURITY_POLICY } from './src/shared/csp';

/** Writes the one CSP (src/shared/csp.ts) into index.html's meta tag, so the header and the meta never differ. */
export function cspMetaPlugin(): Plugin {
  return {
    name: 'verbatim-csp-meta',
    transformIndexHtml(html) {
      if (!html.includes(CSP_PLACEHOLDER)) throw new Error(`index.html has no ${CSP_PLACEHOLDER} placeholder for the Content-Security-Policy`);
      return html.replace(CSP_PLACEHOLDER, META_CONTENT_SECURITY_POLICY);
    },
  };
}

/**
 * Adds `<link rel="modulepreload">` for the app chunk (src/mount.tsx, imported dynamically by
 * main.tsx) and the chunks it imports, so the browser fetches and compiles it beside the entry
 * instead of only once the entry has run (issue 29: cold start). Their CSS goes in as stylesheets
 * too: otherwise main.tsx's import('./mount') adds that link only when it runs and waits for the
 * file before the app can mount (a request after the entry has run, on the way to the library: issue 52).
 */
export function preloadAppChunkPlugin(): Plugin {
  return {
    name: 'verbatim-preload-app-chunk',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const app = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/mount.tsx'));
        if (!app || app.type !== 'chunk') throw new Error('the renderer build has no chunk for src/mount.tsx to preload');
        const files = new Set<string>();
        const css = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          const chunk = bundle[file];
          if (chunk?.type !== 'chunk') return;
          chunk.viteMetadata?.importedCss.forEach((c) => css.add(c));
          chunk.imports.forEach(visit);
        };
        visit(app.fileName);
        const links = [
          ...[...files].filter((f) => !html.includes(`/${f}"`)).map((f) => `<link rel="modulepreload" crossorigin href="./${f}">`),
          ...[...css].filter((f) => !html.includes(`/${f}"`)).map((f) => `<link rel="stylesheet" crossorigin href="./${f}">`),
        ];
        return html.replace(/\n(\s*)<\/head>/, (_, indent: string) => `${links.map((l) => `\n${indent}  ${l}`).join('')}\n${indent}</head>`);
      },
    },
  };
}

/** The renderer's build, shared by electron-vite (desktop) and host mode. */
export const rendererConfig: UserConfig = {
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  plugins: [react(), cspMetaPlugin(), preloadAppChunkPlugin()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
};

export default defineConfig(rendererConfig);
