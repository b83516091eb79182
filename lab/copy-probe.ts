// Can scratch-160k learn to copy, and when? A synthetic probe through the project's own model, backend and SFT
// step (no agent, no sandbox): each sequence is L filler tokens with K distinct "operator" tokens (of 30)
// at random places, a query token, and the target: one of the K operators, uniform. The prior alone scores
// ln 30 = 3.40 nats; a model that copies the K candidates scores ln K (0 for K = 1). Prints the step's
// loss and, every 100 steps, the loss on 32 fresh sequences (measured at lr 0). --single N: N sequences of
// each batch are single-answer ones (K = 1), a drill mixed in; the fresh loss is still the K case's.
// --list first|last: the agent's guess and check instead (agent.viewHints, agent.triedHints): L fillers, a
// list marker, 2 to K distinct operators, the list's end and 4 fixed template tokens, then the target, the
// list's first operator (what a hint in file order asks) or its last (the token a fixed distance back).
//   npx tsx lab/copy-probe.ts [--k 1] [--lr 5e-3] [--steps 800] [--len 40] [--batch 8] [--single 0] [--list first|last] [--seed 3]
// docs/learning.md, finding 27: at micro's cloning rate (5e-3) K = 1 is learned within 600 steps, K = 2 only in
// part (2.75 nats after 800) and K = 5 not at all (3.37); at 1e-3, K = 2 reaches 1.40 and K = 5 2.72.
import { parseArgs } from 'node:util';
import { initParams } from '../src/model/init.ts';
import { uploadParams, zeroGrads } from '../src/model/params.ts';
import { scratch160k } from '../src/model/presets.ts';
import { Transformer } from '../src/model/transformer.ts';
import { wasmBackendNode } from '../src/ops/wasm/threads.node.ts';
import { Rng } from '../src/random.ts';
import { AdamW } from '../src/rl/optimizer.ts';
import { packEpisodes, type EpisodeTokens } from '../src/rl/pack.ts';
import { sftStep } from '../src/rl/steps.ts';

const { values: a } = parseArgs({ options: { k: { type: 'string', default: '1' }, lr: { type: 'string', default: '5e-3' }, steps: { type: 'string', default: '800' }, len: { type: 'string', default: '40' }, batch: { type: 'string', default: '8' }, single: { type: 'string', default: '0' }, list: { type: 'string' }, seed: { type: 'string', default: '3' } } });
const [K, lr, steps, L, B, single, seed] = [a.k, a.lr, a.steps, a.len, a.batch, a.single, a.seed].map(Number) as [number, number, number, number, number, number, number];
if (!(K >= 1 && K <= 30 && K <= L)) throw new Error(`--k ${a.k}: between 1 and 30 operators, at most --len`);
if (!(single >= 0 && single <= B)) throw new Error(`--single ${a.single}: between 0 and --batch (${B})`);
if (a.list !== undefined && !['first', 'last'].includes(a.list)) throw new Error(`--list ${a.list}: first or last`);
if (a.list !== undefined && K < 2) throw new Error('--list needs --k 2 or more (the longest list)');

const OPERATORS = 30, FIRST_OPERATOR = 10, FILLER = 400, FIRST_FILLER = 300, QUERY = 5, BOS = 1, LIST = 6, END = 7, TEMPLATE = [200, 201, 202, 203];
const be = await wasmBackendNode();
const params = uploadParams(be, scratch160k.config, initParams(scratch160k.config, 1));
const model = new Transformer(be, scratch160k.config, params);
const hp = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, maxGradNorm: 1 };
const opt = new AdamW(be, params, zeroGrads(be, params), hp);
const probe = new AdamW(be, params, zeroGrads(be, params), hp); // its own moments: measuring leaves training alone
const rng = new Rng(seed);

/** L fillers with k distinct operators placed at k distinct positions, the query, then one of them. */
function sequence(k = K): EpisodeTokens {
  if (a.list !== undefined) return listSequence();
  const ids = Array.from({ length: L }, () => FIRST_FILLER + rng.int(FILLER));
  const ops: number[] = [];
  while (ops.length < k) {
    const o = FIRST_OPERATOR + rng.int(OPERATORS);
    if (!ops.includes(o)) ops.push(o);
  }
  const at = new Set<number>();
  while (at.size < k) at.add(rng.int(L));
  [...at].forEach((p, i) => (ids[p] = ops[i]!));
  const all = [BOS, ...ids, QUERY, ops[rng.int(k)]!];
  return { ids: all, mask: all.map((_, i) => (i === all.length - 1 ? 1 : 0)) };
}

const T = a.list ? L + K + 8 : L + 3; // a row holds one sequence

/** L fillers, the list (2 to K operators in a random order), the template, then its first or last. */
function listSequence(): EpisodeTokens {
  const n = 2 + rng.int(K - 1);
  const ops: number[] = [];
  while (ops.length < n) {
    const o = FIRST_OPERATOR + rng.int(OPERATORS);
    if (!ops.includes(o)) ops.push(o);
  }
  const ids = Array.from({ length: L }, () => FIRST_FILLER + rng.int(FILLER));
  const all = [BOS, ...ids, LIST, ...ops, END, ...TEMPLATE, a.list === 'first' ? ops[0]! : ops[n - 1]!];
  return { ids: all, mask: all.map((_, i) => (i === all.length - 1 ? 1 : 0)) };
}

console.log(`K ${K}${a.list ? ` (lists of 2 to K, the ${a.list} asked)` : ''}${single ? ` (${single} of each batch single-answer)` : ''}, lr ${lr}, ${steps} steps of ${B}: prior ln ${OPERATORS} = ${Math.log(OPERATORS).toFixed(2)}, copying ${a.list ? '→ 0 (one answer)' : `ln K = ${Math.log(K).toFixed(2)}`}`);
for (let s = 0; s <= steps; s++) {
  const m = await sftStep(model, opt, packEpisodes(Array.from({ length: B }, (_, i) => sequence(i < single ? 1 : K)), T), lr);
  if (s % 100 === 0) {
    const held = await sftStep(model, probe, packEpisodes(Array.from({ length: 32 }, () => sequence()), T), 0);
    console.log(`step ${String(s).padStart(5)}  loss ${m.loss.toFixed(3)}  fresh ${held.loss.toFixed(3)}`);
  }
}
