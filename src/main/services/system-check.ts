/**
 * Which system packages the local engine needs and which are missing here, so
 * the app can open anyway and tell the user exactly what to install.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface EngineRequirement {
  /** Debian/Ubuntu package name. */
  pkg: string;
  present: boolean;
}

const LIB_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib', '/usr/local/lib', '/opt/homebrew/lib'];

export function onPath(binary: string): boolean {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  return dirs.some((d) => exts.some((e) => existsSync(join(d, binary + e))));
}

export function checkEngineRequirements(): EngineRequirement[] {
  const hasLib = LIB_DIRS.some((d) => existsSync(join(d, 'libpocketsphinx.so.3')) || existsSync(join(d, 'libpocketsphinx.dylib')));
  const hasModel = existsSync('/usr/share/pocketsphinx/model/en-us/en-us') || existsSync('/usr/local/share/pocketsphinx/model/en-us/en-us');
  return [
    { pkg: 'ffmpeg', present: onPath('ffmpeg') },
    { pkg: 'pocketsphinx', present: hasLib },
    { pkg: 'pocketsphinx-en-us', present: hasModel },
  ];
}

export function missingEnginePackages(): string[] {
  return checkEngineRequirements()
    .filter((r) => !r.present)
    .map((r) => r.pkg);
}
