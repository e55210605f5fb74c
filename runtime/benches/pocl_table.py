#!/usr/bin/env python3
"""Times OpenCL kernels on PoCL for runtime/benches/table.rs (issue 29's one table).

Usage: pocl_table.py SPEC.json, with POCL_MAX_PTHREAD_COUNT set to the thread count (PoCL 3.1's
pthread device reads that variable; POCL_CPU_MAX_CU_COUNT does not change its compute units).

SPEC.json: {"out_dir": DIR, "kernels": [{"kernel", "source" (.cl path), "global", "local" (or
null), "args": [{"name", "buffer": NPY} | {"name", "type": OpenCL scalar type, "bytes": [..]}],
"outputs": [arg names]}]}.

Prints JSON lines: first {"device", "compute_units"}, then per kernel {"kernel", "median_s",
"event_median_s", "runs"}: the wall time of enqueue_nd_range_kernel + finish (the program built
and the buffers written beforehand) and the kernel's time from profiling events. After the first
launch, each output buffer is written to OUT_DIR/<kernel>_<name>_out<threads>.npy so that the
benchmark checks PoCL's results. Without numpy, pyopencl or a PoCL platform it prints
{"skip": reason} and exits with 0.
"""

import json
import os
import statistics
import sys
import time

# Timing: at least MIN_RUNS launches, more while under SECONDS, at most MAX_RUNS.
MIN_RUNS = 5
MAX_RUNS = 200
SECONDS = 1.0

DTYPES = {
    "char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16", "int": "int32",
    "uint": "uint32", "long": "int64", "ulong": "uint64", "half": "float16", "float": "float32",
    "double": "float64",
}


def emit(value):
    print(json.dumps(value), flush=True)


def main():
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    try:
        import numpy as np
        import pyopencl as cl
    except ImportError as e:
        emit({"skip": f"{sys.executable}: numpy or pyopencl not importable ({e})"})
        return
    platforms = [p for p in cl.get_platforms() if "pocl" in (p.name + p.version).lower()
                 or "portable computing language" in p.name.lower()]
    devices = [d for p in platforms for d in p.get_devices()]
    if not devices:
        emit({"skip": "no PoCL platform with a device"})
        return
    device = devices[0]
    threads = os.environ.get("POCL_MAX_PTHREAD_COUNT", "")
    version = " ".join(device.platform.version.split(",")[0].split())
    emit({"device": f"{version}, {device.name}",
          "compute_units": device.max_compute_units})
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
    for case in spec["kernels"]:
        with open(case["source"]) as f:
            program = cl.Program(ctx, f.read()).build()
        kernel = getattr(program, case["kernel"])
        args, buffers = [], {}
        for arg in case["args"]:
            if "buffer" in arg:
                host = np.load(arg["buffer"])
                buffer = cl.Buffer(ctx, flags, hostbuf=host)
                buffers[arg["name"]] = (buffer, host)
                args.append(buffer)
            else:
                raw = bytes(arg["bytes"])
                args.append(np.frombuffer(raw, dtype=DTYPES[arg["type"]])[0])
        kernel.set_args(*args)
        global_size = tuple(case["global"])
        local_size = tuple(case["local"]) if case["local"] else None
        cl.enqueue_nd_range_kernel(queue, kernel, global_size, local_size)
        queue.finish()
        for name in case["outputs"]:
            buffer, host = buffers[name]
            out = np.empty_like(host)
            cl.enqueue_copy(queue, out, buffer)
            queue.finish()
            np.save(os.path.join(spec["out_dir"], f"{case['kernel']}_{name}_out{threads}.npy"),
                    out)
        walls, events = [], []
        start = time.perf_counter()
        while len(walls) < MIN_RUNS or (len(walls) < MAX_RUNS
                                        and time.perf_counter() - start < SECONDS):
            t0 = time.perf_counter()
            event = cl.enqueue_nd_range_kernel(queue, kernel, global_size, local_size)
            queue.finish()
            walls.append(time.perf_counter() - t0)
            events.append((event.profile.end - event.profile.start) * 1e-9)
        emit({"kernel": case["kernel"], "median_s": statistics.median(walls),
              "event_median_s": statistics.median(events), "runs": len(walls)})


if __name__ == "__main__":
    main()
