import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import { rendererConfig } from './vite.renderer.config';

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          // The local engine ships inside the app and is forked by main with utilityProcess.
          engine: resolve(import.meta.dirname, 'src/engine/index.ts'),
          // The engine forks it for native work that can crash (src/engine/native/child-host.ts).
          'native-child': resolve(import.meta.dirname, 'src/engine/recognizer/sherpa/native-child.ts'),
          // The gateway forks it to run local GGUF chat models (src/engine/gateway/llama-host.ts).
          'llama-child': resolve(import.meta.dirname, 'src/engine/gateway/llama-child.ts'),
          // The library's worker thread for heavy subtitle work (src/main/services/library/library-offload.ts).
          'library-worker': resolve(import.meta.dirname, 'src/main/services/library/library-worker.ts'),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin({ exclude: ['zod'] })],
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        // Sandboxed preloads must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig,
});
