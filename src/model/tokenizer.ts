// The tokenizer every model uses: a Hugging Face tokenizer.json + tokenizer_config.json run by
// transformers.js's own tokenizer package (@huggingface/tokenizers) and chat templates rendered by
// @huggingface/jinja. Core: takes the files' contents; tokenizer.node.ts reads them from a folder.
import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import { Template } from '@huggingface/jinja';
import { ModelFileError } from './errors.ts';

/** The plain chat template used when tokenizer_config.json has none (and written by the BPE
 *  trainer): ChatML, as Qwen's chat models use, without a default system prompt. Each message is
 *  `<|im_start|>{role}\n{content}<|im_end|>\n`; the generation prompt is `<|im_start|>assistant\n`. */
export const CHATML_TEMPLATE =
  "{%- for message in messages %}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{%- endfor %}" +
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}";

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool' | (string & {});
  content: string;
}

export interface ChatOptions {
  /** Append the assistant turn's opening so the model continues as the assistant. */
  addGenerationPrompt?: boolean;
  /** Further template variables (tools, enable_thinking, …). */
  extra?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function asObject(v: unknown, file: string): Json {
  let o = v;
  if (typeof v === 'string') {
    try {
      o = JSON.parse(v);
    } catch (e) {
      throw new ModelFileError(file, `is not valid JSON (${(e as Error).message.split('\n')[0]})`);
    }
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new ModelFileError(file, 'is not a JSON object');
  return o as Json;
}

/** A special token in tokenizer_config.json: a string, {content: …} or null. */
const tokenText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as Json).content === 'string' ? ((v as Json).content as string) : undefined;

export class Tokenizer {
  /** One more than the largest id (model vocabulary and added tokens). */
  readonly vocabSize: number;
  readonly bosToken?: string;
  readonly eosToken?: string;
  readonly padToken?: string;
  /** Ids of tokens marked special (dropped by decode with skipSpecialTokens). */
  readonly specialIds: ReadonlySet<number>;
  /** The template applyChatTemplate renders: the file's own, else CHATML_TEMPLATE. */
  readonly chatTemplate: string;
  readonly hasOwnChatTemplate: boolean;
  private readonly template: Template;

  private constructor(private readonly tok: HfTokenizer, private readonly cfg: Json, chatTemplate: string | undefined) {
    let max = -1;
    for (const id of tok.get_vocab(true).values()) if (id > max) max = id;
    this.vocabSize = max + 1;
    for (const [field, key] of [['bos_token', 'bosToken'], ['eos_token', 'eosToken'], ['pad_token', 'padToken']] as const) {
      const t = tokenText(cfg[field]);
      if (t !== undefined) this[key] = t;
    }
    this.specialIds = new Set([...tok.get_added_tokens_decoder()].filter(([, t]) => t.special).map(([id]) => id));
    this.hasOwnChatTemplate = chatTemplate !== undefined;
    this.chatTemplate = chatTemplate ?? CHATML_TEMPLATE;
    try {
      this.template = new Template(this.chatTemplate);
    } catch (e) {
      throw new ModelFileError('tokenizer_config.json', `chat_template does not parse (${(e as Error).message.split('\n')[0]})`);
    }
  }

  /** From the contents of tokenizer.json and tokenizer_config.json (objects or JSON text).
   *  `chatTemplate` overrides the config's (e.g. a chat_template.jinja file). */
  static fromJson(tokenizerJson: string | object, tokenizerConfig: string | object = {}, chatTemplate?: string): Tokenizer {
    const tj = asObject(tokenizerJson, 'tokenizer.json');
    const tc = asObject(tokenizerConfig, 'tokenizer_config.json');
    const model = tj.model as Json | undefined;
    if (!model || typeof model !== 'object') throw new ModelFileError('tokenizer.json', 'has no "model" object');
    if (model.type !== undefined && !['BPE', 'WordPiece', 'Unigram'].includes(model.type as string)) {
      throw new ModelFileError('tokenizer.json', `model.type ${JSON.stringify(model.type)} is not supported (BPE, WordPiece, Unigram)`);
    }
    if (!Array.isArray(tj.added_tokens)) throw new ModelFileError('tokenizer.json', 'has no "added_tokens" list');
    let tok: HfTokenizer;
    try {
      tok = new HfTokenizer({ normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, ...tj }, tc);
    } catch (e) {
      throw new ModelFileError('tokenizer.json', `cannot be loaded (${(e as Error).message.split('\n')[0]})`);
    }
    return new Tokenizer(tok, tc, chatTemplate ?? pickTemplate(tc.chat_template));
  }

  /** Token ids of `text`. Special-token text (e.g. "<|im_end|>") becomes its special id.
   *  `addSpecialTokens` (default false) adds what the post-processor adds (e.g. Llama's BOS). */
  encode(text: string, opts: { addSpecialTokens?: boolean } = {}): number[] {
    return this.tok.encode(text, { add_special_tokens: opts.addSpecialTokens ?? false }).ids;
  }

  decode(ids: readonly number[], opts: { skipSpecialTokens?: boolean } = {}): string {
    if (ids.length === 0) return '';
    for (const id of ids) {
      if (!Number.isInteger(id) || id < 0 || id >= this.vocabSize) throw new Error(`Tokenizer.decode: id ${id} is outside the vocabulary [0, ${this.vocabSize})`);
    }
    return this.tok.decode([...ids], { skip_special_tokens: opts.skipSpecialTokens ?? false });
  }

  tokenToId(token: string): number | undefined {
    return this.tok.token_to_id(token);
  }
  idToToken(id: number): string | undefined {
    return this.tok.id_to_token(id);
  }
  get eosTokenId(): number | undefined {
    return this.eosToken === undefined ? undefined : this.tokenToId(this.eosToken);
  }
  get bosTokenId(): number | undefined {
    return this.bosToken === undefined ? undefined : this.tokenToId(this.bosToken);
  }
  get padTokenId(): number | undefined {
    return this.padToken === undefined ? undefined : this.tokenToId(this.padToken);
  }

  /** The conversation as the model's chat template writes it. */
  applyChatTemplate(messages: readonly ChatMessage[], opts: ChatOptions = {}): string {
    const specials: Json = {};
    for (const f of ['bos_token', 'eos_token', 'pad_token', 'unk_token']) {
      const t = tokenText(this.cfg[f]);
      if (t !== undefined) specials[f] = t;
    }
    return this.template.render({
      ...specials,
      ...opts.extra,
      messages: messages.map((m) => ({ ...m })),
      add_generation_prompt: opts.addGenerationPrompt ?? false,
    });
  }

  /** applyChatTemplate then encode, without adding special tokens (the template writes them). */
  encodeChat(messages: readonly ChatMessage[], opts: ChatOptions = {}): number[] {
    return this.encode(this.applyChatTemplate(messages, opts));
  }
}

/** tokenizer_config.chat_template: a string, or a list of {name, template} (the "default" one). */
function pickTemplate(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const named = v.find((t) => t && (t as Json).name === 'default') ?? v[0];
    if (named && typeof (named as Json).template === 'string') return (named as Json).template as string;
  }
  return undefined;
}
