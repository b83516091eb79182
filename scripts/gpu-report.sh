#!/bin/sh
# gpu-report.sh [REPORT [STEPS]]: on a machine with an NVIDIA GPU (a lent device machine), from the portable
# bundle's folder (npm run bundle:node): the adapter, the kernels at large shapes beside TF.js WebGPU, model
# generation and training throughput for micro and tiny on WebGPU beside the fast CPU backend, a short
# `train --preset tiny` on WebGPU, and, where Python has `transformers`, the trained checkpoint's log-probs
# there beside `webswe logprobs`; and, where Python has `torch`, the 0.5 B shape (random weights, LoRA r 16) on
# WebGPU beside PyTorch eager on the same GPU (torch-peer.py: generate at the same batch and lengths, one LoRA
# training step at the same tokens, peak memory, ours ÷ PyTorch). Everything goes to one Markdown file (default
# gpu-report.md); each step's failure is written down and the next one runs. STEPS (default all) is a comma list
# of gpu, adapter, price (auto's pick for qwen-coder-lora, both backends measured at its 0.5 B shape, and one DAPO
# iteration of it priced there), kernels, generate, train, peer, run (the short tiny run and its log-probs beside transformers):
# a report can be made in parts, each inside a lent machine's per-command limit, appending to one REPORT.
here=$(cd "$(dirname "$0")" && pwd)
report=${1:-$here/gpu-report.md}
steps=,${2:-gpu,adapter,price,kernels,generate,train,peer,run},
want() { case $steps in *,$1,*) return 0 ;; *) return 1 ;; esac; }
W="$here/webswe"
# Presets name their task sets by repository-relative paths (public/tasks/…): run from the unpacked
# payload, which holds them there (the launcher unpacks it on first use).
"$W" --version >/dev/null 2>&1
cd "$here/.unpacked" 2>/dev/null || { echo "gpu-report: could not unpack $here/payload.tar.gz" >&2; exit 1; }
run=$(mktemp -d)/tiny-run
step() { # title, command...
  title=$1; shift
  printf '\n## %s\n\n`%s`\n\n```\n' "$title" "$*" >>"$report"
  start=$(date +%s)
  "$@" >>"$report" 2>&1; rc=$?
  printf '```\nexit %s, %s s\n' "$rc" "$(( $(date +%s) - start ))" >>"$report"
}
[ -s "$report" ] && printf '\n---\n' >>"$report" # a later part appends
printf '# webswe GPU report\n\n%s · %s · bundle %s · steps %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(uname -srm)" "$(cat "$here/.unpacked/VERSION" 2>/dev/null || echo 'not unpacked yet')" "${2:-all}" >>"$report"
# Dawn needs the Vulkan loader (libvulkan.so.1) and the NVIDIA ICD; the device machines' README says how
# to bring the loader where `ldconfig -p` lists none.
if ! ldconfig -p 2>/dev/null | grep -q libvulkan.so.1; then
  printf '\n**No Vulkan loader (libvulkan.so.1) on this machine**: WebGPU will not find the GPU until it is installed.\n' >>"$report"
fi
# NVIDIA's Vulkan ICD is libGLX_nvidia.so.0, which needs glvnd (libGLdispatch): without it the loader
# finds "no drivers" (seen on an H200 machine with libvulkan1 alone).
if command -v nvidia-smi >/dev/null && ! ldconfig -p 2>/dev/null | grep -q libGLdispatch.so.0; then
  printf '\n**No libGLdispatch.so.0 (glvnd) on this machine**: the NVIDIA Vulkan driver will not load; install libglvnd0, libglx0 and libegl1.\n' >>"$report"
fi
want gpu && step 'GPU' nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
want adapter && step 'Adapter and backend' "$W" gpu
want price && step 'qwen-coder-lora here: auto pick and one DAPO iteration, priced' "$W" gpu --preset qwen-coder-lora
want kernels && step 'Kernels at training shapes, beside TF.js WebGPU' "$W" bench kernels --shapes large
for p in scratch-160k scratch-5m; do
  want generate && step "Generation, $p (WebGPU beside the WASM and fast JS CPU backends)" "$W" bench generate --model "$p" --backend webgpu,wasm,fast-cpu
  want train && step "Training step, $p (WebGPU beside the WASM and fast JS CPU backends)" "$W" bench train --model "$p" --backend webgpu,wasm,fast-cpu
done
if want peer; then
  # The 0.5 B shape on WebGPU (JSON kept for the ratios), then the same model in PyTorch on the same GPU.
  peer=$(mktemp -d); shape=qwen2.5-coder-0.5b
  "$W" bench config "$shape" >"$peer/config.json"
  step "Generation, $shape on WebGPU (G 8, prompt 128, decode 32)" sh -c "\"$W\" bench generate --model $shape --backend webgpu -G 8 --prompt 128 --decode 32 --json | tee $peer/generate.json"
  step "Training step, $shape on WebGPU (LoRA r 16, B 4 × T 256)" sh -c "\"$W\" bench train --model $shape --backend webgpu --rows 4 --tokens 256 --steps 2 --json | tee $peer/train.json"
  if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
    step "PyTorch eager peer, $shape on the same GPU (ours ÷ PyTorch)" python3 "$here/torch-peer.py" --config "$peer/config.json" --device cuda -G 8 --prompt 128 --decode 32 --rows 4 --tokens 256 --steps 2 --ours "$peer/generate.json,$peer/train.json"
  else
    printf '\n## PyTorch eager peer\n\nskipped: no python3 with torch and CUDA on this machine (torch-peer.py needs only torch)\n' >>"$report"
  fi
fi
want run || { printf '\nreport: %s\n' "$report"; exit 0; }
# GPU memory every 5 s while it runs: a pool or cache that grows shows here before the device refuses.
mem="$run.mem"; mkdir -p "$(dirname "$run")"
nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -l 5 >"$mem" 2>/dev/null & sampler=$!
# REPORT_RUN_SET (space-separated key=value) replaces the run's sizes, e.g. to fit a shorter lease.
set -- ${REPORT_RUN_SET:-bc.episodes=64 rft.tasks=8 dapo.iterations=1 tasks.maxTest=4 eval.samples=2}
step 'A short tiny run on WebGPU' "$W" train --preset tiny --backend webgpu --out "$run" --set "$@"
kill "$sampler" 2>/dev/null
# The trainer's own count per phase (live buffers' peak, the pool at its end): beside nvidia-smi's total.
[ -f "$run/metrics.jsonl" ] && { printf '\nWebGPU buffers per phase (metrics.jsonl, gpu_peak_mib / gpu_pooled_mib / gpu_evicted_mib):\n\n```\n'; grep -h '"phase":"eval-' "$run/metrics.jsonl"; printf '```\n'; } >>"$report"
[ -s "$mem" ] && awk 'NR == 1 { lo = $1; hi = $1 } { lo = $1 < lo ? $1 : lo; hi = $1 > hi ? $1 : hi; last = $1 }
  END { printf "\nGPU memory used during the run (nvidia-smi, every 5 s): first %s, min %s, max %s, last %s MiB over %d samples\n", first, lo, hi, last, NR }
  NR == 1 { first = $1 }' "$mem" >>"$report"
weights="$run/weights/base"
if [ -d "$weights" ] && python3 -c 'import transformers, torch' 2>/dev/null; then
  ids=1,5,9,13,17,21,25,29,33,37,41,45
  "$W" logprobs --model "$weights" --ids "$ids" --backend webgpu --json >"$run/ours.json" 2>>"$report"
  step 'Log-probs: transformers beside webswe logprobs (WebGPU), same checkpoint' python3 - "$weights" "$ids" "$run/ours.json" <<'PY'
import json, sys, torch
from transformers import AutoModelForCausalLM
path, ids, ours = sys.argv[1], [int(x) for x in sys.argv[2].split(',')], json.load(open(sys.argv[3]))['logprobs']
m = AutoModelForCausalLM.from_pretrained(path, torch_dtype=torch.float32).eval()
with torch.no_grad():
    logits = m(torch.tensor([ids])).logits[0]
lp = torch.log_softmax(logits.double(), -1)
theirs = [None] + [lp[i - 1, ids[i]].item() for i in range(1, len(ids))]
diff = max(abs(a - b) for a, b in zip(ours[1:], theirs[1:]))
print('position  webswe  transformers')
for i in range(1, len(ids)): print(f'{i:8d} {ours[i]:10.5f} {theirs[i]:10.5f}')
print(f'max |difference| {diff:.2e} over {len(ids) - 1} positions')
PY
else
  printf '\n## Log-probs beside transformers\n\nskipped: %s\n' "$( [ -d "$weights" ] && echo 'no python3 with transformers and torch' || echo 'the tiny run left no weights/base')" >>"$report"
fi
printf '\nreport: %s\n' "$report"
