// Fails when a dependency has install scripts that package.json's allowScripts does not cover
// (`npm install-scripts ls`): npm 12 skips such scripts silently on install, so a new dependency's
// script has to be reviewed and recorded (npm install-scripts approve|deny NAME) before it lands.
// Part of `npm test` (scripts/test.mjs). Plain Node ESM with no dependencies.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const r = spawnSync(npm, ['install-scripts', 'ls', '--json'], { encoding: 'utf8' });
let pending;
try {
  pending = JSON.parse(r.stdout).allowScripts;
} catch {
  pending = undefined;
}
if (r.status !== 0 || !Array.isArray(pending)) {
  // npm before 11.19 has no install-scripts command: nothing to check against.
  const version = spawnSync(npm, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`install scripts: not checked (npm ${version} has no \`npm install-scripts ls\`; npm 11.19 or later does).`);
  process.exit(0);
}
// npm runs `node-gyp rebuild` for a package that ships binding.gyp and no install script of its own; `install-scripts ls`
// does not list that implied script (npm 11.19 warns about it only during the install), so it is looked for here.
const allow = JSON.parse(readFileSync('package.json', 'utf8')).allowScripts ?? {};
const implied = [];
const visit = (dir) => {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      visit(join(dir, name));
      continue;
    }
    const pkgDir = join(dir, name);
    try {
      const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
      const scripts = pkg.scripts ?? {};
      if (existsSync(join(pkgDir, 'binding.gyp')) && !scripts.install && !scripts.preinstall && !(pkg.name in allow))
        implied.push({ name: pkg.name, changes: [{ key: 'install (implied by binding.gyp: node-gyp rebuild)' }] });
    } catch {
      // Not a package folder.
    }
    visit(join(pkgDir, 'node_modules'));
  }
};
visit('node_modules');
pending = [...pending, ...implied.filter((i) => !pending.some((p) => p.name === i.name))];
if (pending.length === 0) {
  console.log('install scripts: every dependency with an install script is covered by allowScripts in package.json.');
  process.exit(0);
}
console.error('install scripts: these dependencies have install scripts that allowScripts in package.json does not cover:');
for (const p of pending) console.error(`  ${p.name} (${(p.changes ?? []).map((c) => c.key).join(', ')})`);
console.error(
  "Read each one's script in node_modules, then record the decision: `npm install-scripts approve NAME` (needed) or `npm install-scripts deny NAME` (not needed; prove the app works without it). npm 12 skips unreviewed scripts.",
);
process.exit(1);
