/**
 * What main's services need from the platform, behind interfaces so that
 * the same services run in Electron and in host mode (plain Node).
 */
import type { Settings } from '../../shared/settings';

export type AppMode = 'electron' | 'host';

export interface SettingsBackend {
  /** The stored object, unvalidated; the settings service validates. */
  read(): unknown;
  write(value: Settings): void;
}

/** Encrypts small secrets at rest (Electron safeStorage; a keyed file in host mode). */
export interface SecretBox {
  readonly available: boolean;
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
}

/** A running local engine process, whichever way it was started. */
export interface EngineProcess {
  readonly pid: number | undefined;
  /** Each line the engine prints on stdout / stderr. */
  onLine(listener: (line: string, stream: 'stdout' | 'stderr') => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

/** Starts the local engine (Electron: utilityProcess.fork; host mode: child_process.fork). */
export interface EngineLauncher {
  /** `env` is added to the child's environment; secrets go there, never in `args` (visible to `ps`). */
  launch(args: string[], env: Record<string, string>): EngineProcess;
}

/** A choice of file types in a save dialog ("Subtitles (.srt)"). */
export interface FileFilter {
  name: string;
  extensions: string[];
}

/**
 * The desktop's own file dialogs (Electron). Host mode has none: a browser
 * saves what the renderer downloads, into its downloads folder.
 */
export interface FileDialogs {
  /** Ask where to save one file; null when the user cancels. */
  saveFile(opts: { title: string; defaultName: string; filters: FileFilter[] }): Promise<string | null>;
  /** Ask for a folder to save several files into; null when the user cancels. */
  pickFolder(opts: { title: string; buttonLabel: string }): Promise<string | null>;
  /** Show a file in the system's file manager. */
  reveal(path: string): void;
}

export interface Platform {
  mode: AppMode;
  dataDir: string;
  version: string;
  versions: { node: string; electron: string | null; chrome: string | null };
  settings: SettingsBackend;
  secrets: SecretBox;
  engine: EngineLauncher;
  /** Native file dialogs, or null where the renderer downloads instead (host mode). */
  dialogs: FileDialogs | null;
}
