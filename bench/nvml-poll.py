#!/usr/bin/env python3
"""The peer of `gpudoctor watch` in bench/watch.sh: NVML polled from Python through
ctypes, as gpustat (through pynvml) does: per GPU its name, memory, utilisation,
temperature, power and compute processes, and each process's owner and command line
from /proc. One process polling (--samples N --interval S), or one sample and exit
(--samples 1: the "a process per sample" style of `nvidia-smi` in a shell loop).

    bench/nvml-poll.py LIBNVML [--samples N] [--interval S]
"""
import ctypes
import os
import sys
import time


class Memory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


class Util(ctypes.Structure):
    _fields_ = [("gpu", ctypes.c_uint), ("memory", ctypes.c_uint)]


class Proc(ctypes.Structure):  # nvmlProcessInfo_t (v2 layout, ..._v3 of the query)
    _fields_ = [("pid", ctypes.c_uint), ("usedGpuMemory", ctypes.c_ulonglong),
                ("gpuInstanceId", ctypes.c_uint), ("computeInstanceId", ctypes.c_uint)]


def owner_and_command(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            uid = next(line.split()[1] for line in f if line.startswith("Uid:"))
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        return uid, cmd
    except (OSError, StopIteration):
        return None, None


def sample(nvml):
    count = ctypes.c_uint()
    nvml.nvmlDeviceGetCount_v2(ctypes.byref(count))
    rows = []
    for i in range(count.value):
        dev = ctypes.c_void_p()
        nvml.nvmlDeviceGetHandleByIndex_v2(i, ctypes.byref(dev))
        name = ctypes.create_string_buffer(96)
        nvml.nvmlDeviceGetName(dev, name, 96)
        mem, util = Memory(), Util()
        temp, power = ctypes.c_uint(), ctypes.c_uint()
        nvml.nvmlDeviceGetMemoryInfo(dev, ctypes.byref(mem))
        nvml.nvmlDeviceGetUtilizationRates(dev, ctypes.byref(util))
        nvml.nvmlDeviceGetTemperature(dev, 0, ctypes.byref(temp))
        nvml.nvmlDeviceGetPowerUsage(dev, ctypes.byref(power))
        procs, n = (Proc * 64)(), ctypes.c_uint(64)
        nvml.nvmlDeviceGetComputeRunningProcesses_v3(dev, ctypes.byref(n), procs)
        who = [owner_and_command(procs[k].pid) for k in range(min(n.value, 64))]
        rows.append("%d %s %d%% %d/%dMiB %dC %dW %d procs %s" % (
            i, name.value.decode(), util.gpu, mem.used >> 20, mem.total >> 20, temp.value,
            power.value // 1000, len(who), who))
    return rows


def main():
    lib, samples, interval = sys.argv[1], 1, 1.0
    args = sys.argv[2:]
    while args:
        if args[0] == "--samples":
            samples = int(args[1])
        elif args[0] == "--interval":
            interval = float(args[1])
        args = args[2:]
    nvml = ctypes.CDLL(lib)
    nvml.nvmlInit_v2()
    start = time.monotonic()
    for k in range(samples):
        print("\n".join(sample(nvml)), flush=True)
        if k + 1 < samples:
            time.sleep(max(0.0, start + (k + 1) * interval - time.monotonic()))
    nvml.nvmlShutdown()


if __name__ == "__main__":
    main()
