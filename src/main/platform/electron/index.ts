/**
 * Electron adapters: electron-store for settings, safeStorage for secrets,
 * Electron's own paths. Thin by design: it cannot run in CI, so it only maps
 * Electron APIs onto the interfaces in ../types.ts that host mode also serves.
 */
import { app, safeStorage } from 'electron';
import Store from 'electron-store';
import type { Settings } from '../../../shared/settings';
import type { Platform, SecretBox, SettingsBackend } from '../types';

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

export function createElectronPlatform(dataDir: string): Platform {
  return {
    mode: 'electron',
    dataDir,
    version: app.getVersion(),
    versions: { node: process.versions.node, electron: process.versions.electron ?? null, chrome: process.versions.chrome ?? null },
    settings: new ElectronStoreSettings(),
    secrets: new SafeStorageBox(),
  };
}
