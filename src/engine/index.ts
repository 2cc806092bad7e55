/**
 * `npm run engine -- --port 8787 --api-key KEY --data DIR [--host 127.0.0.1] [--workers N] [--allow-file-urls] [--max-upload-bytes N]`
 * The local AssemblyAI-compatible service, a program of its own.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startEngine } from './server';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8787' },
      'api-key': { type: 'string' },
      data: { type: 'string' },
      workers: { type: 'string' },
      'allow-file-urls': { type: 'boolean', default: false },
      'max-upload-bytes': { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
  });
  const apiKey = values['api-key'] ?? process.env.VERBATIM_ENGINE_KEY;
  if (!apiKey) {
    process.stderr.write('verbatim-engine: an API key is required: --api-key KEY or VERBATIM_ENGINE_KEY.\n');
    process.exit(2);
  }
  const port = Number(values.port);
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${values.port}`);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1)) throw new Error('--workers must be a positive integer');
  const maxUpload = values['max-upload-bytes'] === undefined ? undefined : Number(values['max-upload-bytes']);
  const dataDir = resolve(values.data ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'verbatim-engine'));
  const engine = await startEngine({ host: values.host, port, apiKey, dataDir, workers, allowFileUrls: values['allow-file-urls'], maxUploadBytes: maxUpload, quiet: values.quiet });
  process.stdout.write(`listening on ${engine.url}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write('[engine] draining: no new jobs; running jobs finish or stay queued for the next start\n');
    void engine.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`verbatim-engine could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
