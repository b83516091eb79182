// The replay policy (`--policy replay:FILE`): a JSON array of assistant turn texts, played in order
// and parsed exactly as model output is. For debugging, demos and hostile-input tests. When the file
// runs out before a submit, the episode ends with end_reason "policy_exhausted".
import type { EpisodeView, Policy, TurnOutput } from './policy.ts';

export class ReplayPolicy implements Policy {
  readonly version = 0;
  constructor(
    private readonly texts: readonly string[],
    readonly name = 'replay',
  ) {}

  /** From a replay file's text; the error names the file and what is wrong with it. */
  static fromJson(text: string, file = 'the replay file'): ReplayPolicy {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw new Error(`${file} is not valid JSON (${(e as Error).message}); expected an array of assistant turn texts`);
    }
    if (!Array.isArray(v)) throw new Error(`${file} must hold a JSON array of assistant turn texts, got ${v === null ? 'null' : typeof v}`);
    const bad = v.findIndex((x) => typeof x !== 'string');
    if (bad >= 0) throw new Error(`${file}: item ${bad} is not a string (each item is one assistant turn's text)`);
    return new ReplayPolicy(v as string[], `replay:${file}`);
  }

  async act(states: readonly EpisodeView[]): Promise<TurnOutput[]> {
    return states.map((s) => {
      const text = this.texts[s.turns.length];
      return text === undefined ? { text: '', finish: 'exhausted' } : { text, finish: 'stop' };
    });
  }
}
