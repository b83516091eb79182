// Every kernel declaration, for the declaration test and pipeline warm-up.
import type { KernelDecl } from '../../gpu/kernel.ts';
import { MATMUL, MATMUL_ROWS } from './matmul.ts';
import { ADAMW } from './adamw.ts';
import { ARGMAX } from './argmax.ts';
import { DAPO_LOSS, DAPO_LOSS_REDUCE } from './dapo_loss.ts';
import { GRAD_NORM } from './grad_norm.ts';
import { LOGPROBS_BACKWARD, LOGPROBS_FORWARD } from './logprobs.ts';
import { SAMPLE, SAMPLE_FILTER } from './sample.ts';
import { COL_SUM } from './col_sum.ts';
import { ELEMENTWISE } from './elementwise.ts';
import { EMBEDDING_BACKWARD, EMBEDDING_SORT } from './embedding.ts';
import { GATHER_ROWS } from './gather_rows.ts';
import { RMSNORM_BACKWARD, RMSNORM_DW, RMSNORM_FORWARD } from './rmsnorm.ts';
import { ROPE } from './rope.ts';
import { SWIGLU_BACKWARD, SWIGLU_FORWARD } from './swiglu.ts';
import { ATTENTION_BACKWARD_DKDV, ATTENTION_BACKWARD_DQ, ATTENTION_BACKWARD_PREP, ATTENTION_FORWARD } from './attention.ts';
import { ATTENTION_CACHED, KV_WRITE } from './attention_cached.ts';
import { ATTENTION_NAIVE_BACKWARD, ATTENTION_NAIVE_FORWARD } from './attention_naive.ts';

export const KERNELS: readonly KernelDecl[] = [
  MATMUL, MATMUL_ROWS,
  // LayerOps
  GATHER_ROWS, EMBEDDING_SORT, EMBEDDING_BACKWARD, RMSNORM_FORWARD, RMSNORM_BACKWARD, RMSNORM_DW,
  ROPE, SWIGLU_FORWARD, SWIGLU_BACKWARD, ELEMENTWISE, COL_SUM,
  // LossOps, OptimOps, SamplingOps
  LOGPROBS_FORWARD, LOGPROBS_BACKWARD, DAPO_LOSS, DAPO_LOSS_REDUCE, GRAD_NORM, ADAMW, SAMPLE_FILTER, SAMPLE, ARGMAX,
  // AttentionOps (and the T×T baseline the benchmark compares with)
  ATTENTION_FORWARD, ATTENTION_BACKWARD_PREP, ATTENTION_BACKWARD_DKDV, ATTENTION_BACKWARD_DQ, KV_WRITE, ATTENTION_CACHED,
  ATTENTION_NAIVE_FORWARD, ATTENTION_NAIVE_BACKWARD,
];
