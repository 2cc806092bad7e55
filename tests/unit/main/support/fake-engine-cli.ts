/** The fake service with the engine's CLI (--host --port --api-key or VERBATIM_ENGINE_KEY, --data), for EngineManager tests. */
import { parseArgs } from 'node:util';
import { startFakeService } from './fake-service';

const { values } = parseArgs({
  options: { host: { type: 'string' }, port: { type: 'string' }, 'api-key': { type: 'string' }, data: { type: 'string' }, models: { type: 'string' } },
});
const svc = await startFakeService({
  port: Number(values.port ?? 0),
  apiKey: values['api-key'] ?? process.env.VERBATIM_ENGINE_KEY ?? '',
  dataDir: values.data ?? '.',
  processMs: Number(process.env.FAKE_PROCESS_MS ?? 300),
});
process.stdout.write(`listening on ${svc.url}\n`);
process.on('SIGTERM', () => void svc.close().then(() => process.exit(0)));
