// An episode as model tokens, in segments: the prompt (mask 0), each assistant turn with its
// end-of-turn token (mask 1; the policy's own sampled ids and behaviour log-probs, never re-tokenized),
// each observation wrapped in the chat format (mask 0). ChatFormat says how text is wrapped: the plain
// ChatML one for from-scratch presets, or one derived from a pretrained model's chat template.

/** What rendering needs from a tokenizer (src/model/tokenizer.ts's Tokenizer fits). */
export interface TokenizerLike {
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  tokenToId(token: string): number | undefined;
}

/** A tokenizer that can render its own chat template (Tokenizer.applyChatTemplate). */
export interface ChatTemplater {
  applyChatTemplate(messages: readonly { role: string; content: string }[], opts?: { addGenerationPrompt?: boolean }): string;
  readonly eosToken?: string;
}

export interface ChatFormat {
  readonly name: string;
  /** The special token that ends an assistant turn, e.g. "<|im_end|>". */
  readonly endOfTurn: string;
  /** System and first user message, through the generation prompt the first assistant turn follows. */
  prompt(system: string, user: string): string;
  /** What follows an assistant turn's end-of-turn token: the observation as a user message, through
   *  the next generation prompt. */
  observation(text: string): string;
}

/** ChatML, as written literally (no template engine): the from-scratch presets' format, and the
 *  same text src/model/tokenizer.ts's CHATML_TEMPLATE renders. */
export const PLAIN_CHATML: ChatFormat = Object.freeze({
  name: 'chatml',
  endOfTurn: '<|im_end|>',
  prompt: (system: string, user: string) => `<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n`,
  observation: (text: string) => `\n<|im_start|>user\n${text}<|im_end|>\n<|im_start|>assistant\n`,
});

/**
 * A ChatFormat from a model's own chat template, found by rendering probe conversations: the prompt is
 * the template's [system, user] with the generation prompt; an observation is what the template writes
 * after an earlier assistant turn's end-of-turn token up to the next generation prompt.
 */
export function templateChatFormat(tok: ChatTemplater, endOfTurn = tok.eosToken): ChatFormat {
  const A = '\u0001ASSISTANT\u0001';
  const O = '\u0001OBSERVATION\u0001';
  const text = tok.applyChatTemplate(
    [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'U' },
      { role: 'assistant', content: A },
      { role: 'user', content: O },
    ],
    { addGenerationPrompt: true },
  );
  const a = text.indexOf(A);
  if (a < 0 || text.indexOf(O) < 0) throw new Error('the chat template drops assistant or user messages; pass a ChatFormat explicitly');
  const after = text.slice(a + A.length);
  if (!endOfTurn || !after.startsWith(endOfTurn)) {
    throw new Error(`the chat template does not end an assistant turn with the eos token (${JSON.stringify(endOfTurn)}); it writes ${JSON.stringify(after.slice(0, 24))}… after one: pass the end-of-turn token explicitly`);
  }
  const [before, rest] = after.slice(endOfTurn.length).split(O) as [string, string];
  return {
    name: 'template',
    endOfTurn,
    prompt: (system, user) =>
      tok.applyChatTemplate(
        [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        { addGenerationPrompt: true },
      ),
    observation: (t) => `${before}${t}${rest}`,
  };
}

/** The format a tokenizer's model expects: its own chat template (pretrained models), else the plain
 *  ChatML one (from-scratch presets, whose trained tokenizer carries ChatML too). */
export function chatFormatFor(tok: ChatTemplater & { readonly hasOwnChatTemplate: boolean }): ChatFormat {
  return tok.hasOwnChatTemplate ? templateChatFormat(tok) : PLAIN_CHATML;
}

/**
 * The token ids that end a policy's turn: the chat format's end-of-turn token (ChatML's <|im_end|>, or
 * what the model's own template writes after an assistant turn) and the model's eos ids. The one rule
 * for every place that generates (the trainer, eval, solve, the DAPO bench).
 */
export function stopIdsFor(tok: ChatTemplater & { readonly hasOwnChatTemplate: boolean; tokenToId(t: string): number | undefined }, eosTokenIds: readonly number[] = []): number[] {
  const eot = tok.tokenToId(chatFormatFor(tok).endOfTurn);
  return [...new Set([...(eot !== undefined ? [eot] : []), ...eosTokenIds])];
}

export type SegmentKind = 'prompt' | 'assistant' | 'observation';

/** A run of tokens [start, end) of one kind; `turn` is the 0-based agent turn (-1 for the prompt). */
export interface Segment {
  kind: SegmentKind;
  turn: number;
  start: number;
  end: number;
}

/** The token-level arrays a trainer reads. mask[i] = 1 exactly on the tokens the policy sampled. */
export interface TokenArrays {
  ids: number[];
  mask: (0 | 1)[];
  /** Behaviour log-prob of each masked token (null where the policy gave none, and on mask-0 tokens). */
  logprobs: (number | null)[];
  segments: Segment[];
}

/** The sampled ids and log-probs of one turn, when the policy is a model. */
export interface SampledTokens {
  tokenIds?: readonly number[];
  logprobs?: readonly number[];
}

export class EpisodeTokens implements TokenArrays {
  ids: number[] = [];
  mask: (0 | 1)[] = [];
  logprobs: (number | null)[] = [];
  segments: Segment[] = [];
  readonly eotId: number;

  constructor(
    readonly tokenizer: TokenizerLike,
    readonly format: ChatFormat,
  ) {
    const id = tokenizer.tokenToId(format.endOfTurn);
    if (id === undefined) throw new Error(`the tokenizer has no token ${JSON.stringify(format.endOfTurn)} (the chat format's end of turn)`);
    this.eotId = id;
  }

  get length(): number {
    return this.ids.length;
  }

  private push(kind: SegmentKind, turn: number, ids: readonly number[], mask: (0 | 1)[], logprobs: (number | null)[]): number {
    const start = this.ids.length;
    this.ids.push(...ids);
    this.mask.push(...mask);
    this.logprobs.push(...logprobs);
    this.segments.push({ kind, turn, start, end: this.ids.length });
    return ids.length;
  }

  addPrompt(system: string, user: string): number {
    const ids = this.tokenizer.encode(this.format.prompt(system, user));
    return this.push('prompt', -1, ids, ids.map(() => 0), ids.map(() => null));
  }

  /**
   * One assistant turn. With sampled ids they are used verbatim (mask 1, their log-probs); when the
   * sample did not end in the end-of-turn token (cut at the token budget) that token is appended
   * with mask 0, since the policy never sampled it. Text-only turns are encoded, plus the end-of-turn
   * token, all mask 1 with null log-probs (behaviour cloning and RFT need no behaviour log-probs).
   */
  addAssistant(turn: number, text: string, sampled: SampledTokens = {}): number {
    if (sampled.tokenIds) {
      const ids = [...sampled.tokenIds];
      const lp = sampled.logprobs;
      if (lp && lp.length !== ids.length) throw new Error(`turn ${turn}: ${ids.length} sampled ids but ${lp.length} log-probs`);
      const mask: (0 | 1)[] = ids.map(() => 1);
      const logprobs: (number | null)[] = ids.map((_, i) => lp?.[i] ?? null);
      if (ids.at(-1) !== this.eotId) ids.push(this.eotId), mask.push(0), logprobs.push(null);
      return this.push('assistant', turn, ids, mask, logprobs);
    }
    const ids = [...this.tokenizer.encode(text), this.eotId];
    return this.push('assistant', turn, ids, ids.map(() => 1), ids.map(() => null));
  }

  addObservation(turn: number, text: string): number {
    const ids = this.tokenizer.encode(this.format.observation(text));
    return this.push('observation', turn, ids, ids.map(() => 0), ids.map(() => null));
  }

  /** Tokens of the assistant turns (the action tokens). */
  actionTokens(): number {
    return this.segments.filter((s) => s.kind === 'assistant').reduce((n, s) => n + s.end - s.start, 0);
  }

  toArrays(): TokenArrays {
    return { ids: [...this.ids], mask: [...this.mask], logprobs: [...this.logprobs], segments: this.segments.map((s) => ({ ...s })) };
  }
}

/** Budget unit without a tokenizer: characters / 4, rounded up (a rough English/code average). */
export const charTokens = (text: string): number => Math.ceil(text.length / 4);
