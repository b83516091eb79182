// Vulkan driver discovery for Dawn under Node (Linux): the real GPU's ICD where one is
// installed, else the SwiftShader ICD that Debian's chromium package ships. Dawn dlopen()s
// `libvulkan.so.1`, and the dynamic loader reads LD_LIBRARY_PATH only at process start, so the
// launcher (bin/webswe.js) and the test config apply `vulkanEnvironment()` before Dawn loads.
import { existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface VulkanSetup {
  /** Environment variables to set before Dawn loads (empty when the system already works). */
  env: Record<string, string>;
  /** Human description of the driver that will be used. */
  driver: string;
  /** Set when no usable driver was found: what is missing and how to fix it. */
  problem?: string;
}

// The last: where the NVIDIA container toolkit mounts the driver's ICD (the lent GPU machines).
const ICD_DIRS = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d', '/usr/local/share/vulkan/icd.d', '/usr/local/nvidia/share/vulkan/icd.d'];
const CHROMIUM_DIRS = ['/usr/lib/chromium', '/usr/lib/chromium-browser', '/usr/lib64/chromium'];
// Software drivers Dawn rejects or that are slower than SwiftShader; never preferred.
const SOFTWARE_ICDS = /lvp|lavapipe|swiftshader/i;

function systemLoader(): boolean {
  try {
    return execFileSync('/sbin/ldconfig', ['-p'], { encoding: 'utf8' }).includes('libvulkan.so.1');
  } catch {
    return false;
  }
}

function hardwareIcds(): string[] {
  const found: string[] = [];
  for (const dir of ICD_DIRS) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) if (f.endsWith('.json') && !SOFTWARE_ICDS.test(f)) found.push(join(dir, f));
  }
  return found;
}

/** Decide which Vulkan loader and driver Dawn should use on this machine. */
export function vulkanEnvironment(env: NodeJS.ProcessEnv = process.env): VulkanSetup {
  if (process.platform !== 'linux') return { env: {}, driver: `${process.platform} native backend` };
  if ((env.VK_ICD_FILENAMES || env.VK_DRIVER_FILES) && !env.WEBSWE_VULKAN_DRIVER) {
    return { env: {}, driver: `user-chosen ICD ${env.VK_ICD_FILENAMES ?? env.VK_DRIVER_FILES}` };
  }
  const chromium = CHROMIUM_DIRS.find((d) => existsSync(join(d, 'vk_swiftshader_icd.json')));
  const hasLoader = systemLoader();
  const hw = hasLoader ? hardwareIcds() : [];
  if (hw.length > 0) return { env: {}, driver: `system Vulkan (${hw.map((p) => p.split('/').pop()).join(', ')})` };
  if (!chromium) {
    return {
      env: {},
      driver: 'none',
      problem:
        'no Vulkan driver found: install a GPU driver with Vulkan support, or Debian\'s `chromium` package ' +
        '(apt-get install -y chromium), whose SwiftShader ICD runs WebGPU on the CPU',
    };
  }
  const driver = `SwiftShader (CPU) from ${chromium}`;
  // WEBSWE_VULKAN_DRIVER marks the environment as ours, so a re-run process reports the same driver.
  const out: Record<string, string> = { VK_ICD_FILENAMES: join(chromium, 'vk_swiftshader_icd.json'), WEBSWE_VULKAN_DRIVER: driver };
  if (!hasLoader && existsSync(join(chromium, 'libvulkan.so.1'))) {
    const ld = env.LD_LIBRARY_PATH ?? '';
    if (!ld.split(':').includes(chromium)) out.LD_LIBRARY_PATH = ld ? `${chromium}:${ld}` : chromium;
  }
  return { env: out, driver };
}

/** True when `setup.env` is already in force in this process (no re-exec needed). */
export function vulkanEnvironmentApplied(setup: VulkanSetup, env: NodeJS.ProcessEnv = process.env): boolean {
  return Object.entries(setup.env).every(([k, v]) => env[k] === v);
}
