// Three test tiers behind `npm test`: unit (Node, no GPU), gpu (Node + Dawn: a real GPU where one
// exists, else SwiftShader; skipped with the reason when there is no adapter), browser
// (Playwright driving Debian's chromium against the built app).
import { defineConfig } from 'vitest/config';
import { vulkanEnvironment } from './src/gpu/vulkan.node.ts';

// Dawn needs the Vulkan loader on LD_LIBRARY_PATH at process start: set it here, before the
// forked test workers are spawned, so they inherit it.
Object.assign(process.env, vulkanEnvironment().env);

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    pool: 'forks',
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 60_000 } },
      {
        // One process for all GPU files: SwiftShader compiles are slow; reuse the device's worker.
        test: { name: 'gpu', include: ['test/gpu/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 120_000, fileParallelism: false },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/serve.setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
