// Types of scripts/system-deps.mjs (plain Node ESM, so it runs before anything is built) for the TypeScript that imports it.
export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The spawn error's code, e.g. 'ENOENT' when the command does not exist. */
  error: string | null;
}
export interface System {
  platform: string;
  uid: number | null;
  env: Record<string, string | undefined>;
  run(cmd: string, args: string[], opts?: { inherit?: boolean; env?: Record<string, string> }): RunResult;
  print(line: string): void;
}
export interface PackageList {
  groups: Record<string, string[]>;
  packages: Record<string, { why: string; brew: string | null; winget: string | null; command?: string }>;
}
export interface CheckResult {
  ok: boolean;
  missing: string[];
  installed: string[];
}
export function loadList(file?: string): PackageList;
export function packagesOf(list: PackageList, group: string): string[];
export function realSystem(): System;
export function dpkgMissing(sys: System, names: string[]): string[] | null;
export function aptCommandLine(missing: string[]): string;
export function brewCommandLine(list: PackageList, names: string[]): string | null;
export function wingetCommandLine(list: PackageList, names: string[]): string | null;
export function installRoute(sys: System): 'root' | 'sudo' | 'sudo-password' | 'no-sudo' | 'disabled';
export function ensureSystemPackages(group: string, opts?: { strict?: boolean }, sys?: System, list?: PackageList): CheckResult;
