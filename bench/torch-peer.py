#!/usr/bin/env python3
"""The same measurements as `gpudoctor bench`, through PyTorch, for comparison.

    bench/torch-peer.py [--gemm-n 8192]   -> one JSON object on stdout

Per GPU: device copy bandwidth (x.copy_(y) of 1 GiB, counted as bytes read +
written) and torch.matmul in FP32 (allow_tf32 off), TF32 (on), FP16 and BF16,
each the median of 9 runs timed with CUDA events after a warm-up, on random
data - as gpudoctor times its own.
"""
import json
import statistics
import sys

import torch


def timed(fn, reps=9):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()
    torch.cuda.synchronize()
    ms = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        ms.append(start.elapsed_time(end))
    return statistics.median(ms)


def gpu(i, n):
    torch.cuda.set_device(i)
    out = {"index": i, "name": torch.cuda.get_device_name(i)}
    words = (1 << 30) // 4
    x = torch.rand(words, device="cuda")
    y = torch.empty_like(x)
    out["d2d_copy_gbs"] = 2 * (1 << 30) / (timed(lambda: y.copy_(x)) / 1000) / 1e9
    del x, y
    gemm = {}
    for kind, dtype, tf32 in (("fp32", torch.float32, False), ("tf32", torch.float32, True),
                              ("fp16", torch.float16, False), ("bf16", torch.bfloat16, False)):
        if kind in ("tf32", "bf16") and torch.cuda.get_device_capability(i)[0] < 8:
            continue
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.rand(n, n, device="cuda", dtype=dtype) * 2 - 1
        b = torch.rand(n, n, device="cuda", dtype=dtype) * 2 - 1
        gemm[kind] = 2 * n ** 3 / (timed(lambda: torch.matmul(a, b)) / 1000) / 1e12
        del a, b
    torch.backends.cuda.matmul.allow_tf32 = False
    out["gemm_tflops"] = gemm
    return out


def main():
    n = 8192
    if "--gemm-n" in sys.argv:
        n = int(sys.argv[sys.argv.index("--gemm-n") + 1])
    if not torch.cuda.is_available():
        print(json.dumps({"error": "torch.cuda.is_available() is False"}))
        return 1
    print(json.dumps({"torch": torch.__version__, "cuda": torch.version.cuda, "gemm_n": n,
                      "gpus": [gpu(i, n) for i in range(torch.cuda.device_count())]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
