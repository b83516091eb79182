#!/usr/bin/env node
// The `webswe` command. Sets up the Vulkan driver environment Dawn needs (re-running itself once
// when the dynamic loader must see a new LD_LIBRARY_PATH), then runs the TypeScript CLI via tsx.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const { vulkanEnvironment, vulkanEnvironmentApplied } = await import('../src/gpu/vulkan.node.ts');
const setup = vulkanEnvironment();
if (!vulkanEnvironmentApplied(setup) && !process.env.WEBSWE_REEXEC) {
  const env = { ...process.env, ...setup.env, WEBSWE_REEXEC: '1' };
  const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env,
  });
  process.exit(r.status ?? (r.signal ? 1 : 0));
}
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
