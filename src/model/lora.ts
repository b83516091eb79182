// LoRA adapters (Hu et al. 2021, PEFT's conventions): for an adapted projection W (out, in),
// y = x·Wᵀ + s·(x·Aᵀ)·Bᵀ with A (r, in) ~ U(±1/√in)·√(5)-ish (kaiming uniform as PEFT), B (out, r) = 0,
// s = alpha / r, dropout 0. Only A and B train; merging gives W' = W + s·B·A for export.

export const LORA_TARGETS = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const;
export type LoraTarget = (typeof LORA_TARGETS)[number];

export interface LoraConfig {
  rank: number;
  alpha: number;
  targets: readonly LoraTarget[];
}

/** The Hugging Face module of each target, under model.layers.{i}. */
export const TARGET_MODULE: Record<LoraTarget, string> = {
  q: 'self_attn.q_proj', k: 'self_attn.k_proj', v: 'self_attn.v_proj', o: 'self_attn.o_proj',
  gate: 'mlp.gate_proj', up: 'mlp.up_proj', down: 'mlp.down_proj',
};

/** A LoRA config as a JSON field (`{lora}`, or nothing without LoRA): what a shared run's manifest carries. */
export const loraField = (lora: LoraConfig | undefined): { lora?: { rank: number; alpha: number; targets: string[] } } =>
  lora ? { lora: { rank: lora.rank, alpha: lora.alpha, targets: [...lora.targets] } } : {};

export const loraScale = (l: LoraConfig) => l.alpha / l.rank;

export function parseLoraTargets(s: string): LoraTarget[] {
  const out = s.split(',').map((x) => x.trim()).filter(Boolean);
  for (const t of out) if (!(LORA_TARGETS as readonly string[]).includes(t)) throw new Error(`LoRA target "${t}" is not one of ${LORA_TARGETS.join(', ')}`);
  return out as LoraTarget[];
}

/** module (e.g. "model.layers.0.self_attn.q_proj") → its adapter names. */
export const adapterNames = (module: string) => ({ A: `${module}.lora_A.weight`, B: `${module}.lora_B.weight` });

/** Initial adapters for every targeted module: A kaiming-uniform (bound 1/√in), B zeros. */
export function initAdapters(modules: readonly { module: string; out: number; in: number }[], rank: number, seed: number): Map<string, Float32Array> {
  let s = seed >>> 0 || 1;
  const rnd = () => ((s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 4294967296);
  const out = new Map<string, Float32Array>();
  for (const m of modules) {
    const n = adapterNames(m.module);
    const bound = 1 / Math.sqrt(m.in);
    out.set(n.A, Float32Array.from({ length: rank * m.in }, () => (2 * rnd() - 1) * bound));
    out.set(n.B, new Float32Array(m.out * rank));
  }
  return out;
}

/** W' = W + s·B·A (row-major W (out, in), B (out, r), A (r, in)), in f64 per element. */
export function mergeAdapter(W: Float32Array, A: Float32Array, B: Float32Array, out: number, inDim: number, rank: number, scale: number): Float32Array {
  const merged = new Float32Array(W.length);
  for (let o = 0; o < out; o++) {
    for (let i = 0; i < inDim; i++) {
      let d = 0;
      for (let r = 0; r < rank; r++) d += B[o * rank + r]! * A[r * inDim + i]!;
      merged[o * inDim + i] = W[o * inDim + i]! + scale * d;
    }
  }
  return merged;
}

/** Every adapted module of a config with its (out, in) sizes, layer by layer. */
export function loraModules(c: import('./config.ts').ModelConfig, l: LoraConfig): { module: string; out: number; in: number }[] {
  const C = c.hiddenSize, F = c.intermediateSize, q = c.numHeads * c.headDim, kv = c.numKvHeads * c.headDim;
  const dims: Record<LoraTarget, [number, number]> = { q: [q, C], k: [kv, C], v: [kv, C], o: [C, q], gate: [F, C], up: [F, C], down: [C, F] };
  const out: { module: string; out: number; in: number }[] = [];
  for (let i = 0; i < c.numLayers; i++) for (const t of l.targets) out.push({ module: `model.layers.${i}.${TARGET_MODULE[t]}`, out: dims[t][0], in: dims[t][1] });
  return out;
}

/** Every adapter tensor's shape by name: A (r, in), B (out, r). */
export function adapterShapes(c: import('./config.ts').ModelConfig, l: LoraConfig): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const m of loraModules(c, l)) {
    const n = adapterNames(m.module);
    out.set(n.A, [l.rank, m.in]).set(n.B, [m.out, l.rank]);
  }
  return out;
}

/** Base weights with every adapter merged in (W' = W + s·B·A), for a plain checkpoint. */
export function mergeAdapters(c: import('./config.ts').ModelConfig, l: LoraConfig, values: ReadonlyMap<string, Float32Array>): Map<string, Float32Array> {
  const out = new Map([...values].filter(([k]) => !k.includes('.lora_')));
  for (const m of loraModules(c, l)) {
    const n = adapterNames(m.module), w = `${m.module}.weight`;
    out.set(w, mergeAdapter(values.get(w)!, values.get(n.A)!, values.get(n.B)!, m.out, m.in, l.rank, loraScale(l)));
  }
  return out;
}
