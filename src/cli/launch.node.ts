// Starting the `webswe` command, shared by bin/webswe.js (TypeScript through tsx) and the portable
// bundle's entry (scripts/bundle-entry.ts): set up the Vulkan driver environment Dawn needs, re-running
// the same script once when the dynamic loader must see a new LD_LIBRARY_PATH, then run the CLI.
import { spawnSync } from 'node:child_process';
import { vulkanEnvironment, vulkanEnvironmentApplied } from '../gpu/vulkan.node.ts';

/** `self`: the script this process runs (what a re-run starts again). */
export async function launch(self: string): Promise<void> {
  const setup = vulkanEnvironment();
  if (!vulkanEnvironmentApplied(setup) && !process.env.WEBSWE_REEXEC) {
    const env = { ...process.env, ...setup.env, WEBSWE_REEXEC: '1' };
    const r = spawnSync(process.execPath, [...process.execArgv, self, ...process.argv.slice(2)], { stdio: 'inherit', env });
    process.exit(r.status ?? (r.signal ? 1 : 0));
  }
  const { main } = await import('./main.ts');
  await main(process.argv);
}
