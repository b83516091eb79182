// The token replay policy: the learner plays a contributor's episode again in its own sandbox, each turn
// the very ids the contributor says it sampled (with the log-probs it claims), so that every observation,
// the final grading and the reward are the learner's own. Decoding is the model policy's (the body
// without the stop token), so an honest episode renders to the same token arrays, id for id. A turn
// longer than the model policy could have sampled in that context is refused: the replay throws, and
// verification reports a replay mismatch.
import type { EpisodeView, Policy, TurnOutput } from '../agent/policy.ts';
import type { TokenizerLike } from '../agent/render.ts';
import type { Trajectory } from '../agent/trajectory.ts';
import { decodeSampled } from '../rl/model-policy.ts';

/** One claimed turn: the sampled ids (mask-1 tokens of its assistant segment) and their log-probs. */
export interface ClaimedTurn {
  ids: number[];
  logprobs: number[];
}

/** A claimed trajectory's assistant turns, in order (its token arrays are checked for shape first). */
export function claimedTurns(t: Trajectory): ClaimedTurn[] {
  const tok = t.tokens!;
  return tok.segments
    .filter((s) => s.kind === 'assistant')
    .sort((a, b) => a.turn - b.turn)
    .map((s) => {
      const ids: number[] = [], logprobs: number[] = [];
      for (let i = s.start; i < s.end; i++) if (tok.mask[i] === 1) ids.push(tok.ids[i]!), logprobs.push(tok.logprobs[i] ?? Number.NaN);
      return { ids, logprobs };
    });
}

export class TokenReplayPolicy implements Policy {
  readonly name: string;
  constructor(
    /** Claimed turns by the episode's index in its batch (EpisodeView.index). */
    private readonly byIndex: ReadonlyMap<number, readonly ClaimedTurn[]>,
    private readonly tokenizer: TokenizerLike,
    private readonly opts: { stopIds: readonly number[]; /** the model policy's cache capacity per episode */ capacity: number; version: number },
  ) {
    this.name = 'replay-tokens';
  }

  get version(): number {
    return this.opts.version;
  }

  async act(states: readonly EpisodeView[]): Promise<TurnOutput[]> {
    return states.map((s) => {
      const turns = this.byIndex.get(s.index ?? -1);
      if (!turns) throw new Error(`no claimed episode at index ${s.index}`);
      const turn = turns[s.turns.length];
      if (!turn) return { text: '', finish: 'exhausted' };
      // The model policy's budget for this turn (model-policy.ts): what it could have sampled.
      const budget = Math.max(1, Math.min(s.maxTokens, this.opts.capacity - (s.tokenIds?.length ?? 0) - 1));
      if (turn.ids.length > budget) throw new Error(`turn ${s.turns.length} has ${turn.ids.length} tokens, more than the ${budget} the policy could sample there`);
      const stop = this.opts.stopIds.includes(turn.ids.at(-1)!);
      if (turn.ids.slice(0, -1).some((id) => this.opts.stopIds.includes(id))) throw new Error(`turn ${s.turns.length} goes on after a stop token`);
      if (!stop && turn.ids.length < budget) throw new Error(`turn ${s.turns.length} ends without a stop token before its budget (${turn.ids.length} of ${budget} tokens)`);
      const body = stop ? turn.ids.slice(0, -1) : turn.ids;
      return { text: decodeSampled(this.tokenizer, body), tokenIds: [...turn.ids], logprobs: [...turn.logprobs], finish: stop ? 'stop' : 'length' };
    });
  }
}
