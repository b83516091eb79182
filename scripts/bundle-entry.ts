// The portable bundle's entry (scripts/bundle-node.mjs bundles it with the CLI into one file): set up the
// Vulkan driver environment Dawn needs, re-running itself once when the dynamic loader must see a new
// LD_LIBRARY_PATH (as bin/webswe.js does), then run the CLI. No tsx: the bundle is plain JavaScript.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { vulkanEnvironment, vulkanEnvironmentApplied } from '../src/gpu/vulkan.node.ts';
import { main } from '../src/cli/main.ts';

const setup = vulkanEnvironment();
if (!vulkanEnvironmentApplied(setup) && !process.env.WEBSWE_REEXEC) {
  const env = { ...process.env, ...setup.env, WEBSWE_REEXEC: '1' };
  const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env });
  process.exit(r.status ?? (r.signal ? 1 : 0));
}
await main(process.argv);
