/**
 * Electron adapters: electron-store for settings, safeStorage for secrets,
 * Electron's own paths. Thin by design: it cannot run in CI, so it only maps
 * Electron APIs onto the interfaces in ../types.ts that host mode also serves.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, safeStorage, shell, utilityProcess } from 'electron';
import Store from 'electron-store';
import type { Settings } from '../../../shared/settings';
import type { EngineLauncher, EngineProcess, FileDialogs, Platform, SecretBox, SettingsBackend } from '../types';

class ElectronStoreSettings implements SettingsBackend {
  private readonly store = new Store<Record<string, unknown>>({ name: 'settings' });
  read(): unknown {
    return this.store.store;
  }
  write(value: Settings): void {
    this.store.store = value;
  }
}

class SafeStorageBox implements SecretBox {
  get available(): boolean {
    return safeStorage.isEncryptionAvailable();
  }
  encrypt(plain: string): Buffer {
    return safeStorage.encryptString(plain);
  }
  decrypt(cipher: Buffer): string {
    return safeStorage.decryptString(cipher);
  }
}

/** The engine is built next to main (out/main/engine.js) and forked as a utility process. */
class UtilityEngineLauncher implements EngineLauncher {
  launch(args: string[], env: Record<string, string>): EngineProcess {
    const child = utilityProcess.fork(join(import.meta.dirname, 'engine.js'), args, {
      stdio: 'pipe',
      serviceName: 'Verbatim engine',
      env: { ...process.env, ASSEMBLYAI_API_KEY: '', ...env },
    });
    const lines = (stream: NodeJS.ReadableStream | null, name: 'stdout' | 'stderr', listener: (l: string, s: 'stdout' | 'stderr') => void) => {
      let buf = '';
      stream?.on('data', (chunk: Buffer) => {
        buf += chunk.toString('utf8');
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          listener(buf.slice(0, i), name);
          buf = buf.slice(i + 1);
        }
      });
    };
    return {
      get pid() {
        return child.pid;
      },
      onLine(listener) {
        lines(child.stdout, 'stdout', listener);
        lines(child.stderr, 'stderr', listener);
      },
      onExit(listener) {
        child.once('exit', (code) => listener(code));
      },
      kill() {
        child.kill();
      },
    };
  }
}

/** Dialogs are sheets of the focused window (modal to it), else free-standing. */
class ElectronDialogs implements FileDialogs {
  async saveFile(opts: { title: string; defaultName: string; filters: { name: string; extensions: string[] }[] }): Promise<string | null> {
    const o = {
      title: opts.title,
      defaultPath: join(app.getPath('documents'), opts.defaultName),
      filters: opts.filters,
      properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const],
    };
    const win = BrowserWindow.getFocusedWindow();
    const r = win ? await dialog.showSaveDialog(win, o) : await dialog.showSaveDialog(o);
    return r.canceled || !r.filePath ? null : r.filePath;
  }
  async pickFolder(opts: { title: string; buttonLabel: string }): Promise<string | null> {
    const o = {
      title: opts.title,
      buttonLabel: opts.buttonLabel,
      defaultPath: app.getPath('documents'),
      properties: ['openDirectory' as const, 'createDirectory' as const],
    };
    const win = BrowserWindow.getFocusedWindow();
    const r = win ? await dialog.showOpenDialog(win, o) : await dialog.showOpenDialog(o);
    return r.canceled ? null : (r.filePaths[0] ?? null);
  }
  reveal(path: string): void {
    shell.showItemInFolder(path);
  }
}

export function createElectronPlatform(dataDir: string): Platform {
  return {
    mode: 'electron',
    dataDir,
    version: app.getVersion(),
    versions: { node: process.versions.node, electron: process.versions.electron ?? null, chrome: process.versions.chrome ?? null },
    settings: new ElectronStoreSettings(),
    secrets: new SafeStorageBox(),
    engine: new UtilityEngineLauncher(),
    dialogs: new ElectronDialogs(),
  };
}
