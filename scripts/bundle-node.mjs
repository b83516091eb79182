#!/usr/bin/env node
// `npm run bundle:node [-- OUT]`: a folder (default dist/webswe-node/) that runs `webswe` on a bare x86-64
// Linux machine with no Node and no npm, such as a lent GPU machine: `./webswe gpu`, `./webswe bench …`,
// `./webswe train …`. It holds a launcher (sh) and payload.tar.gz: the Node binary this was built with,
// the CLI bundled into one file by esbuild (the TF.js peer inside it), Dawn's native module for
// linux-x64 (the `webgpu` package, kept as a package: its loader requires dawn.node by path), the WGSL
// kernels, the sandbox's test reporter, spawner and worker runner, and the bundled task sets. The launcher unpacks the payload
// beside itself on first run. Files sit where the CLI's own relative paths expect them
// (src/cli/webswe.mjs → ../../kernels/, ../../public/tasks/).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, statSync, writeFileSync, chmodSync, copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = resolve(process.argv[2] ?? join(ROOT, 'dist', 'webswe-node'));
const STAGE = join(OUT, 'payload');
if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`the bundle carries this machine's Node binary and Dawn's linux-x64 module: build it on x86-64 Linux (this is ${process.platform}-${process.arch})`);
rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(STAGE, 'src', 'cli'), { recursive: true });
mkdirSync(join(STAGE, 'src', 'sandbox'), { recursive: true });

// The CLI in one ES module. vite and playwright-core serve only `webswe serve` and `bench sandbox`'s
// browser half, which a GPU machine does not run: left out (those commands say what is missing).
await build({
  entryPoints: [join(ROOT, 'scripts', 'bundle-entry.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: join(STAGE, 'src', 'cli', 'webswe.mjs'),
  // esbuild builds the worker sandbox's runner under tsx; here it is prebuilt (worker-runner.js, below).
  external: ['webgpu', 'vite', 'playwright-core', 'esbuild'],
  loader: { '.wgsl': 'text' },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
// What the CLI reads by path at run time.
cpSync(join(ROOT, 'kernels'), join(STAGE, 'kernels'), { recursive: true });
// The node sandbox's reporter (also its preload) and the hardening it imports.
for (const f of ['node-reporter.mjs', 'harden.mjs']) for (const dir of ['cli', 'sandbox']) copyFileSync(join(ROOT, 'src', 'sandbox', f), join(STAGE, 'src', dir, f));
// The sandboxes' spawner process and the worker sandbox's runner (one ES module; worker-node.node.ts reads it
// in place of building it), beside the CLI file whose import.meta.url they resolve against.
for (const dir of ['cli', 'sandbox']) copyFileSync(join(ROOT, 'src', 'sandbox', 'spawner-host.mjs'), join(STAGE, 'src', dir, 'spawner-host.mjs'));
const runner = await build({ entryPoints: [join(ROOT, 'src', 'sandbox', 'worker', 'runner-process.node.ts')], bundle: true, format: 'esm', platform: 'node', target: 'node20', minify: true, write: false, logLevel: 'warning' });
for (const dir of ['cli', 'sandbox']) writeFileSync(join(STAGE, 'src', dir, 'worker-runner.js'), runner.outputFiles[0].text);
// The same runner as the entry of node's startup snapshot (CommonJS), which worker-node.node.ts builds its
// snapshot from at run time.
const snapshotEntry = await build({ entryPoints: [join(ROOT, 'src', 'sandbox', 'worker', 'runner-snapshot.node.ts')], bundle: true, format: 'cjs', platform: 'node', target: 'node20', minify: true, write: false, logLevel: 'warning' });
for (const dir of ['cli', 'sandbox']) writeFileSync(join(STAGE, 'src', dir, 'worker-runner-snapshot.cjs'), snapshotEntry.outputFiles[0].text);
cpSync(join(ROOT, 'public', 'tasks'), join(STAGE, 'public', 'tasks'), { recursive: true });
// Dawn: the package's loader and its linux-x64 module only.
const W = join(ROOT, 'node_modules', 'webgpu');
mkdirSync(join(STAGE, 'node_modules', 'webgpu', 'dist', 'linux-x64'), { recursive: true });
for (const f of ['package.json', 'index.js', 'LICENSE.md']) copyFileSync(join(W, f), join(STAGE, 'node_modules', 'webgpu', f));
copyFileSync(join(W, 'dist', 'linux-x64', 'dawn.node'), join(STAGE, 'node_modules', 'webgpu', 'dist', 'linux-x64', 'dawn.node'));
copyFileSync(process.execPath, join(STAGE, 'node'));
writeFileSync(join(STAGE, 'package.json'), JSON.stringify({ name: 'webswe-node-bundle', private: true, type: 'module' }) + '\n');
writeFileSync(join(STAGE, 'VERSION'), `${execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']).toString().trim()} node ${process.version}\n`);
execFileSync('tar', ['-czf', join(OUT, 'payload.tar.gz'), '-C', STAGE, '.']);
rmSync(STAGE, { recursive: true, force: true });

// The launcher: unpack once (to a temporary name, then renamed: a second launcher never sees half a
// payload), then run the CLI with the unpacked Node.
writeFileSync(join(OUT, 'webswe'), `#!/bin/sh
# webswe without Node or npm: unpacks payload.tar.gz beside this script on first run, then runs the CLI.
set -e
here=$(cd "$(dirname "$0")" && pwd)
app="$here/.unpacked"
if [ ! -x "$app/node" ]; then
  tmp="$here/.unpacking.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  tar -xzf "$here/payload.tar.gz" -C "$tmp"
  rm -rf "$app" && mv "$tmp" "$app"
fi
exec "$app/node" "$app/src/cli/webswe.mjs" "$@"
`);
chmodSync(join(OUT, 'webswe'), 0o755);
for (const f of ['gpu-report.sh', 'torch-peer.py']) {
  cpSync(join(ROOT, 'scripts', f), join(OUT, f));
  chmodSync(join(OUT, f), 0o755);
}
const mib = (p) => (statSync(p).size / 2 ** 20).toFixed(1);
process.stdout.write(`${OUT}: payload.tar.gz ${mib(join(OUT, 'payload.tar.gz'))} MiB, launcher webswe, gpu-report.sh, torch-peer.py\n`);
