/** The fake service with the engine's CLI (--host --port --api-key --data), for EngineManager tests. */
import { parseArgs } from 'node:util';
import { startFakeService } from './fake-service';

const { values } = parseArgs({ options: { host: { type: 'string' }, port: { type: 'string' }, 'api-key': { type: 'string' }, data: { type: 'string' } } });
const svc = await startFakeService({ port: Number(values.port ?? 0), apiKey: values['api-key'] ?? '', dataDir: values.data ?? '.', processMs: Number(process.env.FAKE_PROCESS_MS ?? 300) });
process.stdout.write(`listening on ${svc.url}\n`);
process.on('SIGTERM', () => void svc.close().then(() => process.exit(0)));
