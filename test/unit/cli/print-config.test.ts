// `webswe train --print-config`: the resolved config by section, each section a screen (at most 40 lines of at
// most 100 columns), every field with its resolved value; help strings name no experiment.
import { describe, expect, it } from 'vitest';
import { configText } from '../../../src/cli/train.ts';
import { CONFIG_SECTIONS, FIELDS, resolveConfig, sectionOf } from '../../../src/rl/config.ts';
import { RUN_PRESETS } from '../../../src/rl/presets.ts';
import { webswe } from '../../helpers/cli.ts';

describe('--print-config', () => {
  it('prints every field by section, a screen each, with the value --set gave', async () => {
    const r = await webswe('train', '--preset', 'micro', '--print-config', '--set', 'dapo.lr=0.00123');
    expect(r.status, r.stderr).toBe(0);
    const text = r.stdout.trimEnd();
    expect(text).toBe(configText(resolveConfig(RUN_PRESETS.micro!.overrides, { 'dapo.lr': 0.00123 })));
    const sections = text.split('\n\n').map((s) => s.split('\n'));
    expect(sections.map((s) => s[0]!.replace(/ \(\w+\.\*\)$/, ''))).toEqual([...new Map(FIELDS.map((f) => [sectionOf(f.path), CONFIG_SECTIONS[sectionOf(f.path)]!])).values()]);
    for (const s of sections) {
      expect(s.length, s[0]).toBeLessThanOrEqual(40);
      for (const line of s) expect(line.length, line).toBeLessThanOrEqual(100);
    }
    expect(text).toMatch(/^ {2}lr +0\.00123 +DAPO learning rate/m);
    // Every field, by its name after the section prefix, in its own section.
    for (const f of FIELDS) {
      const s = sections.find((x) => x[0]!.startsWith(CONFIG_SECTIONS[sectionOf(f.path)]!) && (f.path === 'seed' || x[0]!.endsWith(`(${sectionOf(f.path)}.*)`)))!;
      expect(s.some((l) => l.startsWith(`  ${f.path.slice(f.path.indexOf('.') + 1)} `)), f.path).toBe(true);
    }
  }, 60_000);

  it('help strings are one or two sentences that cite no experiment', () => {
    for (const f of FIELDS) {
      expect(f.doc, f.path).not.toMatch(/\bE\d{2,3}\b|finding \d|learning\.md|\bsrc\/\w+\//);
      expect(f.doc.length, f.path).toBeLessThanOrEqual(200);
    }
  });
});
