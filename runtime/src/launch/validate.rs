//! Validation of a launch before anything runs: grid, bindings, binding table and memory.

use super::result::Captured;
use super::{Binding, Launch, SIMD_WIDTHS, simd_widths_text};
use crate::error::LaunchError;
use crate::memory::Buffer;

impl<'a> Launch<'a> {
    fn binding_error(name: &str, message: impl Into<String>) -> LaunchError {
        LaunchError::Binding {
            name: name.to_string(),
            message: message.into(),
        }
    }

    /// Checks the SIMD width, group count and threads per group.
    fn check_grid(&self) -> Result<(), LaunchError> {
        let grid = |parameter, message: String| Err(LaunchError::Grid { parameter, message });
        if !SIMD_WIDTHS.contains(&self.simd) {
            return grid(
                "simd",
                format!(
                    "SIMD width {} is not one of {}",
                    self.simd,
                    simd_widths_text()
                ),
            );
        }
        if self.groups == 0 {
            return grid("groups", "a launch needs at least 1 group".to_string());
        }
        if self.threads_per_group == 0 {
            return grid(
                "threads_per_group",
                "a group needs at least 1 thread".to_string(),
            );
        }
        if u64::from(self.groups) * u64::from(self.threads_per_group) > u64::from(u32::MAX) {
            return grid(
                "groups",
                format!(
                    "{} groups x {} threads is more than 2^32 threads in one launch",
                    self.groups, self.threads_per_group
                ),
            );
        }
        Ok(())
    }

    /// The memory the launch will take (see [`Launch::max_memory`]), checked against the limit.
    pub(super) fn check_memory(
        &self,
        slm_size: usize,
        captured: &[String],
    ) -> Result<(), LaunchError> {
        let layout = &self.program.layout;
        if slm_size > self.program.max_slm_bytes {
            return Err(LaunchError::Grid {
                parameter: "slm_size",
                message: format!(
                    "{slm_size} bytes of SLM per group is more than the limit of {} bytes \
                     (LoadOptions::max_slm_bytes)",
                    self.program.max_slm_bytes
                ),
            });
        }
        let groups = u128::from(self.groups);
        let threads = groups * u128::from(self.threads_per_group);
        // Groups run at once: one per rayon worker.
        let at_once = groups.min(rayon::current_num_threads().max(1) as u128);
        let slm = slm_size as u128 * at_once;
        // A register file is its bytes and one definedness flag per byte.
        let file = u128::from(layout.file_size) * 2;
        let registers = file * (u128::from(self.threads_per_group) * at_once + 1);
        let per_capture: u128 = captured
            .iter()
            .filter_map(|name| layout.top_level_var(name))
            .map(|var| u128::from(var.size) * 2 + 128)
            .sum();
        // A thread's captured variables sit in its task's vector, then in the result's.
        let per_thread = per_capture
            + 2 * std::mem::size_of::<Captured>() as u128
            + std::mem::size_of::<u32>() as u128;
        let results = threads * per_thread;
        let needed = slm + registers + results;
        if needed > u128::from(self.max_memory) {
            return Err(LaunchError::MemoryLimit {
                needed: u64::try_from(needed).unwrap_or(u64::MAX),
                limit: self.max_memory,
                breakdown: format!(
                    "SLM {slm_size} bytes x {at_once} groups at once, register files {registers}, \
                     results of {threads} threads {results}"
                ),
            });
        }
        Ok(())
    }

    /// Checks the bindings against the program and returns (var index, binding) pairs.
    pub(super) fn resolve(&self) -> Result<Vec<(usize, &Binding)>, LaunchError> {
        self.check_grid()?;
        let layout = &self.program.layout;
        for (name, _) in &self.writers {
            if !layout.top_level.contains_key(name) {
                return Err(Self::binding_error(name, "no such kernel variable"));
            }
        }
        let mut resolved = Vec::new();
        for (name, binding) in &self.bindings {
            let index = *layout
                .top_level
                .get(name)
                .ok_or_else(|| Self::binding_error(name, "no such kernel variable"))?;
            let var = &layout.vars[index];
            match binding {
                Binding::Lanes {
                    bytes,
                    ty,
                    components,
                    ..
                } => {
                    if ty.size() != var.ty.size() {
                        return Err(Self::binding_error(
                            name,
                            format!("values are {ty} but the variable is {}", var.ty),
                        ));
                    }
                    if *components == 0 {
                        return Err(Self::binding_error(
                            name,
                            "a per-lane vector needs at least one component",
                        ));
                    }
                    let per_item = |n: usize| match components {
                        1 => format!("{n} work-items"),
                        c => format!(
                            "{n} work-items x {c} components = {} values",
                            n as u128 * u128::from(*c)
                        ),
                    };
                    // Checked: the component count is the caller's.
                    let wanted = self
                        .work_items()
                        .checked_mul(*components as usize)
                        .and_then(|w| w.checked_mul(ty.size() as usize));
                    if wanted != Some(bytes.len()) {
                        return Err(Self::binding_error(
                            name,
                            format!(
                                "{} values bound, the launch has {}",
                                bytes.len() / ty.size() as usize,
                                per_item(self.work_items())
                            ),
                        ));
                    }
                    let elements = u64::from(self.simd) * u64::from(*components);
                    if u64::from(var.num_elts) < elements {
                        let needed = match components {
                            1 => format!("SIMD {}", self.simd),
                            c => format!("SIMD {} x {c} components = {elements}", self.simd),
                        };
                        return Err(Self::binding_error(
                            name,
                            format!(
                                "the variable has {} elements, fewer than {needed}",
                                var.num_elts
                            ),
                        ));
                    }
                }
                Binding::Uniform { ty, .. } => {
                    if ty.size() != var.ty.size() {
                        return Err(Self::binding_error(
                            name,
                            format!("value is {ty} but the variable is {}", var.ty),
                        ));
                    }
                }
                Binding::Elements { bytes, ty } => {
                    if !bytes.len().is_multiple_of(ty.size() as usize) {
                        return Err(Self::binding_error(
                            name,
                            format!("{} bytes are not whole {ty} values", bytes.len()),
                        ));
                    }
                    if ty.size() != var.ty.size() || bytes.len() > var.size as usize {
                        return Err(Self::binding_error(
                            name,
                            format!(
                                "{} {ty} values do not fit the variable ({} x {})",
                                bytes.len() / ty.size() as usize,
                                var.num_elts,
                                var.ty
                            ),
                        ));
                    }
                }
                Binding::SvmLanes { .. } => {
                    if var.ty.size() != 8 || var.num_elts < self.simd {
                        return Err(Self::binding_error(
                            name,
                            "per-lane pointers need a 64-bit variable with at least SIMD elements",
                        ));
                    }
                }
            }
            resolved.push((index, binding));
        }
        if let Some(active) = &self.active
            && active.len() != self.work_items()
        {
            return Err(Self::binding_error(
                "active_lanes",
                format!(
                    "{} flags given, the launch has {} work-items",
                    active.len(),
                    self.work_items()
                ),
            ));
        }
        for name in &self.capture {
            if !layout.top_level.contains_key(name) {
                return Err(Self::binding_error(
                    name,
                    "no such kernel variable to capture",
                ));
            }
        }
        Ok(resolved)
    }

    /// The binding table: each bound surface at its number (`Tn`: n; a declared surface: the
    /// entry its element 0 starts with), sorted. A `Tn` the kernel never names is accepted
    /// only when the kernel re-points surfaces with `movs` (`dynamic`).
    pub(super) fn binding_table(
        &self,
        dynamic: bool,
    ) -> Result<Vec<(u32, &'a Buffer)>, LaunchError> {
        let layout = &self.program.layout;
        let named = |name: &str| layout.states.iter().any(|s| s.name == name && !s.sampler);
        let mut table: Vec<(u32, &'a Buffer)> = Vec::with_capacity(self.surfaces.len());
        for (name, buffer) in &self.surfaces {
            let number = layout
                .surface_number(name)
                .filter(|_| named(name) || dynamic)
                .ok_or_else(|| {
                    // A surface the kernel names but whose number it sets itself (`%bss`, T4,
                    // a variable not yet pointed anywhere) is not bound by name.
                    let why = if named(name) {
                        "the kernel sets this surface's binding-table number with movs: bind                          the entry it points to (`Tn`, n >= 6) instead"
                    } else {
                        "the kernel does not use this surface"
                    };
                    Self::binding_error(name, why)
                })?;
            if table.iter().any(|(n, _)| *n == number) {
                return Err(Self::binding_error(
                    name,
                    format!("binding-table entry {number} is bound twice"),
                ));
            }
            table.push((number, *buffer));
        }
        table.sort_unstable_by_key(|(n, _)| *n);
        Ok(table)
    }
}
