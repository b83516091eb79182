// Byte-level BPE trainer for the from-scratch presets: GPT-2's byte→unicode alphabet and
// pre-tokenization regex, taken from @huggingface/tokenizers' own ByteLevel pre-tokenizer so training
// and encoding split text identically. Writes tokenizer.json + tokenizer_config.json that the same
// loader (tokenizer.ts) and Python's tokenizers read. Deterministic: same corpus, same vocabSize,
// same files. Ids: the special tokens first (0..2), then the 256 bytes, then one id per merge.
import { ByteLevelPreTokenizer } from '@huggingface/tokenizers';
import { CHATML_TEMPLATE } from './tokenizer.ts';

/** <|endoftext|> separates documents and pads; <|im_start|>/<|im_end|> frame ChatML turns (as in
 *  Qwen, so from-scratch and pretrained Qwen models share one chat format). */
export const SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;

export interface BpeOptions {
  /** Total vocabulary: specials + 256 bytes + merges (≤ 65536). Training stops earlier when no
   *  pair occurs minFrequency times. */
  vocabSize: number;
  minFrequency?: number;
  /** model_max_length in tokenizer_config.json. */
  modelMaxLength?: number;
}

export interface TrainedBpe {
  tokenizerJson: Record<string, unknown>;
  tokenizerConfig: Record<string, unknown>;
  vocabSize: number;
  merges: number;
}

const pre = new ByteLevelPreTokenizer({ type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: true });

/** Splits text around special tokens (leftmost, then longest match, as the tokenizer does). */
function withoutSpecials(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    let best = -1, len = 0;
    for (const s of SPECIAL_TOKENS) {
      const i = text.indexOf(s, at);
      if (i >= 0 && (best < 0 || i < best || (i === best && s.length > len))) (best = i), (len = s.length);
    }
    if (best < 0) break;
    out.push(text.slice(at, best));
    at = best + len;
  }
  out.push(text.slice(at));
  return out.filter((s) => s.length > 0);
}

/** Max-heap of (count, pair key); ties go to the smaller key, so the order is total. */
class PairHeap {
  private h: [number, number][] = [];
  private above = (a: [number, number], b: [number, number]) => a[0] > b[0] || (a[0] === b[0] && a[1] < b[1]);
  get size() {
    return this.h.length;
  }
  push(count: number, key: number) {
    const h = this.h;
    h.push([count, key]);
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!this.above(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }
  pop(): [number, number] {
    const h = this.h, top = h[0]!, last = h.pop()!;
    if (h.length) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < h.length && this.above(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.above(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** Trains a byte-level BPE on `corpus` (documents; special tokens in them are kept out of merges). */
export function trainBpe(corpus: Iterable<string>, opts: BpeOptions): TrainedBpe {
  const minFreq = opts.minFrequency ?? 2;
  const base = SPECIAL_TOKENS.length + 256;
  if (!Number.isInteger(opts.vocabSize) || opts.vocabSize < base || opts.vocabSize > 65536) {
    throw new Error(`trainBpe: vocabSize must be an integer in [${base}, 65536], got ${opts.vocabSize}`);
  }
  // The alphabet: every byte's character, in byte order.
  const vocab: string[] = [...SPECIAL_TOKENS, ...Array.from({ length: 256 }, (_, b) => pre.byte_encoder[b]!)];
  const ids = new Map(vocab.map((t, i) => [t, i]));

  const counts = new Map<string, number>();
  for (const doc of corpus) {
    for (const part of withoutSpecials(doc)) for (const w of pre.pre_tokenize_text(part)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const words = [...counts.keys()].map((w) => Array.from(w, (ch) => ids.get(ch)!));
  const freq = [...counts.values()];

  const key = (a: number, b: number) => a * 65536 + b;
  const pairCount = new Map<number, number>();
  const where = new Map<number, Set<number>>();
  const heap = new PairHeap();
  const bump = (w: number, sign: 1 | -1, changed: Set<number>) => {
    const s = words[w]!;
    for (let j = 0; j + 1 < s.length; j++) {
      const k = key(s[j]!, s[j + 1]!);
      pairCount.set(k, (pairCount.get(k) ?? 0) + sign * freq[w]!);
      changed.add(k);
      if (sign > 0) (where.get(k) ?? where.set(k, new Set()).get(k)!).add(w);
    }
  };
  const initial = new Set<number>();
  for (let w = 0; w < words.length; w++) bump(w, 1, initial);
  for (const k of initial) heap.push(pairCount.get(k)!, k);

  const merges: string[] = [];
  while (vocab.length < opts.vocabSize && heap.size > 0) {
    const [count, k] = heap.pop();
    if (pairCount.get(k) !== count) continue; // stale entry; the current count was pushed too
    if (count < minFreq) break;
    const a = Math.floor(k / 65536), b = k % 65536;
    const merged = vocab[a]! + vocab[b]!;
    let id = ids.get(merged);
    if (id === undefined) {
      id = vocab.length;
      vocab.push(merged);
      ids.set(merged, id);
    }
    merges.push(`${vocab[a]} ${vocab[b]}`);
    const changed = new Set<number>();
    for (const w of [...(where.get(k) ?? [])]) {
      const s = words[w]!;
      if (!s.some((x, j) => x === a && s[j + 1] === b)) continue;
      bump(w, -1, changed);
      const next: number[] = [];
      for (let j = 0; j < s.length; j++) {
        if (s[j] === a && s[j + 1] === b) next.push(id), j++;
        else next.push(s[j]!);
      }
      words[w] = next;
      bump(w, 1, changed);
    }
    where.delete(k);
    for (const c of changed) {
      const n = pairCount.get(c)!;
      if (n > 0) heap.push(n, c);
      else pairCount.delete(c);
    }
  }
  return { ...bpeFiles(vocab, merges, opts.modelMaxLength ?? 4096), vocabSize: vocab.length, merges: merges.length };
}

function bpeFiles(vocab: string[], merges: string[], modelMaxLength: number) {
  const added = SPECIAL_TOKENS.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: true };
  const tokenizerJson = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: byteLevel,
    decoder: byteLevel,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      // fromEntries defines own properties, so a token such as "__proto__" is kept as data.
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
      merges,
    },
  };
  const tokenizerConfig = {
    tokenizer_class: 'PreTrainedTokenizerFast',
    bos_token: null,
    eos_token: '<|im_end|>',
    pad_token: '<|endoftext|>',
    unk_token: null,
    add_bos_token: false,
    add_prefix_space: false,
    clean_up_tokenization_spaces: false, // else decode would rewrite " ." as "." and break round trips
    model_max_length: modelMaxLength,
    added_tokens_decoder: Object.fromEntries(added.map(({ id, ...t }) => [String(id), t])),
    additional_special_tokens: ['<|im_start|>', '<|im_end|>'],
    split_special_tokens: false,
    errors: 'replace',
    chat_template: CHATML_TEMPLATE,
  };
  return { tokenizerJson, tokenizerConfig };
}

/**
 * A trained tokenizer's files with the BPE vocabulary filled up to `size` ids. A model whose config has more
 * output rows than the tokenizer has tokens (a pretrained shape with random weights samples every row) must be
 * able to decode each id it samples: the ids past the trained vocabulary become tokens that no merge produces
 * (encoding the corpus is unchanged) and that decode to plain text, `~` id-in-base-36 `~`.
 */
export function padVocab(files: Pick<TrainedBpe, 'tokenizerJson' | 'tokenizerConfig'>, size: number): Pick<TrainedBpe, 'tokenizerJson' | 'tokenizerConfig'> & { vocabSize: number } {
  const model = files.tokenizerJson.model as { vocab: Record<string, number> };
  const vocab = Object.fromEntries(Object.entries(model.vocab));
  // Ids must run 0..have−1 over the vocabulary and the added tokens together (as trainBpe writes them): the
  // filler starts after the last.
  const added = (files.tokenizerJson.added_tokens as { id: number }[] | undefined) ?? [];
  const ids = new Set([...Object.values(vocab), ...added.map((t) => t.id)]);
  const have = ids.size;
  for (let id = 0; id < have; id++) if (!ids.has(id)) throw new Error(`padVocab: the tokenizer's ids have a gap at ${id}: only a tokenizer whose ids run 0..${have - 1} can be filled`);
  if (!Number.isInteger(size) || size < have) throw new Error(`padVocab: size must be an integer ≥ the ${have} tokens the tokenizer has, got ${size}`);
  for (let id = have; id < size; id++) {
    let t = `~${id.toString(36)}~`;
    while (Object.hasOwn(vocab, t)) t += '~';
    vocab[t] = id;
  }
  return { tokenizerJson: { ...files.tokenizerJson, model: { ...model, vocab } }, tokenizerConfig: files.tokenizerConfig, vocabSize: size };
}
