// FastCpuBackend: the CPU backend with its hot ops replaced — cache- and register-blocked matmul,
// flash-style attention (forward, backward, cached), single-pass logprobs, and sampling without the
// reference's vocabulary sort — the trainer's engine where no usable GPU exists (`--backend cpu`).
// Every other op, and the tensors, are CpuBackend's; CpuBackend stays the oracle
// (test/unit/ops/fast-cpu.test.ts compares each override against the references).
import { CpuBackend } from '../reference/backend.ts';
import { attention, attentionBackward } from './attention.ts';
import { attentionCached } from './attention_cached.ts';
import { logprobs, logprobsBackward } from './logprobs.ts';
import { matmul } from './matmul.ts';
import { sample } from './sample.ts';

export class FastCpuBackend extends CpuBackend {
  override matmul = matmul;
  override attention = attention;
  override attentionBackward = attentionBackward;
  override attentionCached = attentionCached;
  override logprobs = logprobs;
  override logprobsBackward = logprobsBackward;
  override sample = sample;
}
