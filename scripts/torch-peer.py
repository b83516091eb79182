#!/usr/bin/env python3
"""torch-peer.py: the PyTorch eager peer of `webswe bench generate|train` at a model shape.

The same Qwen2-family model (llama, qwen2, qwen3) built from a config.json in Hugging Face form (what
`webswe bench config SHAPE` prints), in plain PyTorch modules named as transformers names them, so a folder's
model.safetensors loads as it is; random weights otherwise. It measures what our bench measures, at the same
sizes and on the device given:

  generate: G sequences of P random prompt tokens prefilled, then D decode steps sampled (KV cache, one step at
            a time, as eager PyTorch decodes): prefill and decode tokens/s;
  train:    one optimiser step on B rows of T tokens (next-token loss, backward, AdamW), LoRA rank r on every
            projection when the config carries `webswe_lora` (the base weights frozen), else every weight;
  peak memory of each (CUDA: torch.cuda.max_memory_allocated; CPU: the process's peak RSS).

With --ours FILE[,FILE] (our bench's --json outputs for the same shape and sizes), each row gets ours ÷ PyTorch's.
--check FOLDER --ids 1,2,3 prints the log-prob of each id after its prefix (as `webswe logprobs` does): the
check that this is the same model. Needs only torch (no transformers, no safetensors package).

  python3 scripts/torch-peer.py --config qwen.json --device cuda -G 8 --prompt 128 --decode 32 --rows 4 --tokens 256
"""
import argparse
import json
import math
import resource
import struct
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

TARGETS = {'q': 'self_attn.q_proj', 'k': 'self_attn.k_proj', 'v': 'self_attn.v_proj', 'o': 'self_attn.o_proj',
           'gate': 'mlp.gate_proj', 'up': 'mlp.up_proj', 'down': 'mlp.down_proj'}


class RMSNorm(nn.Module):
    def __init__(self, n, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))
        self.eps = eps

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps))


class LoraLinear(nn.Module):
    """y = x Wᵀ + b + s · (x Aᵀ) Bᵀ with s = alpha / r; B starts at zero (PEFT's and ours)."""

    def __init__(self, base, rank, alpha):
        super().__init__()
        self.base = base
        self.lora_A = nn.Parameter(torch.randn(rank, base.in_features) / math.sqrt(base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + self.scale * ((x @ self.lora_A.t()) @ self.lora_B.t())


class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.nh, self.nkv, self.hs = c['heads'], c['kv_heads'], c['head_dim']
        bias = c['qkv_bias']
        self.q_proj = nn.Linear(c['hidden'], self.nh * self.hs, bias=bias)
        self.k_proj = nn.Linear(c['hidden'], self.nkv * self.hs, bias=bias)
        self.v_proj = nn.Linear(c['hidden'], self.nkv * self.hs, bias=bias)
        self.o_proj = nn.Linear(self.nh * self.hs, c['hidden'], bias=False)
        if c['qk_norm']:
            self.q_norm, self.k_norm = RMSNorm(self.hs, c['eps']), RMSNorm(self.hs, c['eps'])
        self.qk_norm = c['qk_norm']

    def forward(self, x, cos, sin, cache):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.nh, self.hs)
        k = self.k_proj(x).view(b, t, self.nkv, self.hs)
        v = self.v_proj(x).view(b, t, self.nkv, self.hs).transpose(1, 2)
        if self.qk_norm:
            q, k = self.q_norm(q), self.k_norm(k)
        q, k = rope(q.transpose(1, 2), cos, sin), rope(k.transpose(1, 2), cos, sin)
        if cache is not None:
            if cache[0] is not None:
                k, v = torch.cat([cache[0], k], 2), torch.cat([cache[1], v], 2)
            cache[0], cache[1] = k, v
        rep = self.nh // self.nkv
        k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
        causal = t > 1  # a decode step's one query sees every cached key
        if hasattr(F, 'scaled_dot_product_attention'):
            y = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        else:  # torch < 2.0
            s = (q @ k.transpose(-1, -2)) / math.sqrt(self.hs)
            if causal:
                s = s.masked_fill(torch.ones(t, k.shape[2], dtype=torch.bool, device=x.device).triu(k.shape[2] - t + 1), float('-inf'))
            y = s.softmax(-1) @ v
        return self.o_proj(y.transpose(1, 2).reshape(b, t, self.nh * self.hs))


class Mlp(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.gate_proj = nn.Linear(c['hidden'], c['ffn'], bias=False)
        self.up_proj = nn.Linear(c['hidden'], c['ffn'], bias=False)
        self.down_proj = nn.Linear(c['ffn'], c['hidden'], bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Layer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.input_layernorm = RMSNorm(c['hidden'], c['eps'])
        self.self_attn = Attention(c)
        self.post_attention_layernorm = RMSNorm(c['hidden'], c['eps'])
        self.mlp = Mlp(c)

    def forward(self, x, cos, sin, cache):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin, cache)
        return x + self.mlp(self.post_attention_layernorm(x))


def rope(x, cos, sin):
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], -1)
    return x * cos + rotated * sin


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.model = nn.Module()
        self.model.embed_tokens = nn.Embedding(c['vocab'], c['hidden'])
        self.model.layers = nn.ModuleList([Layer(c) for _ in range(c['layers'])])
        self.model.norm = RMSNorm(c['hidden'], c['eps'])
        if not c['tied']:
            self.lm_head = nn.Linear(c['hidden'], c['vocab'], bias=False)
        hs = c['head_dim']
        self.register_buffer('inv_freq', 1.0 / (c['theta'] ** (torch.arange(0, hs, 2, dtype=torch.float64) / hs)), persistent=False)

    def forward(self, ids, caches=None, pos0=0):
        t = ids.shape[1]
        pos = torch.arange(pos0, pos0 + t, device=ids.device, dtype=torch.float64)
        freqs = torch.outer(pos, self.inv_freq.to(ids.device))
        emb = torch.cat([freqs, freqs], -1)
        cos, sin = emb.cos().float(), emb.sin().float()
        x = self.model.embed_tokens(ids)
        for i, layer in enumerate(self.model.layers):
            x = layer(x, cos, sin, caches[i] if caches is not None else None)
        x = self.model.norm(x)
        return x @ (self.model.embed_tokens.weight if self.c['tied'] else self.lm_head.weight).t()

    def add_lora(self, rank, alpha, targets):
        for p in self.parameters():
            p.requires_grad_(False)
        for layer in self.model.layers:
            for t in targets:
                parent_name, name = TARGETS[t].split('.')
                parent = getattr(layer, parent_name)
                setattr(parent, name, LoraLinear(getattr(parent, name), rank, alpha))


def read_config(path):
    j = json.load(open(path))
    mt = j.get('model_type', 'llama')
    c = {
        'type': mt, 'vocab': j['vocab_size'], 'hidden': j['hidden_size'], 'ffn': j['intermediate_size'], 'layers': j['num_hidden_layers'],
        'heads': j['num_attention_heads'], 'kv_heads': j.get('num_key_value_heads', j['num_attention_heads']), 'eps': j.get('rms_norm_eps', 1e-6),
        'theta': j.get('rope_theta', 10000.0), 'tied': j.get('tie_word_embeddings', False),
        'qkv_bias': mt == 'qwen2' or bool(j.get('attention_bias', False)), 'qk_norm': mt == 'qwen3',
    }
    c['head_dim'] = j.get('head_dim') or c['hidden'] // c['heads']
    return c, j.get('webswe_lora')


DTYPES = {'F32': (torch.float32, 4), 'F16': (torch.float16, 2), 'BF16': (torch.bfloat16, 2)}


def read_safetensors(path):
    """A safetensors file (8-byte little-endian header length, JSON header, raw data) as float32 tensors."""
    with open(path, 'rb') as f:
        n = struct.unpack('<Q', f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, meta in header.items():
        if name == '__metadata__':
            continue
        dtype, _ = DTYPES[meta['dtype']]
        a, b = meta['data_offsets']
        out[name] = torch.frombuffer(bytearray(data[a:b]), dtype=dtype).reshape(meta['shape']).float()
    return out


def sync(device):
    if device.startswith('cuda'):
        torch.cuda.synchronize()


def reset_peak(device):
    if device.startswith('cuda'):
        torch.cuda.reset_peak_memory_stats()


def peak_bytes(device):
    if device.startswith('cuda'):
        return torch.cuda.max_memory_allocated()
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB; the process's peak, not the step's


def bench_generate(m, device, G, P, D, vocab):
    g = torch.Generator(device='cpu').manual_seed(1)
    prompt = torch.randint(0, vocab, (G, P), generator=g).to(device)

    def once():
        caches = [[None, None] for _ in m.model.layers]
        with torch.no_grad():
            sync(device)
            t0 = time.perf_counter()
            logits = m(prompt, caches, 0)
            sync(device)
            t1 = time.perf_counter()
            nxt = torch.multinomial(logits[:, -1].softmax(-1), 1)
            for d in range(D):
                logits = m(nxt, caches, P + d)
                nxt = torch.multinomial(logits[:, -1].softmax(-1), 1)
            nxt.cpu()  # the sampled ids back on the host, as a decode loop needs them
            sync(device)
            return t1 - t0, time.perf_counter() - t1

    once()  # warm-up (kernels chosen, memory pooled)
    reset_peak(device)
    pre, dec = once()
    return [
        {'name': 'prefill', 'shape': f'G {G} × {P} tokens', 'ms': pre * 1e3, 'tokens_per_s': G * P / pre, 'peak_bytes': peak_bytes(device)},
        {'name': 'decode', 'shape': f'G {G} × {D} steps', 'ms': dec * 1e3, 'tokens_per_s': G * D / dec, 'peak_bytes': peak_bytes(device)},
    ]


def bench_train(m, device, B, T, steps, vocab, lora):
    g = torch.Generator(device='cpu').manual_seed(2)
    ids = torch.randint(0, vocab, (B, T), generator=g).to(device)
    params = [p for p in m.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-4)

    def step():
        logits = m(ids)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, vocab), ids[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    step()  # warm-up
    sync(device)
    reset_peak(device)
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    sync(device)
    s = (time.perf_counter() - t0) / steps
    name = f"train step (LoRA r {lora['rank']})" if lora else 'train step'
    return [{'name': name, 'shape': f'B {B} × T {T}', 'ms': s * 1e3, 'tokens_per_s': B * T / s, 'peak_bytes': peak_bytes(device)}]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--config', help="a config.json in Hugging Face form (`webswe bench config SHAPE`)")
    ap.add_argument('--device', default='cuda' if torch.cuda.is_available() else 'cpu')
    ap.add_argument('-G', type=int, default=8)
    ap.add_argument('--prompt', type=int, default=128)
    ap.add_argument('--decode', type=int, default=32)
    ap.add_argument('--rows', type=int, default=4)
    ap.add_argument('--tokens', type=int, default=256)
    ap.add_argument('--steps', type=int, default=2)
    ap.add_argument('--only', choices=['generate', 'train'], help='one of the two (default both)')
    ap.add_argument('--ours', help="our bench's --json outputs (comma-separated files) for the same shape and sizes: ratios ours ÷ PyTorch")
    ap.add_argument('--check', metavar='FOLDER', help='a model folder (config.json, model.safetensors): print log-probs of --ids')
    ap.add_argument('--ids', help='--check: comma-separated token ids')
    ap.add_argument('--json', action='store_true')
    a = ap.parse_args()
    torch.manual_seed(0)
    if a.check:
        c, _ = read_config(f'{a.check}/config.json')
        m = Model(c)
        state = read_safetensors(f'{a.check}/model.safetensors')
        missing, unexpected = m.load_state_dict(state, strict=False)
        if [k for k in missing if k != 'lm_head.weight' or not c['tied']] or unexpected:
            sys.exit(f'torch-peer: {a.check}/model.safetensors does not match the model: missing {missing}, unexpected {unexpected}')
        ids = [int(x) for x in a.ids.split(',')]
        with torch.no_grad():
            lp = m(torch.tensor([ids])).double().log_softmax(-1)[0]
        out = [None] + [lp[i - 1, ids[i]].item() for i in range(1, len(ids))]
        print(json.dumps({'logprobs': out}))
        return
    if not a.config:
        ap.error('--config (or --check) is required')
    c, lora = read_config(a.config)
    m = Model(c).to(a.device)
    if lora:
        m.add_lora(lora['rank'], lora['alpha'], lora['targets'])
        m.to(a.device)
    rows = []
    if a.only in (None, 'generate'):
        rows += bench_generate(m, a.device, a.G, a.prompt, a.decode, c['vocab'])
    if a.only in (None, 'train'):
        m.train()
        rows += bench_train(m, a.device, a.rows, a.tokens, a.steps, c['vocab'], lora)
    ours = {}
    for f in (a.ours or '').split(','):
        if f:
            for r in json.load(open(f))['results']:
                ours.setdefault(r['name'], r)
    for r in rows:
        r['backend'] = f'pytorch {torch.__version__} ({a.device})'
        o = ours.get(r['name'])
        if o and o.get('shape') == r['shape']:
            r['ours_tokens_per_s'] = o['tokens_per_s']
            r['ours_over_pytorch'] = o['tokens_per_s'] / r['tokens_per_s']
            if o.get('peak_bytes'):
                r['ours_peak_bytes'] = o['peak_bytes']
    if a.json:
        print(json.dumps({'results': rows}, indent=2))
        return
    name = torch.cuda.get_device_name() if a.device.startswith('cuda') else 'CPU'
    print(f"PyTorch {torch.__version__} eager on {a.device} ({name}), {c['layers']} layers, C {c['hidden']}, vocab {c['vocab']}{', LoRA r ' + str(lora['rank']) if lora else ''}")
    print(f"{'row':<22} {'shape':<18} {'ms':>10} {'tokens/s':>12} {'peak MiB':>10} {'ours tokens/s':>14} {'ours MiB':>10} {'ours ÷ torch':>13}")
    for r in rows:
        ratio = f"{r['ours_over_pytorch']:.2f}×" if 'ours_over_pytorch' in r else '—'
        ot = f"{r['ours_tokens_per_s']:.1f}" if 'ours_tokens_per_s' in r else '—'
        om = f"{r['ours_peak_bytes'] / 2**20:.0f}" if 'ours_peak_bytes' in r else '—'
        print(f"{r['name']:<22} {r['shape']:<18} {r['ms']:>10.1f} {r['tokens_per_s']:>12.1f} {r['peak_bytes'] / 2**20:>10.0f} {ot:>14} {om:>10} {ratio:>13}")


if __name__ == '__main__':
    main()
