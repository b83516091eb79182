// A LoRA run's weights on the wire (version-weights.ts): a manifest's LoRA settings are checked with an error that
// names the field; each version's adapters name the base they were published on, and a model is refused on another
// base; a version's adapters round-trip onto a base without touching it.
import { describe, expect, it } from 'vitest';
import { initParams } from '../../../src/model/init.ts';
import { adapterShapes, initAdapters, loraModules, parseLoraTargets } from '../../../src/model/lora.ts';
import { uploadParams } from '../../../src/model/params.ts';
import { FastCpuBackend } from '../../../src/ops/fast-cpu/backend.ts';
import { adapterBytes, adaptersBase, manifestLora, modelOfVersion, sha256Hex } from '../../../src/share/version-weights.ts';
import { smallQwen2 } from '../../helpers/model.ts';

const { config } = smallQwen2({ vocab: 64, layers: 1, hidden: 16 });
const lora = { rank: 2, alpha: 4, targets: parseLoraTargets('q,v') };

describe('manifestLora', () => {
  it('reads a LoRA setting and refuses a malformed one, naming it', () => {
    expect(manifestLora(undefined)).toBeUndefined();
    expect(manifestLora({ rank: 16, alpha: 32, targets: ['q', 'down'] })).toEqual({ rank: 16, alpha: 32, targets: ['q', 'down'] });
    expect(() => manifestLora(null)).toThrow(/model.lora null: an object \{rank, alpha, targets\} expected/);
    expect(() => manifestLora({ rank: 0, alpha: 1, targets: ['q'] })).toThrow(/LoRA rank 0: a positive integer expected/);
    expect(() => manifestLora({ rank: 2, alpha: -1, targets: ['q'] })).toThrow(/LoRA alpha -1/);
    expect(() => manifestLora({ rank: 2, alpha: 4, targets: [] })).toThrow(/not a non-empty list/);
    expect(() => manifestLora({ rank: 2, alpha: 4, targets: ['q', 'wq'] })).toThrow(/the run's manifest has LoRA targets \["q","wq"\]: .*wq/);
  });
});

describe('adapters on a base', () => {
  it('round-trip onto the base tensors, and are refused on a base other than the one they name', async () => {
    const be = new FastCpuBackend();
    const params = uploadParams(be, config, initParams(config, 1));
    const values = initAdapters(loraModules(config, lora), lora.rank, 2);
    for (const [n, v] of values) if (n.endsWith('lora_B.weight')) v.fill(0.25);
    const sha = await sha256Hex(new Uint8Array([1, 2, 3]));
    const bytes = adapterBytes(config, lora, values, sha);
    expect(await adaptersBase(bytes, 3)).toBe(sha);
    const m = await modelOfVersion(be, config, bytes, 3, { lora, params, sha256: sha });
    for (const [n, p] of params) expect(m.params.get(n)).toBe(p); // the base's own tensors
    for (const [n] of adapterShapes(config, lora)) expect([...(await be.read(m.params.get(n)!))]).toEqual([...values.get(n)!]);
    const other = await sha256Hex(new Uint8Array([9]));
    await expect(modelOfVersion(be, config, bytes, 3, { lora, params, sha256: other })).rejects.toThrow(/adapters v3 sit on base [0-9a-f]{12}…, not on the base read/);
    // The learner's own base (no hash): no check.
    await expect(modelOfVersion(be, config, bytes, 3, { lora, params })).resolves.toBeDefined();
    // Another LoRA's adapters: a clear error.
    await expect(modelOfVersion(be, config, bytes, 3, { lora: { ...lora, targets: parseLoraTargets('q') }, params })).rejects.toThrow(/unexpected tensor .*self_attn.v_proj.lora_A.weight/);
  });
});
