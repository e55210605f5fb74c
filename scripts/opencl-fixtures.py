#!/usr/bin/python3
"""Regenerates the OpenCL differential corpus under corpus/opencl/.

For every kernel corpus/opencl/kernels/K.cl and every device (dg2, pvc) this compiles K with ocloc, keeping the zebin
(corpus/opencl/<device>/K/program.bin) and IGC's dumps of the kernel's vISA (`dump/*.visaasm`) and vISA object
(`dump/*.isa`). For every case in CASES it writes the inputs and the reference outputs as .npy files and a launch
description (corpus/opencl/cases/K/launch.json). The reference is PoCL (the CPU OpenCL implementation) unless the
case says "numpy" (sub-group cases: PoCL has no sub-groups, and the sub-group size is the compiler's SIMD width).

Usage: /usr/bin/python3 scripts/opencl-fixtures.py [--check] [KERNEL...]
  --check  regenerate into a temporary directory and fail when the checked-in corpus differs.
Needs ocloc (intel-opencl-icd), PoCL (pocl-opencl-icd) and pyopencl (python3-pyopencl).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus", "opencl")
DEVICES = ["dg2", "pvc"]


def rng(name):
    return np.random.RandomState(abs(hash_name(name)) % (2**31))


def hash_name(name):
    h = 2166136261
    for ch in name.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h


# Argument helpers: ("buf", array) input/output buffer, ("out", dtype, count) zero-filled output buffer,
# ("scalar", type, value), ("local", bytes), ("struct", bytes).
def buf(a):
    return ("buf", np.ascontiguousarray(a))


def out(dtype, n, fill=0):
    return ("buf", np.full(n, fill, dtype=dtype))


def scalar(ty, v):
    return ("scalar", ty, v)


def local(nbytes):
    return ("local", nbytes)


SCALAR_DTYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16, "int": np.int32,
                 "uint": np.uint32, "long": np.int64, "ulong": np.uint64, "float": np.float32, "double": np.float64}


def f32(r, n, lo=-4.0, hi=4.0):
    return r.uniform(lo, hi, n).astype(np.float32)


def i32(r, n, lo=-1000, hi=1000):
    return r.randint(lo, hi, n).astype(np.int32)


def u32(r, n):
    return r.randint(0, 2**32, n, dtype=np.uint64).astype(np.uint32)


def special_floats(r, n):
    base = np.array([0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 255.5, 256.0, -129.0, 127.5, 1e10, -1e10, np.inf, -np.inf,
                     np.nan, 1e-40, -1e-40, 3.4e38, 0.49999997, 65504.0, 70000.0], dtype=np.float32)
    rest = r.uniform(-300, 300, n - len(base)).astype(np.float32)
    return np.concatenate([base, rest])


def cases():
    """Each case: kernel name -> dict(global, local, args (ordered name -> spec), outputs {name: ulp}, reference)."""
    c = {}
    r = rng("saxpy")
    c["saxpy"] = dict(glob=[1024], loc=[64], args=dict(x=buf(f32(r, 1024)), y=buf(f32(r, 1024)),
                                                      a=scalar("float", 1.75)), outputs=dict(y=0))
    r = rng("vec_add_int")
    c["vec_add_int"] = dict(glob=[512], loc=None, args=dict(a=buf(i32(r, 512, -2**31, 2**31 - 1)),
                                                            b=buf(i32(r, 512, -2**31, 2**31 - 1)),
                                                            c=out(np.int32, 512)), outputs=dict(c=0))
    r = rng("matmul")
    c["matmul_naive"] = dict(glob=[32, 16], loc=[16, 4], args=dict(A=buf(f32(r, 16 * 24)), B=buf(f32(r, 24 * 32)),
                                                                  C=out(np.float32, 16 * 32),
                                                                  K=scalar("int", 24), N=scalar("int", 32)),
                             outputs=dict(C=0))
    r = rng("matmul_tiled")
    c["matmul_tiled"] = dict(glob=[32, 16], loc=[8, 8], args=dict(A=buf(f32(r, 16 * 24)), B=buf(f32(r, 24 * 32)),
                                                                 C=out(np.float32, 16 * 32),
                                                                 K=scalar("int", 24), N=scalar("int", 32)),
                             outputs=dict(C=0))
    r = rng("matvec")
    c["matvec"] = dict(glob=[64], loc=[32], args=dict(M=buf(f32(r, 64 * 40)), v=buf(f32(r, 40)),
                                                     out=out(np.float32, 64), cols=scalar("int", 40)),
                       outputs=dict(out=0))
    r = rng("transpose")
    c["transpose_local"] = dict(glob=[64, 32], loc=[16, 16], args=dict(**{"in": buf(f32(r, 64 * 32))},
                                                                      out=out(np.float32, 64 * 32),
                                                                      width=scalar("int", 64),
                                                                      height=scalar("int", 32)),
                                outputs=dict(out=0))
    r = rng("stencil")
    c["stencil_1d"] = dict(glob=[256], loc=[64], args=dict(**{"in": buf(f32(r, 256))}, out=out(np.float32, 256),
                                                          buf=local(66 * 4), n=scalar("int", 256)),
                           outputs=dict(out=0))
    r = rng("jacobi")
    c["jacobi_2d"] = dict(glob=[32, 16], loc=[16, 2], args=dict(**{"in": buf(f32(r, 32 * 16))},
                                                               out=out(np.float32, 32 * 16),
                                                               w=scalar("int", 32), h=scalar("int", 16)),
                          outputs=dict(out=0))
    r = rng("conv")
    c["conv3x3_int"] = dict(glob=[32, 16], loc=[16, 1], args=dict(img=buf(r.randint(0, 256, 512).astype(np.uint8)),
                                                                 out=out(np.uint16, 512),
                                                                 w=scalar("int", 32), h=scalar("int", 16)),
                            outputs=dict(out=0))
    r = rng("reduce")
    c["reduce_sum_int"] = dict(glob=[512], loc=[64], args=dict(**{"in": buf(i32(r, 512))},
                                                              partial=out(np.int32, 8), scratch=local(64 * 4)),
                               outputs=dict(partial=0))
    r = rng("reduce_max")
    c["reduce_max_float"] = dict(glob=[256], loc=[64], args=dict(**{"in": buf(f32(r, 256, -100, 100))},
                                                                partial=out(np.float32, 4)),
                                 outputs=dict(partial=0))
    r = rng("scan_hs")
    c["scan_hillis_steele"] = dict(glob=[256], loc=[128], args=dict(**{"in": buf(i32(r, 256))},
                                                                   out=out(np.int32, 256)), outputs=dict(out=0))
    r = rng("scan_bl")
    c["scan_blelloch"] = dict(glob=[128], loc=[64], args=dict(**{"in": buf(u32(r, 256) % 1000)},
                                                             out=out(np.uint32, 256), t=local(128 * 4)),
                              outputs=dict(out=0))
    r = rng("atomic_counter")
    c["atomic_counter"] = dict(glob=[1000], loc=[40], args=dict(**{"in": buf(i32(r, 1000))}, count=out(np.int32, 1),
                                                               sum=out(np.int32, 1)),
                               outputs=dict(count=0, sum=0))
    r = rng("hist")
    c["histogram_local"] = dict(glob=[256], loc=[64], args=dict(data=buf(r.randint(0, 256, 2000).astype(np.uint8)),
                                                               hist=out(np.uint32, 64), n=scalar("int", 2000)),
                                outputs=dict(hist=0))
    r = rng("minmax")
    c["atomic_minmax"] = dict(glob=[512], loc=[64], args=dict(**{"in": buf(i32(r, 512, -10**6, 10**6))},
                                                             mn=out(np.int32, 1, 2**31 - 1),
                                                             mx=out(np.int32, 1, -2**31),
                                                             orx=out(np.uint32, 1), xchg_seen=out(np.int32, 1)),
                              outputs=dict(mn=0, mx=0, orx=0, xchg_seen=0))
    r = rng("bitonic")
    c["bitonic_sort_local"] = dict(glob=[256], loc=[128], args=dict(data=buf(i32(r, 256))), outputs=dict(data=0))
    r = rng("rank")
    c["rank_sort"] = dict(glob=[128], loc=[32], args=dict(**{"in": buf(np.round(f32(r, 128, -50, 50)))},
                                                         out=out(np.float32, 128), n=scalar("int", 128)),
                          outputs=dict(out=0))
    r = rng("intb")
    c["int_builtins"] = dict(glob=[128], loc=[32], args=dict(a=buf(u32(r, 128)), b=buf(u32(r, 128)),
                                                            out=out(np.uint32, 8 * 128)), outputs=dict(out=0))
    r = rng("divmod")
    b = i32(r, 256, -5000, 5000)
    b[b == 0] = 7
    a = i32(r, 256, -2**31 + 1, 2**31 - 1)
    a[:8] = [0, 1, -1, 2**31 - 1, -2**31 + 1, 5000, -5000, 12345]
    c["int_div_mod"] = dict(glob=[256], loc=[64], args=dict(a=buf(a), b=buf(b), q=out(np.int32, 256),
                                                           r=out(np.int32, 256), uq=out(np.uint32, 256)),
                            outputs=dict(q=0, r=0, uq=0))
    r = rng("i64")
    c["int64_arith"] = dict(glob=[128], loc=[32], args=dict(
        a=buf(r.randint(-2**62, 2**62, 128, dtype=np.int64)), b=buf(r.randint(-2**40, 2**40, 128, dtype=np.int64)),
        out=out(np.int64, 6 * 128)), outputs=dict(out=0))
    r = rng("i64div")
    bb = r.randint(-2**33, 2**33, 128, dtype=np.int64)
    bb[bb == 0] = 3
    bb[:4] = [1, -1, 7, 2**32 + 1]
    c["int64_div"] = dict(glob=[128], loc=[32], args=dict(a=buf(r.randint(-2**62, 2**62, 128, dtype=np.int64)),
                                                         b=buf(bb), q=out(np.int64, 128), ur=out(np.uint64, 128)),
                          outputs=dict(q=0, ur=0))
    r = rng("small")
    c["small_int_types"] = dict(glob=[256], loc=[64], args=dict(a=buf(r.randint(-128, 128, 256).astype(np.int8)),
                                                               b=buf(r.randint(-2**15, 2**15, 256).astype(np.int16)),
                                                               c=out(np.uint8, 256), d=out(np.int16, 256)),
                                outputs=dict(c=0, d=0))
    r = rng("csat")
    c["convert_sat"] = dict(glob=[128], loc=[32], args=dict(
        f=buf(special_floats(r, 128)), n=buf(i32(r, 128, -2**31, 2**31 - 1)), u8=out(np.uint8, 128),
        s8=out(np.int8, 128), s16=out(np.int16, 128), s32=out(np.int32, 128), u16=out(np.uint16, 128)),
        outputs=dict(u8=0, s8=0, s16=0, s32=0, u16=0))
    r = rng("cround")
    fr = special_floats(r, 128)
    fr[np.isnan(fr) | np.isinf(fr) | (np.abs(fr) > 2e9)] = 0.5
    c["convert_rounding"] = dict(glob=[128], loc=[32], args=dict(
        f=buf(fr), n=buf(i32(r, 128, -2**31, 2**31 - 1)), out=out(np.int32, 4 * 128), fo=out(np.float32, 2 * 128)),
        outputs=dict(out=0, fo=0))
    r = rng("half")
    c["half_convert"] = dict(glob=[128], loc=[32], args=dict(f=buf(special_floats(r, 128)), h=out(np.float16, 128),
                                                            back=out(np.float32, 128)),
                             outputs=dict(h=0, back=0))
    r = rng("explog")
    c["math_exp_log"] = dict(glob=[256], loc=[64], args=dict(x=buf(f32(r, 256, -20, 20)), e=out(np.float32, 256),
                                                            lg=out(np.float32, 256), l2=out(np.float32, 256)),
                             outputs=dict(e=6, lg=6, l2=8))
    r = rng("trig")
    c["math_trig"] = dict(glob=[256], loc=[64], args=dict(x=buf(f32(r, 256, -10, 10)), s=out(np.float32, 256),
                                                         c=out(np.float32, 256), t=out(np.float32, 256)),
                          outputs=dict(s=8, c=8, t=12))
    r = rng("sqrtdiv")
    c["math_sqrt_div"] = dict(glob=[256], loc=[64], args=dict(a=buf(f32(r, 256, 0.001, 1000)),
                                                             b=buf(f32(r, 256, 0.5, 50)), s=out(np.float32, 256),
                                                             q=out(np.float32, 256), r=out(np.float32, 256)),
                              outputs=dict(s=6, q=5, r=4))
    r = rng("pow")
    c["math_pow"] = dict(glob=[256], loc=[64], args=dict(a=buf(f32(r, 256, 0.1, 4)), b=buf(f32(r, 256, -3, 3)),
                                                        p=out(np.float32, 256)), outputs=dict(p=34))
    r = rng("fma")
    c["fma_exact"] = dict(glob=[256], loc=[64], args=dict(a=buf(f32(r, 256, -1e3, 1e3)), b=buf(f32(r, 256, -10, 10)),
                                                         c=buf(f32(r, 256, -1e4, 1e4)), out=out(np.float32, 6 * 256)),
                          outputs=dict(out=0))
    r = rng("v4")
    c["vector_float4"] = dict(glob=[128], loc=[32], args=dict(a=buf(f32(r, 512)), b=buf(f32(r, 512)),
                                                             out=out(np.float32, 512), d=out(np.float32, 128)),
                              outputs=dict(out=0, d=0))
    r = rng("v8")
    c["vector_int_swizzle"] = dict(glob=[64], loc=[16], args=dict(a=buf(i32(r, 512, -400, 400)),
                                                                 lo=out(np.int32, 256), hi=out(np.int32, 256),
                                                                 packed=out(np.uint8, 256)),
                                   outputs=dict(lo=0, hi=0, packed=0))
    r = rng("v3")
    c["vload_vstore"] = dict(glob=[96], loc=[32], args=dict(**{"in": buf(f32(r, 288))}, out=out(np.float32, 288)),
                             outputs=dict(out=0))
    r = rng("collatz")
    c["collatz_divergent"] = dict(glob=[256], loc=[64], args=dict(start=buf((u32(r, 256) % 100000 + 1)),
                                                                 steps=out(np.uint32, 256)), outputs=dict(steps=0))
    r = rng("branches")
    c["divergent_branches"] = dict(glob=[256], loc=[64], args=dict(**{"in": buf(i32(r, 256, -300, 300))},
                                                                  out=out(np.int32, 256)), outputs=dict(out=0))
    c["mandelbrot"] = dict(glob=[64, 32], loc=[16, 4], args=dict(iters=out(np.int32, 64 * 32), w=scalar("int", 64),
                                                                h=scalar("int", 32), maxit=scalar("int", 64)),
                           outputs=dict(iters=0))
    r = rng("sgred")
    c["subgroup_reduce"] = dict(glob=[128], loc=[64], args=dict(**{"in": buf(i32(r, 128))}, sums=out(np.int32, 128),
                                                               maxs=out(np.int32, 128)),
                                outputs=dict(sums=0, maxs=0), reference="numpy")
    r = rng("sgshuf")
    c["subgroup_shuffle"] = dict(glob=[128], loc=[64], args=dict(**{"in": buf(f32(r, 128))}, out=out(np.float32, 128),
                                                                lane=out(np.uint32, 128)),
                                 outputs=dict(out=0, lane=0), reference="numpy")
    r = rng("sgscan")
    c["subgroup_scan"] = dict(glob=[128], loc=[64], args=dict(**{"in": buf(i32(r, 128))}, inc=out(np.int32, 128),
                                                             exc=out(np.int32, 128)),
                              outputs=dict(inc=0, exc=0), reference="numpy")
    r = rng("select")
    c["select_clamp"] = dict(glob=[256], loc=[64], args=dict(a=buf(f32(r, 256, -3, 3)), b=buf(i32(r, 256, -100, 100)),
                                                            f=out(np.float32, 256), n=out(np.int32, 256)),
                             outputs=dict(f=0, n=0))
    r = rng("gray")
    c["rgba_to_gray"] = dict(glob=[256], loc=[64], args=dict(px=buf(r.randint(0, 256, 1024).astype(np.uint8)),
                                                            gray=out(np.uint8, 256)), outputs=dict(gray=0))
    r = rng("nbody")
    pos = f32(r, 4 * 64, -5, 5)
    pos[3::4] = np.abs(pos[3::4])
    c["nbody_step"] = dict(glob=[64], loc=[32], args=dict(pos=buf(pos), acc=out(np.float32, 4 * 64),
                                                         n=scalar("int", 64)), outputs=dict(acc=256))
    c["work_item_ids"] = dict(glob=[48, 6], loc=[16, 3], args=dict(out=out(np.uint32, 10 * 48 * 6)),
                              outputs=dict(out=0))
    c["ids_3d"] = dict(glob=[16, 4, 4], loc=[8, 2, 2], args=dict(out=out(np.int32, 256)), outputs=dict(out=0))
    r = rng("partial")
    c["partial_group"] = dict(glob=[96], loc=[24], args=dict(**{"in": buf(i32(r, 96))}, out=out(np.int32, 96)),
                              outputs=dict(out=0))
    r = rng("xorshift")
    c["xorshift_hash"] = dict(glob=[256], loc=[64], args=dict(seed=buf(u32(r, 256)), out=out(np.uint32, 256),
                                                             rounds=scalar("int", 9)), outputs=dict(out=0))
    r = rng("struct")
    params = np.zeros(1, dtype=np.dtype([("scale", np.float32), ("offset", np.int32), ("bias", np.float32)]))
    params[0] = (0.75, -12, 3.5)
    c["struct_by_value"] = dict(glob=[128], loc=[32], args=dict(**{"in": buf(i32(r, 128))}, out=out(np.float32, 128),
                                                               p=("struct", params.tobytes())), outputs=dict(out=0))
    r = rng("fbits")
    c["float_compare_bits"] = dict(glob=[128], loc=[32], args=dict(a=buf(special_floats(r, 128)),
                                                                  out=out(np.uint32, 128)), outputs=dict(out=0))
    r = rng("pbits")
    c["prefix_bits"] = dict(glob=[256], loc=[64], args=dict(flags=buf(u32(r, 256)), pos=out(np.uint32, 256),
                                                           total=out(np.uint32, 1)), outputs=dict(pos=0, total=0))
    r = rng("lacc")
    c["long_accumulate"] = dict(glob=[256], loc=[64], args=dict(a=buf(u32(r, 256)), out=out(np.uint64, 256)),
                                outputs=dict(out=0))
    r = rng("xchg")
    c["atomic_xchg_local"] = dict(glob=[256], loc=[64], args=dict(**{"in": buf(i32(r, 256))},
                                                                 out=out(np.int32, 256)), outputs=dict(out=0))
    return c


def numpy_reference(name, args):
    """Expected outputs of the sub-group cases, for sub-groups of 16 lanes (the kernels require that size)."""
    x = args["in"][1]
    g = x.reshape(-1, 16)
    if name == "subgroup_reduce":
        return dict(sums=np.repeat(g.sum(axis=1, dtype=np.int64).astype(np.int32), 16),
                    maxs=np.repeat(g.max(axis=1), 16))
    if name == "subgroup_shuffle":
        lanes = np.arange(16)
        shuffled = g[:, (lanes + 3) & 15] + g[:, 5:6]
        lane_ids = np.tile(lanes, g.shape[0]) + 100 * (np.arange(x.size) % 64 // 16)
        return dict(out=shuffled.reshape(-1).astype(np.float32), lane=lane_ids.astype(np.uint32))
    if name == "subgroup_scan":
        inc = np.cumsum(g, axis=1, dtype=np.int64).astype(np.int32)
        exc = np.maximum.accumulate(np.concatenate([np.full((g.shape[0], 1), -2**31, np.int64), g[:, :-1]], axis=1),
                                    axis=1).astype(np.int32)
        return dict(inc=inc.reshape(-1), exc=exc.reshape(-1))
    raise ValueError(name)


def pocl_reference(name, case, source):
    import pyopencl as cl
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, source).build()
    kernel = getattr(prg, name)
    mf = cl.mem_flags
    values, buffers = [], {}
    for arg_name, spec in case["args"].items():
        if spec[0] == "buf":
            b = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=spec[1])
            buffers[arg_name] = (b, spec[1])
            values.append(b)
        elif spec[0] == "scalar":
            values.append(SCALAR_DTYPES[spec[1]](spec[2]))
        elif spec[0] == "local":
            values.append(cl.LocalMemory(spec[1]))
        elif spec[0] == "struct":
            values.append(np.frombuffer(spec[1], dtype=np.uint8))
    kernel.set_args(*values)
    cl.enqueue_nd_range_kernel(queue, kernel, case["glob"], case["loc"])
    result = {}
    for arg_name in case["outputs"]:
        b, host = buffers[arg_name]
        res = np.empty_like(host)
        cl.enqueue_copy(queue, res, b)
        result[arg_name] = res
    queue.finish()
    return result


def compile_kernel(name, device, root):
    src = os.path.join(ROOT, "kernels", name + ".cl")
    dest = os.path.join(root, device, name)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(os.path.join(dest, "dump"))
    # A fixed directory: IGC records the dump path in the .isa files, which must not change from run to run.
    tmp = os.path.join(tempfile.gettempdir(), "visa-opencl-fixtures", device, name)
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir=os.path.join(tmp, "dump"))
    subprocess.run(["ocloc", "compile", "-file", src, "-device", device, "--format", "zebin", "-output", name,
                    "-out_dir", tmp, "-q"], env=env, check=True, stdout=subprocess.DEVNULL)
    bins = [f for f in os.listdir(tmp) if f.endswith(".bin")]
    if len(bins) != 1:
        raise RuntimeError(f"{name} {device}: expected one zebin, found {bins}")
    shutil.copy(os.path.join(tmp, bins[0]), os.path.join(dest, "program.bin"))
    kept = 0
    for f in sorted(os.listdir(os.path.join(tmp, "dump"))):
        if f.endswith(".visaasm") or (f.endswith(".isa") and "_entry_" in f):
            shutil.copy(os.path.join(tmp, "dump", f), os.path.join(dest, "dump", f))
            kept += f.endswith(".visaasm")
    if kept == 0:
        raise RuntimeError(f"{name} {device}: IGC dumped no .visaasm")
    shutil.rmtree(tmp, ignore_errors=True)


def write_case(name, case, root):
    src = open(os.path.join(ROOT, "kernels", name + ".cl")).read()
    dest = os.path.join(root, "cases", name)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    args = []
    for arg_name, spec in case["args"].items():
        if spec[0] == "buf":
            np.save(os.path.join(dest, f"in_{arg_name}.npy"), spec[1])
            args.append(dict(name=arg_name, buffer=f"in_{arg_name}.npy"))
        elif spec[0] == "scalar":
            args.append(dict(name=arg_name, type=spec[1], value=spec[2]))
        elif spec[0] == "local":
            args.append(dict(name=arg_name, local=spec[1]))
        elif spec[0] == "struct":
            args.append(dict(name=arg_name, bytes=spec[1].hex()))
    reference = case.get("reference", "pocl")
    expected = numpy_reference(name, case["args"]) if reference == "numpy" else pocl_reference(name, case, src)
    compare = {}
    for arg_name, ulp in case["outputs"].items():
        np.save(os.path.join(dest, f"expected_{arg_name}.npy"), expected[arg_name])
        compare[arg_name] = dict(file=f"expected_{arg_name}.npy", ulp=ulp)
    launch = dict(kernel=name, source=f"../../kernels/{name}.cl", reference=reference, global_size=case["glob"],
                  local_size=case["loc"], args=args, compare=compare)
    with open(os.path.join(dest, "launch.json"), "w") as f:
        json.dump(launch, f, indent=1)
        f.write("\n")


def main(argv):
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")]
    all_cases = cases()
    kernels = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "kernels")) if f.endswith(".cl"))
    missing = [k for k in kernels if k not in all_cases]
    if missing:
        raise SystemExit(f"kernels without a case: {missing}")
    names = names or kernels
    root = tempfile.mkdtemp() if check else ROOT
    for name in names:
        for device in DEVICES:
            compile_kernel(name, device, root)
        write_case(name, all_cases[name], root)
        print(name, file=sys.stderr)
    if check:
        stale = []
        for name in names:
            for part in DEVICES + ["cases"]:
                # The .isa dumps are left out: IGC 1.0.12504 writes instruction streams with bytes it never
                # sets (docs/igc-differences.md, spec/OBJECT_FORMAT.md), so they differ from run to run.
                diff = subprocess.run(["diff", "-r", "-q", "-x", "*.isa",
                                       os.path.join(root, part, name), os.path.join(ROOT, part, name)],
                                      capture_output=True, text=True)
                stale += diff.stdout.splitlines() + diff.stderr.splitlines()
        shutil.rmtree(root)
        if stale:
            print("\n".join(stale))
            raise SystemExit("the OpenCL corpus is stale: run scripts/opencl-fixtures.py")

if __name__ == "__main__":
    main(sys.argv[1:])
