// The committed WASM module (src/ops/wasm/kernels.wasm.ts) is what kernels.c compiles to: the build
// script rebuilds it with Debian's clang and lld and compares (`.ci/run` installs them; a machine
// without clang skips, saying so).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../scripts/build-wasm.mjs', import.meta.url));
const hasClang = spawnSync('clang', ['--version']).status === 0 && spawnSync('wasm-ld', ['--version']).status === 0;

describe('the WASM kernels build', () => {
  it.skipIf(!hasClang)('reproduces the committed module from kernels/*.c (clang + wasm-ld; apt-get install clang lld)', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--check'], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/reproduced \(\d+ bytes, .*clang version/);
  }, 120_000);
});
