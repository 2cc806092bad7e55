/**
 * `verbatim`: the command line (package.json's bin runs scripts/verbatim.mjs, which starts the
 * bundle of this file, out/host/verbatim-main.mjs). Each command loads only what it uses, so
 * `--help` and the first progress line come quickly. Exit status: 0 done, 1 something failed,
 * 2 a wrong use.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError, usageError, type Values } from './errors';
import { HELP } from './help';

const COMMANDS = ['transcribe', 'search', 'export', 'models', 'mcp'] as const;
type Command = (typeof COMMANDS)[number];

const common = { data: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
const OPTIONS: Record<Command, NonNullable<ParseArgsConfig['options']>> = {
  transcribe: {
    ...common,
    model: { type: 'string' },
    language: { type: 'string' },
    speakers: { type: 'string' },
    format: { type: 'string', multiple: true },
    out: { type: 'string' },
  },
  search: { ...common, 'said-by': { type: 'string' }, json: { type: 'boolean' }, limit: { type: 'string' } },
  export: { ...common, format: { type: 'string' }, out: { type: 'string' }, all: { type: 'boolean' } },
  models: { ...common },
  mcp: { ...common, 'allow-write': { type: 'boolean' } },
};

async function run(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write(HELP['']!);
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    const { appVersion } = await import('./session');
    process.stdout.write(`${appVersion()}\n`);
    return 0;
  }
  if (!(COMMANDS as readonly string[]).includes(first))
    throw new CliError(`There is no command “${first}”. Commands: ${COMMANDS.join(', ')} (see: verbatim --help)`, 2);
  const command = first as Command;
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS[command], allowPositionals: true, strict: true }) as { values: Values; positionals: string[] };
  } catch (e) {
    throw usageError(e instanceof Error ? e.message.split('\n')[0]! : String(e), command);
  }
  if (parsed.values.help) {
    process.stdout.write(HELP[command]!);
    return 0;
  }
  switch (command) {
    case 'transcribe':
      return (await import('./transcribe')).transcribeCommand(parsed.values, parsed.positionals);
    case 'search':
      return (await import('./search')).searchCommand(parsed.values, parsed.positionals);
    case 'export':
      return (await import('./export')).exportCommand(parsed.values, parsed.positionals);
    case 'models':
      return (await import('./models')).modelsCommand(parsed.values, parsed.positionals);
    case 'mcp':
      return (await import('./mcp/server')).mcpCommand(parsed.values);
  }
}

/**
 * Ends the process once stdout and stderr are flushed: idle keep-alive sockets (fetch's pool to the
 * engine) would otherwise hold it open for seconds after the work is done.
 */
function exit(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

run(process.argv.slice(2)).then(exit, (err: unknown) => {
  if (err instanceof CliError) {
    process.stderr.write(`verbatim: ${err.message}\n`);
    exit(err.exitCode);
    return;
  }
  process.stderr.write(`verbatim: ${err instanceof Error ? err.message : String(err)}\n`);
  exit(1);
});
