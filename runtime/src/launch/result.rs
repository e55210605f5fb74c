//! Reading results back: the variables captured from every thread.

use std::collections::BTreeMap;

use visa_isa::ast::ElemType;

use crate::machine::Thread;
use crate::memory::{Element, from_bytes};

/// Values captured from one thread: variable name -> (bytes, per-byte definedness). (A tree:
/// an empty one costs nothing to make, where a hash map seeds its hasher for every thread.)
pub(super) type Captured = BTreeMap<String, (Vec<u8>, Vec<bool>)>;

/// The captured values of threads in thread order (group-major, then thread within the group);
/// when no variable is captured, only how many threads there were (a launch of many small
/// threads would otherwise build, gather and drop an empty map per thread, one after another).
#[derive(Debug, Clone, Default)]
pub(super) struct Captures {
    values: Vec<Captured>,
    count: usize,
    /// Whether there are names to capture (`values` is kept).
    keep: bool,
}

impl Captures {
    pub(super) fn new(names: &[String]) -> Captures {
        Captures {
            values: Vec::new(),
            count: 0,
            keep: !names.is_empty(),
        }
    }

    /// Room for `threads` more, ahead (`Err`: the memory is not there).
    pub(super) fn reserve(&mut self, threads: usize) -> Result<(), ()> {
        if self.keep {
            self.values.try_reserve_exact(threads).map_err(|_| ())?;
        }
        Ok(())
    }

    /// The variables `names` of `thread`, which ended, as the next thread's.
    pub(super) fn push(&mut self, thread: &Thread, names: &[String]) {
        self.count += 1;
        if self.keep {
            self.values.push(capture(thread, names));
        }
    }

    /// `threads` more threads with nothing captured.
    pub(super) fn push_uncaptured(&mut self, threads: usize) {
        self.count += threads;
        if self.keep {
            self.values
                .extend(std::iter::repeat_with(Captured::new).take(threads));
        }
    }

    pub(super) fn len(&self) -> usize {
        self.count
    }

    /// Forgets the threads after the first `threads`.
    pub(super) fn truncate(&mut self, threads: usize) {
        self.count = self.count.min(threads);
        self.values.truncate(threads);
    }

    /// `other`'s threads after these.
    pub(super) fn append(&mut self, other: Captures) {
        self.count += other.count;
        self.values.extend(other.values);
    }
}

/// What a launch leaves behind: the captured variables of every thread.
#[derive(Debug, Clone)]
pub struct LaunchResult {
    pub(super) simd: u32,
    pub(super) threads: Captures,
    /// Per thread, the lanes that started active; empty without an entry mask (every lane).
    pub(super) entry_masks: Vec<u32>,
    pub(super) steps: u64,
}

/// The variables `names` of a thread that ended.
pub(super) fn capture(thread: &Thread, names: &[String]) -> Captured {
    let layout = &thread.program.layout;
    let mut out = BTreeMap::new();
    for name in names {
        if let Some(var) = layout.top_level_var(name) {
            let range = var.offset as usize..(var.offset + var.size) as usize;
            let bytes = thread.grf.get(range.clone()).unwrap_or(&[]).to_vec();
            let defined = thread.defined.get(range).unwrap_or(&[]).to_vec();
            out.insert(name.clone(), (bytes, defined));
        }
    }
    out
}

/// Why a result cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error("variable '{0}' was not read back: bind it as a vector (not input-only) or capture it")]
    NotCaptured(String),
    #[error("variable '{name}' is {size}-byte typed, not {wanted}")]
    WrongType {
        name: String,
        size: u32,
        wanted: ElemType,
    },
    #[error("variable '{name}' lane {lane} of thread {thread} was never written")]
    Undefined {
        name: String,
        thread: usize,
        lane: usize,
    },
}

impl LaunchResult {
    /// Instructions executed by the launch (all threads).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Number of threads that ran.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// The first SIMD elements of `name` in every thread, concatenated: one value per
    /// work-item, in work-item order. A lane that was not active at entry
    /// ([`Launch::active_lanes`]) is not required to be defined: its element is read as the
    /// register holds it (its bound value, or 0 when never written).
    pub fn vector<T: Element>(&self, name: &str) -> Result<Vec<T>, ReadError> {
        Ok(from_bytes::<T>(&self.vector_bytes(name, T::TYPE)?))
    }

    /// [`LaunchResult::vector`] as little-endian bytes of elements of type `ty`.
    pub fn vector_bytes(&self, name: &str, ty: ElemType) -> Result<Vec<u8>, ReadError> {
        self.vector_components_bytes(name, ty, 1)
    }

    /// The values [`Launch::bind_vector_components`] binds, read back: `components` elements
    /// per work-item, work-item-major, from each thread's variable, where they are
    /// component-major (element `c * simd + lane`). A lane not active at entry is not required
    /// to be defined, as in [`LaunchResult::vector`].
    pub fn vector_components<T: Element>(
        &self,
        name: &str,
        components: u32,
    ) -> Result<Vec<T>, ReadError> {
        Ok(from_bytes::<T>(&self.vector_components_bytes(
            name,
            T::TYPE,
            components,
        )?))
    }

    /// [`LaunchResult::vector_components`] as little-endian bytes of elements of type `ty`.
    pub fn vector_components_bytes(
        &self,
        name: &str,
        ty: ElemType,
        components: u32,
    ) -> Result<Vec<u8>, ReadError> {
        let size = ty.size() as usize;
        let (simd, n) = (self.simd as usize, components.max(1) as usize);
        let mut out = Vec::new();
        if !self.threads.keep && self.threads.count > 0 {
            return Err(ReadError::NotCaptured(name.to_string()));
        }
        for (thread, captured) in self.threads.values.iter().enumerate() {
            let (bytes, defined) = captured
                .get(name)
                .ok_or_else(|| ReadError::NotCaptured(name.to_string()))?;
            let len = simd * n * size;
            let (Some(bytes), Some(defined)) = (bytes.get(..len), defined.get(..len)) else {
                return Err(ReadError::WrongType {
                    name: name.to_string(),
                    size: (bytes.len() / (simd * n).max(1)) as u32,
                    wanted: ty,
                });
            };
            let entry_mask = self.entry_masks.get(thread).copied().unwrap_or(u32::MAX);
            for lane in 0..simd {
                for c in 0..n {
                    let at = (c * simd + lane) * size;
                    if entry_mask >> lane & 1 != 0 && defined[at..at + size].contains(&false) {
                        return Err(ReadError::Undefined {
                            name: name.to_string(),
                            thread,
                            lane,
                        });
                    }
                    out.extend_from_slice(&bytes[at..at + size]);
                }
            }
        }
        Ok(out)
    }

    /// The whole variable `name` of thread `thread` (bytes, and per-byte definedness).
    pub fn thread_bytes(&self, name: &str, thread: usize) -> Option<(&[u8], &[bool])> {
        self.threads
            .values
            .get(thread)
            .and_then(|c| c.get(name))
            .map(|(b, d)| (b.as_slice(), d.as_slice()))
    }
}

#[cfg(test)]
mod tests {
    use super::ReadError;
    use crate::launch::ids::ThreadPlace;
    use crate::{Engine, JitTier, Launch, LoadOptions, Program, Svm};
    use visa_isa::ast::ElemType;

    const KERNEL: &str = "
.decl X v_type=G type=d num_elts=16 align=GRF
.decl Y v_type=G type=d num_elts=16 align=GRF
add (M1, 16) Y(0,0)<1> X(0,0)<1;1,0> 0x1:d
";

    /// Without a variable to capture a launch keeps only its thread count; reading any
    /// variable back says it was not captured, as it does when others are.
    #[test]
    fn a_launch_that_captures_nothing_counts_its_threads() {
        let program = Program::from_text(KERNEL, &LoadOptions::default()).expect("loads");
        let bare = Launch::new(&program)
            .simd(16)
            .groups(3)
            .threads_per_group(2)
            .bind_scalar("X", 4i32)
            .run()
            .expect("runs");
        assert_eq!(bare.threads(), 6);
        assert_eq!(
            bare.vector::<i32>("Y"),
            Err(ReadError::NotCaptured("Y".into()))
        );
        assert_eq!(bare.thread_bytes("Y", 0), None);
        let captured = Launch::new(&program)
            .simd(16)
            .groups(3)
            .threads_per_group(2)
            .bind_scalar("X", 4i32)
            .capture("Y")
            .run()
            .expect("runs");
        assert_eq!(captured.threads(), 6);
        assert_eq!(
            captured.vector::<i32>("Y").expect("captured"),
            vec![5; 6 * 16]
        );
        assert_eq!(
            captured.vector::<i32>("X"),
            Err(ReadError::NotCaptured("X".into()))
        );
    }

    /// Elements bound in each thread's register order reach the variable as given, and are the
    /// registers the same values bound work-item-major give.
    #[test]
    fn thread_ordered_elements_land_as_given() {
        let src = ".decl X v_type=G type=d num_elts=16 align=GRF\n\
                   mov (M1, 8) X(0,0)<1> X(0,0)<1;1,0>\n";
        let program = Program::from_text(src, &LoadOptions::default()).expect("loads");
        // Two SIMD8 threads, two components: thread `t`'s element `e` is `100 * t + e`.
        let ordered: Vec<i32> = (0..2)
            .flat_map(|t| (0..16).map(move |e| 100 * t + e))
            .collect();
        // Work-item `8 * t + lane`'s component `c` is its thread's element `8 * c + lane`.
        let item_major: Vec<i32> = (0..16)
            .flat_map(|item| (0..2).map(move |c| 100 * (item / 8) + 8 * c + item % 8))
            .collect();
        let launch = || Launch::new(&program).simd(8).groups(2).capture("X");
        let bytes = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let given = launch()
            .bind_thread_elements_bytes("X", visa_isa::ast::ElemType::D, 2, bytes(&ordered))
            .run()
            .expect("runs");
        let transposed = launch()
            .bind_vector_components("X", 2, &item_major)
            .run()
            .expect("runs");
        for t in 0..2 {
            let (x, _) = given.thread_bytes("X", t).expect("captured");
            assert_eq!(x, &bytes(&ordered[16 * t..16 * t + 16])[..], "thread {t}");
            assert_eq!(transposed.thread_bytes("X", t).map(|(x, _)| x), Some(x));
        }
    }

    /// A thread writer writes each thread's own bytes over the template the variable's other
    /// binding gives, on both engines and on compiled code that keeps registers from thread to
    /// thread or starts threads in batches: a thread's change to the variable does not reach
    /// the next thread.
    #[test]
    fn thread_writers_write_over_the_template() {
        let src = ".decl X v_type=G type=d num_elts=16 align=GRF\n\
                   add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> 0x64:d\n\
                   svm_scatter.4.1 (M1, 16) %0.0 X.0\n";
        let template: Vec<i32> = (0..16).map(|e| 1000 * e).collect();
        // Element 1 of thread `t` (group `t / 2`, thread `t % 2` in it) is `10 * group + in_group`.
        let write = |place: ThreadPlace, x: &mut [u8]| {
            let own = (10 * place.group + place.in_group) as i32;
            x[4..8].copy_from_slice(&own.to_le_bytes());
        };
        for (engine, tier) in [
            (Engine::Interpreter, JitTier::Quick),
            (Engine::Jit, JitTier::Quick),
            (Engine::Jit, JitTier::Optimized),
        ] {
            let options =
                LoadOptions::default()
                    .engine(engine)
                    .jit_tier(tier)
                    .param("%0", ElemType::Uq, 16);
            let program = Program::from_text(src, &options).expect("loads");
            let mut svm = Svm::new();
            let out = svm.alloc_from(&[0i32; 6 * 16]);
            Launch::new(&program)
                .simd(16)
                .groups(3)
                .threads_per_group(2)
                .svm(&svm)
                .bind_svm_lanes("%0", out, 4)
                .bind_elements("X", &template)
                .bind_thread_writer("X", &write)
                .run()
                .expect("runs");
            let got = svm.read_vec::<i32>(out, 6 * 16).expect("reads");
            for t in 0..6u32 {
                let mut expected: Vec<i32> = template.iter().map(|v| v + 100).collect();
                expected[1] = (10 * (t / 2) + t % 2) as i32 + 100;
                let x = &got[16 * t as usize..16 * t as usize + 16];
                assert_eq!(x, expected, "{engine:?} {tier:?}, thread {t}");
            }
        }
    }
}
