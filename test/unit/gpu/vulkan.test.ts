// Vulkan driver discovery decisions (no GPU needed: only reads the file system).
import { describe, expect, it } from 'vitest';
import { vulkanEnvironment, vulkanEnvironmentApplied } from '../../../src/gpu/vulkan.node.ts';

describe('vulkanEnvironment', () => {
  it('respects a user-chosen ICD and changes nothing', () => {
    const s = vulkanEnvironment({ VK_ICD_FILENAMES: '/opt/my_icd.json' });
    expect(s.env).toEqual({});
    expect(s.driver).toMatch(/user-chosen ICD \/opt\/my_icd.json/);
  });
  it('finds a driver on this machine or says how to get one', () => {
    const s = vulkanEnvironment({});
    if (s.problem) expect(s.problem).toMatch(/apt-get install -y chromium/);
    else expect(s.driver).not.toBe('none');
  });
  it('detects when its environment is already applied (no re-exec loop)', () => {
    const s = vulkanEnvironment({});
    expect(vulkanEnvironmentApplied(s, { ...s.env })).toBe(true);
    if (Object.keys(s.env).length) expect(vulkanEnvironmentApplied(s, {})).toBe(false);
    // A re-run process (our own marker set) reports the same driver, not "user-chosen".
    expect(vulkanEnvironment({ ...s.env }).driver).toBe(s.driver);
  });
});
