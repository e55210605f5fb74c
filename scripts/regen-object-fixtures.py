#!/usr/bin/env python3
"""Regenerates fixtures/object/: the Intel compiler's .isa files for our kernels.

genx/NAME.visaasm + NAME.isa: every `visaasm` example of spec/*.md (wrapped in a kernel with a
`.version 4.1` line when it is a snippet) and every examples/*.visaasm, assembled by
`GenX_IR NAME.visaasm -platform PVC -binary`; kernels GenX_IR rejects are left out (listed in
genx/REJECTED.txt). ocloc/: the .isa and .visaasm that ocloc dumps (IGC_ShaderDumpEnable) for
each fixtures/object/ocloc/*.cl on DG2. Needs GenX_IR and ocloc on PATH."""
import glob, os, re, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
genx = os.path.join(root, "fixtures/object/genx")
ocloc = os.path.join(root, "fixtures/object/ocloc")


def kernels():
    for doc in sorted(glob.glob(os.path.join(root, "spec/*.md"))):
        text = open(doc).read()
        blocks = re.findall(r"```visaasm\n(.*?)```", text, re.S)
        stem = os.path.basename(doc)[:-3].lower()
        for i, block in enumerate(blocks):
            if ".kernel" not in block:
                block = f'.kernel "{stem}_{i}"\n{block}ret (M1, 1)\n'
            if not block.lstrip().startswith(".version"):
                block = ".version 4.1\n" + block
            yield f"{stem}_{i}", block
    for path in sorted(glob.glob(os.path.join(root, "examples/*.visaasm"))):
        text = open(path).read()
        if ".version" not in text:
            text = ".version 4.1\n" + text
        yield os.path.basename(path)[:-8], text


def regen_genx():
    for old in glob.glob(os.path.join(genx, "*")):
        os.remove(old)
    os.makedirs(genx, exist_ok=True)
    rejected = []
    for name, text in kernels():
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, name + ".visaasm")
            open(src, "w").write(text)
            run = subprocess.run(["GenX_IR", src, "-platform", "PVC", "-binary"], cwd=tmp,
                                 capture_output=True, text=True, timeout=60)
            isa = os.path.join(tmp, name + ".isa")
            if run.returncode != 0 or not os.path.exists(isa):
                rejected.append(name)
                continue
            shutil.copy(src, genx)
            shutil.copy(isa, genx)
    open(os.path.join(genx, "REJECTED.txt"), "w").write("".join(n + "\n" for n in rejected))


def regen_ocloc():
    for cl in sorted(glob.glob(os.path.join(ocloc, "*.cl"))):
        stem = os.path.basename(cl)[:-3]
        for old in glob.glob(os.path.join(ocloc, stem + "_*")):
            os.remove(old)
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir=tmp)
            subprocess.run(["ocloc", "compile", "-file", cl, "-device", "dg2", "--format", "zebin",
                            "-output_no_suffix", "-out_dir", tmp], env=env, capture_output=True, timeout=300)
            for isa in sorted(glob.glob(os.path.join(tmp, "*.isa"))):
                kernel = re.search(r"_(simd\d+_entry_\d+)\.isa$", isa)
                if not kernel:
                    continue
                base = f"{stem}_{kernel.group(1)}"
                shutil.copy(isa, os.path.join(ocloc, base + ".isa"))
                shutil.copy(isa[:-4] + ".visaasm", os.path.join(ocloc, base + ".visaasm"))


if __name__ == "__main__":
    for tool in ("GenX_IR", "ocloc"):
        if shutil.which(tool) is None:
            sys.exit(f"error: {tool} is not installed")
    regen_genx()
    regen_ocloc()
