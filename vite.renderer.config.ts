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

/** The renderer's build, shared by electron-vite (desktop) and host mode. */
export const rendererConfig: UserConfig = {
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  plugins: [react(), cspMetaPlugin()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
};

export default defineConfig(rendererConfig);
