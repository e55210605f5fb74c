//! `visa-runtime`: executes vISA kernels on the CPU — a reference model of the SIMD machine, its
//! memory and its control flow.
//!
//! A parsed [`visa_isa::ast::Module`] is loaded once into a [`Program`]: declarations are laid
//! out in a per-thread register file and every instruction is decoded into a compact form with
//! byte offsets, strides, types and branch targets resolved. A [`Launch`] then runs the program
//! over a grid of thread groups with parameter, surface and SVM bindings.
//!
//! # Decisions where vISA leaves the choice to the implementation
//!
//! - **Threads.** A thread is one SIMD-N instance (N = [`Launch::simd`], 1..=32). Groups run in
//!   parallel (rayon); the threads of one group share the group's SLM and run cooperatively on
//!   one worker in barrier phases: each running thread, in thread order, runs until it reaches
//!   a `barrier` or ends, then the barrier is released (threads that ended are not waited
//!   for). A `barrier` reached while channels are parked by a divergent `goto` traps. `fence`
//!   (and `lsc_fence`) is a no-op: within a group one thread runs at a time, and groups only share memory
//!   through atomics. `wait` (no thread-space dependencies exist here; its UB mask is checked
//!   at load) and `yield` (a scheduling hint) are no-ops too. Results of race-free kernels are
//!   deterministic; when several groups trap, the lowest group's trap is reported.
//! - **Split barrier** (`sbarrier`, SBARRIER.md) uses the same group barrier as `barrier`,
//!   which is a signal followed by a wait. `sbarrier.signal` records the thread's arrival in
//!   the current phase and goes on; `sbarrier.wait` stops the thread until every thread of the
//!   group has ended or signalled that phase (it passes at once if the phase completed
//!   meanwhile, and counts as one executed instruction either way). Each thread alternates
//!   signal and wait: a wait without an outstanding signal, a second signal, or a `barrier`
//!   with a signal outstanding traps; so does either half in divergent control flow.
//! - **Named barriers** (`nbarrier`, 32 per group): a signal counts a producer arrival and/or
//!   joins the phase as a consumer; the arrival that reaches `Num_producers` completes the
//!   phase and frees the barrier. A consumer's wait on an incomplete phase stops the thread;
//!   blocked threads are run again (re-executing the wait, which counts as an executed
//!   instruction each time) until the group barrier's phase can complete (a named waiter that
//!   has not signalled it holds it up), and a round of retries that changes no named barrier
//!   traps as a deadlock. Disagreeing counts, bad ids/types and
//!   waits without a consumer signal trap (NBARRIER.md Notes).
//! - **Work-items.** Work-item `i` is lane `i % N` of thread `i / N`; every lane of every thread
//!   is dispatched (the dispatch mask `%sr0.2` and the initial execution mask are all N lanes)
//!   unless [`Launch::active_lanes`] gives an entry mask: then each thread's initial execution
//!   mask, `%sr0.2` and `%ce0` hold the lanes whose flag is true (set in one place, the thread
//!   start, which both engines run from). A disabled lane is one the hardware would start
//!   with its mask bit off: instructions under the mask neither write it nor access memory for
//!   it (SVM, surface and SLM gathers/scatters, atomics), while NoMask instructions run it (they
//!   ignore the execution mask) and block messages move their whole block. A thread with no
//!   active lane is not dispatched (it runs nothing and is not waited for at barriers).
//!   [`LaunchResult::vector`] does not require disabled lanes' elements to be defined and reads
//!   them as the register holds them (0 when never written), on both engines.
//! - **Predefined variables.** `%group_id_x` = group index, `%local_id_x` = index of the
//!   thread's first work-item in its group, `%local_size_x` = work-items per group,
//!   `%group_count_x` = groups, `%thread_x` = thread index in the group, `%hw_id` = global thread
//!   index, `%r0.1` = group id, `%sr0.2` = dispatch mask; `y`/`z` ids are 0 and sizes 1.
//!   `%ce0` holds the thread's execution mask before each instruction (not narrowed to the
//!   reading instruction's own channels), `%tsc` the number of instructions
//!   the thread has executed (deterministic). `%cr0` starts at 0 ([`Launch::cr0`] overrides).
//!   `%sp`/`%fp` are undefined. `%null` discards writes and reads as zero. Predefined names
//!   match in any case (`%SR0` is `%sr0`), as in the checker.
//! - **Undefined values are tracked.** Every register-file byte has a defined flag; reading an
//!   undefined byte (never written, the upper bytes of a 1/2-byte gather, the padding of a
//!   1-byte SVM gather) traps naming the variable, instruction and lane. Predicate bits are
//!   tracked the same way. Predicates are 32 bits wide whatever `num_elts` says (kernels write
//!   more bits than they declare).
//! - **Engines.** Threads run on compiled code ([`Engine::Jit`], Cranelift, the default on
//!   x86-64 and aarch64; `VISA_ENGINE=interp` or [`LoadOptions::engine`] choose the
//!   interpreter). A program is compiled on its first launch, to quick code, and again to
//!   optimised code for launches of [`HOT_EXECUTIONS`] executions per instruction (a loop's
//!   instructions counted [`LOOP_TRIPS`] times) or once it has run that many on quick code
//!   ([`JitTier`]); common instructions become
//!   native code and every other one a call of the interpreter's handler for it, so both engines
//!   share the decoded program and give identical results, traps and fuel accounting
//!   ([`Program::jit_report`] lists which instructions are native). The one difference: only the
//!   interpreter tracks undefined bytes. On compiled code every register byte starts defined
//!   (never-written bytes read as their initial zero, and no read traps as uninitialized), so
//!   the interpreter is the engine for checking a kernel. Programs that read `%tsc` (an
//!   instruction count) and programs longer than [`MAX_COMPILED_INSTRUCTIONS`] are interpreted.
//! - **Overlap.** An instruction reads all channels' sources before writing any destination.
//! - **Extended ALU** (`div`, `mod`, `rol`/`ror`, `lzd`/`fbh`/`fbl`/`cbit`, `bfe`/`bfi`/`bfrev`,
//!   `add3`, `bfn`, `dp4a`, `madw`, `frc`, `rnd*`, `lrp` and the math functions) follows each
//!   document's Notes: an integer zero divisor gives all ones (`div`) or the dividend (`mod`);
//!   rotate, bit-field width and offset counts are taken modulo their width; `lzd` of 0 is 32,
//!   `fbh`/`fbl` of 0 are 0xFFFFFFFF; `madw` writes low dwords to its destination and high
//!   dwords from the next GRF boundary after them. Bit operations reject source modifiers and
//!   float operands; float-only operations reject integer operands. `divm`/`sqrtm` are `div`/
//!   `sqrt` restricted to F and DF without modifiers (already correctly rounded here). `sad2`
//!   computes a pair when its even channel is enabled and leaves the odd element undefined.
//! - **Math accuracy.** Float `div`, `inv`, `sqrt` are correctly rounded (computed in f64 and
//!   rounded once: exact for F/HF, IEEE f64 for DF). `log`, `exp`, `sin`, `cos`, `pow`, `rsqrt`
//!   use Rust's `std` f64 functions (the platform libm, within 1 ulp in f64) rounded once to
//!   the execution type: for F and HF the result is within 1 ulp of the correctly rounded
//!   value and exact where the exact value is representable (log2(8) = 3, exp2(3) = 8); for DF
//!   the guarantee is libm's (about 1 ulp). Special values follow IEEE-754/C99 Annex F.
//!   Arguments of `sin`/`cos` are reduced exactly by libm, however large.
//! - **Integer arithmetic** is exact (sources widened to i128 after their modifiers), then
//!   truncated to the destination, or clamped with `.sat`. Source modifiers apply in the source
//!   type before the operation, so `-(-2^31)` is `2^31`. `mad` computes `s0*s1+s2` exactly
//!   (not through a destination-typed intermediate). Sources may mix integer widths and
//!   signedness in any way the compiler accepts (`add` of `ub` and `d` into `w`, `mul` of `w`
//!   and `ub` into `d`): each is extended from its own type (unsigned zero-, signed
//!   sign-extended), so 64-bit pointer arithmetic wraps at 2^64 (`add P:uq P:uq 0x4:uq`) and a
//!   `d` immediate added to a `uq` pointer subtracts when negative. `cmp`, `min` and `max`
//!   compare the extended values (`0x80000000:ud` is greater than `-1:d`).
//! - **Floating point**: IEEE, round to nearest even unless `%cr0` bits 5:4 select RU, RD or
//!   RTZ: then `add`, `mul`, `mad`, `div`, `inv`, `sqrt`, `lrp` and float-to-float
//!   conversions are correctly rounded in that mode (exact remainders by error-free
//!   transformations, see `exec/rounding.rs`); DF `mad`/`lrp` and DF products, quotients and
//!   roots below 2^-968 trap (`UnsupportedRounding`) rather than risk a wrong last bit, the
//!   transcendental functions keep their 1-ulp round-to-nearest results; integer to float
//!   conversions (`mov`) round in that mode too (IGC's integer division relies on it). `mad` on F/DF is fused (one rounding); `plane`
//!   (F only) is two fused steps, `a*u + c` then `b*v` added, each rounded once in that mode.
//!   ALT mode (`%cr0` bit 0) applies to F arithmetic only (the documents define it for single
//!   precision): an infinite result becomes the largest finite F of its sign, and `log`,
//!   `rsqrt`, `sqrt` take the absolute value of their source; conversions (`mov`) and other
//!   types are unaffected. Denormals of `add`/`mul`/`mad`/`min`/`max` inputs and results are
//!   flushed to signed zero unless the `%cr0` keep bit of the type (6 DF, 7 F, 10 HF) is set. Conversions
//!   (`mov`) never flush. Float to integer truncates and clamps, NaN gives 0, negative values to
//!   unsigned give 0.
//! - **FP8 and TF32** (`fcvt`, `srnd`; module `fp8`): the operand types pick the conversion
//!   (UB = BF8/E5M2, B = HF8/E4M3, UD = TF32; other pairs are load errors). Conversions are exact
//!   integer computations on the bits: HF to BF8/HF8 and F to TF32 round to nearest even
//!   whatever `%cr0` says (F to TF32 flushes denormal inputs), BF8/HF8 to HF are exact, TF32 to
//!   F copies bits. `srnd` adds its 8 (HF to BF8) or 13 (F to HF, low bits of a UW) random bits
//!   right below the destination's last kept bit at the source's magnitude and truncates; for F
//!   to HF results below 2^-14 the F bits under those 13 are discarded. Overflow gives infinity
//!   (HF8: NaN); `.sat` gives the largest finite value of the sign instead (not a [0, 1] clamp);
//!   infinite sources stay infinite except to HF8 (NaN, or ±448 with `.sat`). NaNs keep sign and
//!   leading payload bits (quiet bit set if none remain). `fcvt` to BF8/HF8 must be NoMask (load
//!   error otherwise); `srnd` from BF or to HF8 is rejected at load (the random-bit alignment is
//!   undocumented). Both read all sources before writing.
//! - **DPAS** (`dpas`, DPAS.md; modules `decode::dpas`, `exec::dpas`): `Dst = Src0 + Src2 x
//!   Src1` over RC rows (1 to 8) and N channels in SD stages (1, 2, 4 or 8), N = 8 with 32-byte
//!   GRFs and 16 with 64-byte GRFs (the other pairing is a load error). Precision codes come from
//!   the document (u1 ... s8, bf, hf, tf32); the combination table is checked at load: integer
//!   sources with D/UD accumulators, bf with F/BF, hf with F/HF, tf32 with F; Src1/Src2 are D/UD.
//!   Dst, Src0 and Src2 are row-major and packed (BF/HF accumulator rows are 2N bytes apart,
//!   Src2 rows SD * OPS elements at bit granularity); Src1 holds column n in dword n of each GRF.
//!   Integer products are exact and the 32-bit accumulator wraps. Float stages add their exact
//!   products to the F accumulator and round the exact sum once to F (nearest even, `%cr0`
//!   ignored, denormals kept); a BF/HF Dst rounds the final F once more; NaN results are
//!   0x7FC00000. TF32 elements ignore their low 13 bits. `%null` Src0 is zero. Disabled channels
//!   keep their Dst elements. BF8/HF8/E2M1 precisions have no documented code and do not parse.
//! - **`min`/`max`** follow IEEE minNum/maxNum (a NaN operand yields the other; -0 < +0).
//! - **`cmp` to a general variable** writes all ones of the destination width (also for float
//!   destinations, as a bit pattern) or 0. Integer comparisons compare the widened values.
//! - **`sel` without a predicate** selects src0.
//! - **`shl`/`shr`/`asr`** use the low 5 bits of the shift count (6 when the destination or
//!   src0 is 64-bit, so `shl` on `q, q, q` by 65 shifts by 1); `shr` zero-extends src0 from its
//!   width, `asr` sign-extends it, whatever the declared signedness of the operands: `shr` is a
//!   logical shift of a `d` source's bits and `asr` an arithmetic shift of a `ud` source's
//!   bits. The result is truncated to the destination, of any integer type (`shr` into `d`
//!   from `ud` keeps the bits; `shl` of a `w` wraps in 16 bits).
//! - **One rule set.** Loading runs the checker that `visa check` and `isa!` run
//!   (`visa_isa::text::check_with_options`, the limits of `visa_isa::rules`), with this load's
//!   GRF size, platform and parameters. Its errors are what the Intel compiler's verifier
//!   rejects; the documents' own rules (type maps, listed types, source-modifier properties) are
//!   warnings unless a document's `Compiler checks` property says the verifier enforces them,
//!   and [`LoadOptions::strict_docs`] makes them errors. What the loader rejects beyond that is
//!   [`LoadErrorKind::NotExecuted`] (valid vISA this runtime does not execute, named with the
//!   reason), [`LoadErrorKind::Limit`] or [`LoadErrorKind::Unbound`]. The runtime has defined
//!   results beyond the documents' maps (64-bit integer `div`, every integer type mix the
//!   verifier accepts, as the shift, arithmetic and address rules here describe).
//! - **Regions** are checked at load time against the named variable: an operand that would
//!   touch bytes outside it is not executed (a `NotExecuted` load error; the verifier only warns,
//!   and the hardware would touch the neighbouring registers). Indirect operands are checked at run time against
//!   the whole register file and the alignment of their type. A source written without a region
//!   reads `<0;1,0>` at execution size 1 and `<1;1,0>` otherwise; a destination, `<1>`.
//! - **`jmp`** and a `goto`/`ret` of execution size 1 or without predicate are uniform: they use
//!   the first channel of the predicate mask. A jmp that would skip an instruction where
//!   channels wait to reactivate traps. `switchjmp` is a uniform jump through its label table,
//!   indexed by the first element of its index operand; an index past the table traps
//!   (`SwitchIndex`) and so does a jump over waiting channels. Divergent `goto` follows the reconvergence algorithm of
//!   runtime-semantics §8.3, acting only on channels that are in the execution mask (NoMask
//!   does not wake disabled channels). Reaching the end with parked channels traps. Where
//!   channels wait at several instructions, a trap names the earliest (and its mask).
//! - **Kernel-level `ret`** of size > 1 retires its enabled, predicated channels; the thread
//!   ends when none is left (or resumes channels parked at a later point).
//! - **Subroutines.** A `.function "name"` directive inside a kernel (or the `subroutine`
//!   mnemonic) starts a subroutine at the next instruction; only `call` may arrive there
//!   (falling or jumping into it traps). `call` pushes a frame (return point, caller's call
//!   mask, execution mask and goto table) on an explicit stack, so no call depth uses host
//!   stack; a call to a subroutine already active traps (recursion). A scalar call keeps the
//!   execution mask with an all-ones call mask; a wider call enters with its active predicated
//!   channels and is skipped without any. Inside a subroutine, a scalar `ret` returns; a wider
//!   one removes its channels from the call and execution masks and returns when the call mask
//!   is empty (or no channel is active or parked); the return restores the caller's masks.
//! - **Stack-call functions.** Each `.global_function "name"` starts a function object with
//!   its own name space, entered only by `fcall` and left by `fret` (same mask rules as
//!   `call`/`ret`; recursion allowed, `ret` in a function body and `fret` outside a function
//!   trap, as does falling off a function's end; falling off the kernel body ends the thread).
//!   Every activation owns its declared variables and predicates (saved and restored around a
//!   call), and its `%arg` (32 GRFs) and `%retval` (12 GRFs): the callee sees only the first
//!   `Arg_size` GRFs of `%arg`, its `%retval` starts as the caller's; on return the caller's
//!   passed `%arg` GRFs are undefined and the first `Return_size` GRFs of `%retval` are the
//!   callee's. `%sp`/`%fp` are shared (passed both ways). `ArgSize`/`RetValSize` attributes
//!   of a function are checked at each call.
//! - **Surface and sampler variables** hold binding-table numbers, per thread: `Tn` starts as
//!   entry n, the d-th declared surface (0-based) as entry 6 + d (vISA's surface numbering),
//!   the d-th declared sampler as d; other elements of a variable start unset, as does `%bss`
//!   (T4). [`Launch::bind_surface`] fills the entry of the name it is given. Entry 0 is the
//!   group's SLM, 5 the stateless space; 1-4 (stack, scratch, bindless state) do not exist
//!   here. `movs` (MOVS.md) copies numbers between variables of one class, reads them into UD
//!   variables, or sets them from UD values, and every later access through the variable uses
//!   its current number; a kernel that re-points surfaces may have any `Tn` bound. Bindless
//!   `%bss` is no surface-state address here: the value written to it (the compiler's
//!   `movs (M1_NM, 1) %bss(0) bindlessOffset(0,0)<0;1,0>`) is taken as a binding-table number.
//!   Reading an unset element, or accessing memory through an entry without a buffer, traps;
//!   `movs` between general operands or a surface and a sampler, into T0/T5, and through
//!   T1-T3 is a load error. Each name is its own variable: `T6` and the first declared surface
//!   both start at entry 6, and `movs` re-points only the one it writes. `Tn` names are
//!   written in decimal without leading zeros, n from 6 to 255 (as the checker reads them).
//!   A top-level surface or sampler variable may be a `.input` (as in compiler-printed
//!   kernels): its payload is the binding-table number it already starts with, so the input
//!   is bound by name like any surface; a general `.input` is defined at thread start.
//! - **Memory.** User surfaces (`T6`...) are byte buffers: out-of-bounds reads return zero and
//!   writes are dropped, per byte. SLM (`T0`/`%slm`) is zeroed per group (size from `SLMSize`
//!   or [`Launch::slm_size`]); out-of-bounds SLM accesses trap. Stateless `T5`/`%scratch`
//!   offsets are addresses in the SVM space. SVM is a registry of allocations separated by
//!   unmapped guard gaps; an access outside any allocation, running past the end of one, or
//!   misaligned for its block size traps. Accesses of one instruction happen in lane order.
//! - **Immediate SVM addresses.** The scalar address operand of `svm_block_ld`/`svm_block_st`
//!   and the global address of `svm_gather4scaled`/`svm_scatter4scaled` may be an immediate or
//!   a variable of any integer type (the compiler does not check their documented UQ type): its
//!   bits are zero-extended to 64 bits (`0x0:ud` is address 0, `-16:d` is 0xFFFF_FFF0), and
//!   per-lane offsets are added modulo 2^64.
//! - **Four-channel, legacy and qword messages.** `gather4_scaled`/`scatter4_scaled` (any
//!   surface) and `svm_gather4scaled`/`svm_scatter4scaled` (UQ base plus UQ per-lane offsets)
//!   move the requested R, G, B, A dwords of each lane's 16-byte pixel; the data operand is
//!   channel-major, one group of `max(exec_size, GRF_BYTES / 4)` dwords per requested channel
//!   in RGBA order, and gathers poison each group's dwords past the last lane. Addresses must
//!   be dword aligned (a misaligned lane traps); on user surfaces the bounds check is per dword
//!   (a dword not wholly inside reads 0 / is not written). Legacy `gather`/`scatter` count
//!   offsets in elements of 1, 2 or 4 bytes (the 32-bit element sum wraps before it is scaled),
//!   take lanes and mask control from `Num_elts` (8, 16 or 1, no predicate), check user
//!   surfaces per byte and poison the upper bytes of 1- and 2-byte elements. `qw_gather`/
//!   `qw_scatter` move one qword per lane at a per-lane byte offset that must be a multiple
//!   of 8, checked per qword. Every form traps out of range on SLM, stateless and SVM memory;
//!   disabled lanes neither access memory nor change their data slots.
//! - **2D block messages** (`lsc_load_block2d`/`lsc_store_block2d` on `ugm` through
//!   `flat[BASE,W,H,P,X,Y]`; `decode::lsc_block2d`, `exec::block2d`): W, H, P are the surface
//!   width (bytes), height (rows) and pitch (bytes) minus 1; X counts elements, Y rows, both
//!   signed. Elements outside the surface read 0 / are not written; the rows inside go through
//!   the range-checked SVM access (a row outside SVM traps). Registers follow the document's
//!   layout (rows padded to a power of two, blocks to whole GRFs, transpose, VNNI); stores use
//!   the plain row layout and one block. spec/LSC_UNTYPED.md Notes give every decision.
//! - **LSC messages** (LSC_UNTYPED.md; `decode::lsc`, `exec::lsc`): flat `ugm`/`ugml`
//!   addresses are SVM addresses, flat `slm` addresses offsets into the group's SLM, `bti(N)`
//!   offsets into the surface a launch binds as `TN` (N from 6 on; the entries below are this
//!   model's predefined surfaces, which a compiler's BTI does not mean, and are refused). An address is `base + scale * operand + offset`: `a64` in 64-bit
//!   wrapping arithmetic, `a32` in 32-bit arithmetic, `a32u`/`a32s` zero-/sign-extended to 64
//!   bits first; `flat(BASE)` adds a 64-bit base. Each element must be aligned to its size in
//!   memory (a misaligned lane traps) and is bounds-checked whole (a surface element not wholly
//!   inside reads 0 and is not written; SLM and SVM trap). Non-transposed data puts element v
//!   of every lane in register block v, a lane's slot times the execution size rounded up to
//!   whole GRFs; `d8`/`d16` slots are their own size, the u32 forms a dword (zero-extended on
//!   loads, the low bits stored; `d16u32h` the upper half, the lower half zero). Transposed
//!   forms pack the one address's elements. A load to `%null` is a prefetch and does nothing.
//!   Strided forms: lane n at `n * pitch` from the base (pitch defaulting to one lane's data).
//!   Atomics are those of the next item; the compare-and-swaps compare with `Src1Data` and
//!   store `Src2Data`; `fadd`/`fsub` round once to the location's format (`d16u32`: half, or
//!   bfloat16 for the `bf` forms), min/max as IEEE minNum/maxNum; old values are zero-extended
//!   to the lane's slot.
//! - **Shared memory without `unsafe`.** Buffers are `Vec<AtomicU32>`; partial-word writes use
//!   `fetch_and`/`fetch_or` on their own bytes only, so concurrent threads writing different
//!   bytes never interfere. Relaxed ordering: a launch joins all threads before results are
//!   read.
//! - **Atomics** (`dword_atomic` on surfaces/SLM/stateless, `svm_atomic`, `lsc_atomic_*`) are real atomics
//!   across threads running in parallel: each lane's read-modify-write is indivisible, lanes of
//!   one instruction run in lane order. 2- and 4-byte locations use a compare-exchange loop on
//!   their word; 8-byte locations (two words) are updated under one of 64 striped locks chosen
//!   by address, so 64-bit atomics on one location serialise (mixing them with 32-bit or plain
//!   accesses to the same bytes is a race). `predec` returns the new value, every other
//!   operation the old one; a user-surface lane out of bounds returns 0 and writes nothing;
//!   SLM/SVM lanes out of range or misaligned trap. The upper half of each dword returned by a
//!   16-bit atomic is undefined.
//! - **Fuel.** A launch has an instruction budget ([`Launch::fuel`]) shared by all its threads.
//!   Threads draw it in chunks of up to 1024 steps and give back what they did not use, so
//!   [`LaunchResult::steps`] is exact; a thread that finds the budget empty traps with
//!   `OutOfFuel` at the instruction it was about to execute.
//! - **Cancelling.** [`Launch::cancel_flag`] is checked before each group starts and each time
//!   a thread draws fuel (every 1,024 instructions at most): a set flag skips the groups not
//!   started and stops the running threads before their next instruction
//!   ([`LaunchError::Cancelled`], whose `stopped` says where, as traps of kind
//!   `TrapKind::Cancelled`; a trap of another kind is then not reported).
//!   [`Launch::progress`] counts finished groups.
//! - **Performance shape.** Operands are decoded once into byte offsets and strides; an ALU
//!   instruction whose destination provably does not overlap its sources (or updates them in
//!   place, channel for channel) is computed channel by channel without buffering.
//! - **Not modelled** (rejected at load with the instruction's name and location): every
//!   instruction outside the implemented set and the stack/scratch-space surfaces T1-T3.
//!   [`execution`] gives the verdict for every instruction of the generated table (an
//!   exhaustive match over [`visa_isa::Opcode`], so a new document does not compile until it
//!   has one). Instructions that need fixed-function hardware are rejected with the
//!   reason ([`NoCpuSemantics`]): texture sampling (`sample*`, `load*`, `3d_*`, `info`,
//!   `sample_unorm`), the media engine (media block accesses, VME, AVS), raw sends (the
//!   descriptor's meaning belongs to each shared function), graphics outputs/typed
//!   surfaces (`rt_write`, URB writes, `*_typed`) and the typed LSC messages (`LSC_TYPED`:
//!   `lsc_load_quad.tgm`, `lsc_atomic_*.tgm`; no model of typed surfaces' formats, dimensions
//!   and mip levels). An entry without an `Opcode` (a custom
//!   table of [`Program::load_with_table`], a document unknown when this crate was built) is
//!   classified by its name, else by its Format fields (a message-descriptor field means a raw
//!   send, a `Sampler`/`LOD` field the sampler).
// `unsafe` is allowed in exactly one module, `jit::enter` (entering compiled code and the helper
// ABI); `tests/unsafe_boundary.rs` checks that no other module allows it.
#![deny(unsafe_code)]

pub mod compiled;
mod convert;
mod decode;
mod error;
mod exec;
mod first_writes;
mod fp8;
mod jit;
mod joins;
mod launch;
mod layout;
mod machine;
mod memory;
mod ops;
mod program;
mod specialise;

pub use decode::{Execution, NoCpuSemantics, execution};
pub use error::{LaunchError, LoadError, LoadErrorKind, Trap, TrapKind};
pub use jit::{COLD_EXECUTIONS, HOT_EXECUTIONS, JitReport, LOOP_TRIPS, MAX_COMPILED_INSTRUCTIONS};
pub use launch::{
    DEFAULT_FUEL, DEFAULT_MAX_MEMORY, Launch, LaunchResult, ReadError, SIMD_WIDTHS,
    simd_widths_text,
};
pub use layout::{Layout, VarInfo};
pub use memory::{Buffer, Element, Svm, SvmAllocError, SvmFault};
pub use program::{Engine, JitTier, LoadOptions, Program};
