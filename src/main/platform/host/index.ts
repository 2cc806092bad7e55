/**
 * Host-mode versions of the platform adapters: a JSON settings file in the
 * data folder and an AES-256-GCM secret box whose key lives apart from the data
 * folder (mode 0600), standing in for Electron's safeStorage.
 */
import { fork } from 'node:child_process';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Settings } from '../../../shared/settings';
import type { EngineLauncher, EngineProcess, Platform, SecretBox, SettingsBackend } from '../types';

export class JsonSettingsBackend implements SettingsBackend {
  constructor(private readonly file: string) {}

  read(): unknown {
    if (!existsSync(this.file)) return {};
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
    } catch {
      // A damaged file must not stop the app: start from defaults, keep the old file aside.
      renameSync(this.file, `${this.file}.damaged-${Date.now()}`);
      return {};
    }
  }

  write(value: Settings): void {
    writeFileAtomic(this.file, `${JSON.stringify(value, null, 2)}\n`, 0o644);
  }
}

export function writeFileAtomic(file: string, data: string | Buffer, mode: number): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode });
  renameSync(tmp, file);
}

/** AES-256-GCM with a 32-byte key kept in its own 0600 file. */
export class FileSecretBox implements SecretBox {
  readonly available = true;
  private readonly key: Buffer;

  constructor(keyFile: string) {
    if (existsSync(keyFile)) {
      this.key = readFileSync(keyFile);
      if (this.key.length !== 32) throw new Error(`The key file ${keyFile} is damaged (expected 32 bytes).`);
    } else {
      this.key = randomBytes(32);
      mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
      writeFileAtomic(keyFile, this.key, 0o600);
    }
    chmodSync(keyFile, 0o600);
  }

  encrypt(plain: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from('VB1'), iv, cipher.getAuthTag(), body]);
  }

  decrypt(blob: Buffer): string {
    if (blob.subarray(0, 3).toString() !== 'VB1') throw new Error('Unknown secret format');
    const iv = blob.subarray(3, 15);
    const tag = blob.subarray(15, 31);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(blob.subarray(31)), decipher.final()]).toString('utf8');
  }
}

/** Where the host-mode master key lives: outside the data folder, in the user's config folder. */
export function defaultKeyFile(): string {
  const base = process.env.VERBATIM_KEY_DIR ?? join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'verbatim');
  return join(base, 'host-secret.key');
}

export function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share');
  return join(base, 'verbatim');
}

/** This module's folder; in the host bundle that is out/host, also when the module sits in one of its chunks (out/host/chunks). */
const here = ((dir) => (basename(dir) === 'chunks' ? dirname(dir) : dir))(dirname(fileURLToPath(import.meta.url)));

/**
 * Host mode runs the engine with child_process.fork: the bundled engine next
 * to us (out/host), else src/engine/index.ts through tsx (development), else
 * Electron's build (out/main/engine.js).
 * VERBATIM_ENGINE_ENTRY overrides the entry (tests). A guard module makes the
 * engine exit when main dies, so a killed app never leaves an orphan behind.
 */
export class ForkEngineLauncher implements EngineLauncher {
  constructor(private readonly entry: string = engineEntry()) {}

  launch(args: string[], env: Record<string, string>): EngineProcess {
    const ts = this.entry.endsWith('.ts');
    const child = fork(this.entry, args, {
      execArgv: [...(ts ? ['--import', 'tsx'] : []), '--import', join(here, 'engine-guard.mjs')],
      silent: true,
      env: { ...process.env, ASSEMBLYAI_API_KEY: '', ...env },
    });
    return {
      pid: child.pid,
      onLine(listener) {
        if (child.stdout) createInterface({ input: child.stdout }).on('line', (l) => listener(l, 'stdout'));
        if (child.stderr) createInterface({ input: child.stderr }).on('line', (l) => listener(l, 'stderr'));
      },
      onExit(listener) {
        child.once('exit', (code) => listener(code));
      },
      kill() {
        child.kill('SIGTERM');
      },
    };
  }
}

function engineEntry(): string {
  if (process.env.VERBATIM_ENGINE_ENTRY) return resolve(process.env.VERBATIM_ENGINE_ENTRY);
  // Bundled host mode (out/host, scripts/build-host.mjs): the engine is built beside us.
  const bundled = join(here, 'engine.mjs');
  if (existsSync(bundled)) return bundled;
  const root = resolve(here, '../../../..');
  const src = join(root, 'src', 'engine', 'index.ts');
  if (existsSync(src)) return src;
  return join(root, 'out', 'main', 'engine.js');
}

export function createHostPlatform(opts: { dataDir: string; version: string; keyFile?: string }): Platform {
  mkdirSync(opts.dataDir, { recursive: true });
  return {
    mode: 'host',
    dataDir: opts.dataDir,
    version: opts.version,
    versions: { node: process.versions.node, electron: null, chrome: null },
    settings: new JsonSettingsBackend(join(opts.dataDir, 'settings.json')),
    secrets: new FileSecretBox(opts.keyFile ?? defaultKeyFile()),
    engine: new ForkEngineLauncher(),
    // A browser saves exports as downloads; there is no native dialog to open.
    dialogs: null,
  };
}
