// Trajectories for other tools: ATIF (the Agent Trajectory Interchange Format, v1.4: steps with
// tool calls, observations, and per-step completion token ids and log-probs) and SFT JSONL (chat
// messages; format-error turns carry weight 0). fromAtif reads our ATIF back into a Trajectory.
import type { TokenArrays } from './render.ts';
import { hasObservation, trajectoryMessages, type Trajectory, type TurnRecord } from './trajectory.ts';

export const ATIF_VERSION = 'ATIF-v1.4';

interface AtifStep {
  step_id: number;
  source: 'system' | 'user' | 'agent';
  message: string;
  tool_calls?: { tool_call_id: string; function_name: string; arguments: Record<string, unknown> }[];
  observation?: { results: { source_call_id: string | null; content: string }[] };
  metrics?: { prompt_tokens?: number; completion_tokens?: number; completion_token_ids?: number[]; logprobs?: number[] };
  extra?: Record<string, unknown>;
}

export interface AtifTrajectory {
  schema_version: string;
  session_id: string;
  agent: { name: string; version: string; model_name?: string; extra?: Record<string, unknown> };
  steps: AtifStep[];
  final_metrics?: { total_prompt_tokens?: number; total_completion_tokens?: number; total_steps?: number };
  extra?: Record<string, unknown>;
}

const slice = <T>(xs: readonly T[], s: { start: number; end: number } | undefined): T[] | undefined => (s ? xs.slice(s.start, s.end) : undefined);

/** One ATIF document per episode; token ids and log-probs ride on the steps they belong to. */
export function toAtif(t: Trajectory): AtifTrajectory {
  const tok = t.tokens;
  const seg = (kind: string, turn: number) => tok?.segments.find((s) => s.kind === kind && s.turn === turn);
  const { turns, tokens, system, prompt, ...rest } = t;
  const steps: AtifStep[] = [
    { step_id: 1, source: 'system', message: system },
    { step_id: 2, source: 'user', message: prompt, ...(tok ? { extra: { token_ids: slice(tok.ids, seg('prompt', -1)) } } : {}) },
  ];
  for (const turn of turns) {
    const { text, command, observation, ...turnRest } = turn;
    const callId = `turn-${turn.index + 1}`;
    const step: AtifStep = { step_id: steps.length + 1, source: 'agent', message: text, extra: turnRest };
    if (command) {
      const { name, ...args } = command;
      step.tool_calls = [{ tool_call_id: callId, function_name: name, arguments: args }];
    }
    if (hasObservation(turn)) step.observation = { results: [{ source_call_id: command ? callId : null, content: observation }] };
    const a = seg('assistant', turn.index);
    if (tok && a) {
      const lp = slice(tok.logprobs, a)!;
      step.metrics = { prompt_tokens: a.start, completion_tokens: a.end - a.start, completion_token_ids: slice(tok.ids, a)! };
      if (lp.every((x) => x !== null)) step.metrics.logprobs = lp as number[];
      else step.extra!.logprobs = lp;
      step.extra!.completion_mask = slice(tok.mask, a);
      const o = seg('observation', turn.index);
      if (o) step.extra!.observation_token_ids = slice(tok.ids, o);
    }
    steps.push(step);
  }
  return {
    schema_version: ATIF_VERSION,
    session_id: `${t.task_id}#${t.seed}`,
    agent: { name: 'webswe', version: '0.1.0', model_name: t.policy, extra: { policy_version: t.policy_version } },
    steps,
    final_metrics: { total_prompt_tokens: t.context_used - t.action_tokens, total_completion_tokens: t.action_tokens, total_steps: steps.length },
    extra: { webswe: { ...rest, tokenized: tok !== undefined } },
  };
}

/** Read back an ATIF document written by toAtif (throws on anything else). */
export function fromAtif(doc: AtifTrajectory): Trajectory {
  const w = doc.extra?.webswe as (Omit<Trajectory, 'turns' | 'tokens' | 'system' | 'prompt'> & { tokenized: boolean }) | undefined;
  if (doc.schema_version !== ATIF_VERSION || !w || w.format !== 'webswe-trajectory') throw new Error(`not a webswe ATIF trajectory (schema ${doc.schema_version})`);
  const [sys, user, ...agent] = doc.steps;
  const { tokenized, ...base } = w;
  const tok: TokenArrays | undefined = tokenized ? { ids: [], mask: [], logprobs: [], segments: [] } : undefined;
  const add = (kind: 'prompt' | 'assistant' | 'observation', turn: number, ids: number[], mask: (0 | 1)[], lp: (number | null)[]) => {
    tok!.segments.push({ kind, turn, start: tok!.ids.length, end: tok!.ids.length + ids.length });
    tok!.ids.push(...ids);
    tok!.mask.push(...mask);
    tok!.logprobs.push(...lp);
  };
  const prompt = (user!.extra?.token_ids as number[] | undefined) ?? [];
  if (tok) add('prompt', -1, prompt, prompt.map(() => 0), prompt.map(() => null));
  const turns: TurnRecord[] = agent.map((s) => {
    const { logprobs, completion_mask, observation_token_ids, ...extra } = s.extra as Record<string, unknown>;
    const rest = extra as Omit<TurnRecord, 'text' | 'command' | 'observation'>;
    const call = s.tool_calls?.[0];
    const turn: TurnRecord = {
      index: rest.index,
      text: s.message,
      command: call ? ({ name: call.function_name, ...call.arguments } as TurnRecord['command']) : null,
      format_error: rest.format_error,
      observation: s.observation?.results[0]?.content ?? '',
      status: rest.status,
      exit_code: rest.exit_code,
      observation_cut: rest.observation_cut,
      finish: rest.finish,
      timing: rest.timing,
      ...(rest.file !== undefined ? { file: rest.file } : {}),
      ...(rest.no_train ? { no_train: true as const } : {}),
    };
    const ids = s.metrics?.completion_token_ids;
    if (tok && ids) {
      add('assistant', turn.index, ids, completion_mask as (0 | 1)[], (s.metrics!.logprobs ?? (logprobs as (number | null)[])) as (number | null)[]);
      const obs = observation_token_ids as number[] | undefined;
      if (obs) add('observation', turn.index, obs, obs.map(() => 0), obs.map(() => null));
    }
    return turn;
  });
  const t: Trajectory = { ...base, system: sys!.message, prompt: user!.message, turns } as Trajectory;
  if (tok) t.tokens = tok;
  return t;
}

export interface SftRecord {
  messages: { role: 'system' | 'user' | 'assistant'; content: string; weight?: 0 | 1 }[];
  metadata: { task_id: string; seed: number; policy: string; policy_version: number; reward: number; end_reason: string };
}

/** One JSONL line of chat messages for supervised fine-tuning (the OpenAI/TRL "messages" shape);
 *  assistant turns with a format error (RFT masks them) or marked no_train get weight 0, the others 1. */
export function toSftLine(t: Trajectory): string {
  const msgs = trajectoryMessages(t);
  let turn = 0;
  const messages: SftRecord['messages'] = msgs.map((m) => {
    if (m.role !== 'assistant') return m;
    const x = t.turns[turn++]!;
    return { ...m, weight: x.format_error === null && !x.no_train ? 1 : 0 };
  });
  const metadata = { task_id: t.task_id, seed: t.seed, policy: t.policy, policy_version: t.policy_version, reward: t.reward.total, end_reason: t.end_reason };
  return JSON.stringify({ messages, metadata } satisfies SftRecord);
}

export function fromSftLine(line: string): SftRecord {
  const rec = JSON.parse(line) as SftRecord;
  if (!Array.isArray(rec.messages)) throw new Error('an SFT line needs a "messages" array');
  return rec;
}
