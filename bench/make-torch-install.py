#!/usr/bin/env python3
"""Write a synthetic, real-shaped CUDA PyTorch install for timing the static analysis.

    bench/make-torch-install.py DIR

DIR/venv becomes a virtual environment (bin/python3 -> the python3 running
this script) whose site-packages holds what `pip install torch==2.4.1` from
the cu121 index leaves there, with the sizes of the real thing:

- torch/lib/libtorch_cuda.so: an ELF file with the real DT_NEEDED list and
  RUNPATH, and a 1 GiB .nv_fatbin section of 5,000 containers (one per
  translation unit) of 8 entries each (SASS sm_50 to sm_90, PTX
  compute_90) whose payloads are holes;
- torch/lib/libtorch_cpu.so and the nvidia-* wheels' libraries as ELF
  headers padded with holes to their real sizes;
- dist-info directories with METADATA, INSTALLER and a 15,000-line RECORD.

Files are sparse: about 2.6 GB in apparent size, a few MB on disk. Nothing
here is copied from PyTorch; names and sizes are those a reader of a real
install sees with `ls -l` and `readelf -d`.
"""
import os
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
SASS, PTX = 2, 1
GIB = 1 << 30

# sonames libtorch_cuda.so 2.4.1+cu121 needs (readelf -d of the wheel)
NEEDED = [
    "libc10_cuda.so", "libcudart.so.12", "libcusparse.so.12", "libcufft.so.11", "libcurand.so.10",
    "libcublas.so.12", "libcublasLt.so.12", "libcudnn.so.9", "libnccl.so.2", "libnvToolsExt.so.1",
    "libtorch_cpu.so", "libc10.so", "libgomp.so.1", "libstdc++.so.6", "libm.so.6", "libgcc_s.so.1",
    "libc.so.6", "ld-linux-x86-64.so.2",
]
WHEELS = [  # (dist name, version, package dir, {library: apparent size})
    ("nvidia_cuda_runtime_cu12", "12.1.105", "cuda_runtime", {"libcudart.so.12": 700_000}),
    ("nvidia_cublas_cu12", "12.1.3.1", "cublas",
     {"libcublas.so.12": 107_000_000, "libcublasLt.so.12": 500_000_000, "libnvblas.so.12": 750_000}),
    ("nvidia_cudnn_cu12", "9.1.0.70", "cudnn", {"libcudnn.so.9": 120_000,
     "libcudnn_engines_precompiled.so.9": 580_000_000, "libcudnn_adv.so.9": 250_000_000}),
    ("nvidia_cufft_cu12", "11.0.2.54", "cufft", {"libcufft.so.11": 190_000_000}),
    ("nvidia_curand_cu12", "10.3.2.106", "curand", {"libcurand.so.10": 96_000_000}),
    ("nvidia_cusparse_cu12", "12.1.0.106", "cusparse", {"libcusparse.so.12": 200_000_000}),
    ("nvidia_nccl_cu12", "2.20.5", "nccl", {"libnccl.so.2": 230_000_000}),
    ("nvidia_nvtx_cu12", "12.1.105", "nvtx", {"libnvToolsExt.so.1": 40_000}),
]


def elf(path, needed, runpath, fat_entries=None, apparent=0):
    """An ELF64 shared object: .shstrtab, .dynstr, .dynamic and, given entries, .nv_fatbin."""
    names = b"\0.shstrtab\0.dynstr\0.dynamic\0.nv_fatbin\0"
    dynstr = b"\0"
    offs = []
    for s in needed + ([runpath] if runpath else []):
        offs.append(len(dynstr))
        dynstr += s.encode() + b"\0"
    dyn = b"".join(struct.pack("<QQ", 1, o) for o in offs[:len(needed)])
    if runpath:
        dyn += struct.pack("<QQ", 29, offs[-1])
    dyn += struct.pack("<QQ", 10, len(dynstr)) + struct.pack("<QQ", 0, 0)
    base = 0x400000
    phoff, shstr = 64, 64 + 56
    dynstr_off = shstr + len(names)
    dyn_off = (dynstr_off + len(dynstr) + 7) & ~7
    fat_off = (dyn_off + len(dyn) + 4095) & ~4095
    with open(path, "wb") as f:
        f.seek(fat_off)
        fat_size = 0
        if fat_entries:
            # one container per translation unit, holding its kernels for each architecture
            for start in range(0, len(fat_entries), 8):
                chunk = fat_entries[start:start + 8]
                cstart = f.tell()
                body = sum(64 + p for _, _, p in chunk)
                f.write(struct.pack("<IHHQ", FATBIN_MAGIC, 1, 16, body))
                for kind, arch, payload in chunk:
                    f.write(struct.pack("<HHIQIIHHI", kind, 0x0101, 64, payload, payload, 0, 8, 1, arch))
                    f.write(b"\0" * 32)
                    f.seek(payload, os.SEEK_CUR)  # the code itself: a hole
                end = f.tell()
                f.seek((end + 7) & ~7)
            fat_size = f.tell() - fat_off
        shoff = (fat_off + fat_size + 7) & ~7
        nsec = 5 if fat_entries else 4
        f.seek(shoff)

        def shdr(name, typ, off, size, link=0):
            f.write(struct.pack("<IIQQQQIIQQ", name, typ, 0, base + off, off, size, link, 0, 8, 16 if typ == 6 else 0))
        f.write(b"\0" * 64)
        shdr(1, 3, shstr, len(names))
        shdr(11, 3, dynstr_off, len(dynstr))
        shdr(19, 6, dyn_off, len(dyn), 2)
        if fat_entries:
            shdr(28, 1, fat_off, fat_size)
        end = f.tell()
        if apparent > end:
            f.truncate(apparent)
        f.seek(0)
        f.write(b"\x7fELF" + bytes([2, 1, 1]) + b"\0" * 9)
        f.write(struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, phoff, shoff, 0, 64, 56, 1, 64, nsec, 1))
        f.write(struct.pack("<IIQQQQQQ", 2, 4, dyn_off, base + dyn_off, base + dyn_off, len(dyn), len(dyn), 8))
        f.write(names)
        f.write(dynstr)
        f.seek(dyn_off)
        f.write(dyn)


def fat_entries():
    """40,000 entries, 1 GiB of payload: SASS for 7 architectures and PTX for the newest."""
    archs = [(SASS, a) for a in (50, 60, 70, 75, 80, 86, 90)] + [(PTX, 90)]
    n = 40_000
    payload = (GIB // n) & ~7
    return [(archs[i % len(archs)][0], archs[i % len(archs)][1], payload) for i in range(n)]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def dist_info(site, name, version, files, installer="pip"):
    d = os.path.join(site, "%s-%s.dist-info" % (name, version))
    write(os.path.join(d, "METADATA"), "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, version))
    write(os.path.join(d, "INSTALLER"), installer + "\n")
    write(os.path.join(d, "RECORD"), "".join("%s,sha256=%s,%d\n" % (p, "x" * 43, 1000) for p in files))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = os.path.abspath(sys.argv[1])
    venv = os.path.join(root, "venv")
    pyver = "%d.%d" % sys.version_info[:2]
    site = os.path.join(venv, "lib", "python" + pyver, "site-packages")
    os.makedirs(os.path.join(venv, "bin"), exist_ok=True)
    write(os.path.join(venv, "pyvenv.cfg"), "home = %s\ninclude-system-site-packages = false\nversion = %s\n"
          % (os.path.dirname(os.path.realpath(sys.executable)), pyver))
    link = os.path.join(venv, "bin", "python3")
    if not os.path.lexists(link):
        os.symlink(os.path.realpath(sys.executable), link)

    torch = os.path.join(site, "torch")
    write(os.path.join(torch, "__init__.py"), "")
    write(os.path.join(torch, "version.py"),
          "__version__ = '2.4.1+cu121'\ndebug = False\ncuda = '12.1'\ngit_version = '38b96d3399a695e704ed39b60dac733c3fbf20e2'\nhip = None\n")
    lib = os.path.join(torch, "lib")
    os.makedirs(lib, exist_ok=True)
    runpath = ":".join("$ORIGIN/../../nvidia/%s/lib" % w[2] for w in WHEELS) + ":$ORIGIN"
    elf(os.path.join(lib, "libtorch_cuda.so"), NEEDED, runpath, fat_entries())
    elf(os.path.join(lib, "libtorch_cpu.so"), ["libc10.so", "libgomp.so.1", "libc.so.6"], "$ORIGIN",
        apparent=500_000_000)
    for small in ("libc10.so", "libc10_cuda.so", "libtorch.so", "libtorch_python.so", "libgomp.so.1"):
        elf(os.path.join(lib, small), ["libc.so.6"], "$ORIGIN", apparent=1_500_000)
    # the Python side of torch: thousands of small files, as in the real wheel
    records = []
    for i in range(15_000):
        rel = "torch/_sub%02d/m%05d.py" % (i % 60, i)
        records.append(rel)
        if i < 3000:  # enough real files to make the tree look like one; RECORD lists all
            write(os.path.join(site, rel), "")
    dist_info(site, "torch", "2.4.1+cu121", records)
    for name, version, pkg, libs in WHEELS:
        d = os.path.join(site, "nvidia", pkg, "lib")
        os.makedirs(d, exist_ok=True)
        for soname, size in libs.items():
            elf(os.path.join(d, soname), ["libc.so.6"], "$ORIGIN", apparent=size)
        write(os.path.join(site, "nvidia", pkg, "__init__.py"), "")
        dist_info(site, name, version, ["nvidia/%s/lib/%s" % (pkg, s) for s in libs])
    print(venv)


if __name__ == "__main__":
    main()
