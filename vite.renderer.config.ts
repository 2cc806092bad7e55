import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig, type UserConfig } from 'vite';

/** The renderer's build, shared by electron-vite (desktop) and host mode. */
export const rendererConfig: UserConfig = {
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
};

export default defineConfig(rendererConfig);
