//! Declarations: scopes, aliases, alignment and the placement of every variable in the per-thread
//! register file (one byte array), plus predicate and surface numbering.

use std::collections::HashMap;

use visa_isa::ast::{Decl, DeclKind, ElemType, Span};

use crate::error::LoadError;

/// A general or address variable: a view of `size` bytes at `offset` in the register file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarInfo {
    pub name: String,
    pub ty: ElemType,
    pub num_elts: u32,
    /// Byte offset of this view in the register file.
    pub offset: u32,
    /// Size of this view in bytes.
    pub size: u32,
    /// Index of the root variable whose storage this view uses (itself when not an alias).
    pub root: usize,
    /// Whether the variable is an address variable (`v_type=A`).
    pub is_address: bool,
}

/// A name as it resolves in some scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Symbol {
    /// Index into `Layout::vars`.
    Var(usize),
    /// Index into `Layout::predicates`.
    Predicate(u16),
    /// A surface variable or predefined surface.
    Surface(SurfaceName),
    /// A sampler variable: index into `Layout::states`.
    Sampler(u16),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SurfaceName {
    Slm,
    Stateless,
    /// A surface variable whose binding-table number can change (`T6`..., declared surfaces,
    /// `%bss`): index into `Layout::states`.
    User(u16),
    /// A predefined surface the runtime does not model (T1 stack, T2, TSS).
    Unsupported,
}

/// A state variable (surface or sampler): `num_elts` elements, each holding the number of the
/// binding-table entry it refers to, in per-thread slots `first..first + num_elts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StateVar {
    pub name: String,
    pub sampler: bool,
    pub first: u32,
    pub num_elts: u32,
    /// The number element 0 holds when a thread starts (`Tn`: n; the d-th declared surface:
    /// 6 + d; the d-th declared sampler: d; `%bss`: none, it must be set by `movs`). The
    /// other elements start unset.
    pub initial: Option<u32>,
}

/// Binding-table numbers of the predefined surfaces a state variable may refer to (the `Tn`
/// numbering): T0 is the group's SLM, T5 the stateless space; numbers from
/// [`FIRST_USER_SURFACE`] name launch bindings, and 1-4 the surfaces this model lacks.
pub(crate) const SLM_SURFACE: u32 = 0;
pub(crate) const STATELESS_SURFACE: u32 = 5;
pub(crate) const BINDLESS_SURFACE: u32 = 4;
pub(crate) const FIRST_USER_SURFACE: u32 = visa_isa::rules::FIRST_USER_SURFACE;

/// The register file layout of a program.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    pub grf_bytes: u32,
    pub vars: Vec<VarInfo>,
    /// Variables whose bytes are defined when a thread starts (predefined values, inputs,
    /// bound parameters are written by the launcher).
    pub(crate) initialized: Vec<usize>,
    /// Predicate variables: name and declared element count.
    pub predicates: Vec<(String, u32)>,
    /// Surface and sampler variables (`T6`, declared names, `%bss`).
    pub(crate) states: Vec<StateVar>,
    /// Per-thread state slots (the elements of all state variables).
    pub(crate) state_slots: u32,
    /// Declared surface and sampler variables so far (their numbering).
    declared_surfaces: u32,
    declared_samplers: u32,
    pub file_size: u32,
    scopes: Vec<HashMap<String, Symbol>>,
    predefined: HashMap<String, usize>,
    /// Top-level names (outermost scope), for binding and reading results by name.
    pub(crate) top_level: HashMap<String, usize>,
    /// Top-level surface and sampler variables of the kernel (index into `states`): the
    /// state variables a `.input` may name.
    pub(crate) top_level_states: HashMap<String, u16>,
    /// Set once a `.global_function` object starts: its names are not kernel top-level names.
    in_function: bool,
}

/// Register files of more than 64 KiB cannot be addressed by (UW) address variables.
const MAX_FILE_SIZE: u32 = 0x1_0000;

impl Layout {
    pub(crate) fn new(grf_bytes: u32) -> Self {
        Self {
            grf_bytes,
            scopes: vec![HashMap::new()],
            ..Self::default()
        }
    }

    /// The state slot holding element 0 of state variable `var` (a surface's binding-table
    /// number), if it has one.
    pub(crate) fn state_slot(&self, var: u16) -> Option<u32> {
        let first = self.states.get(usize::from(var))?.first;
        (first < self.state_slots).then_some(first)
    }

    pub(crate) fn open_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    pub(crate) fn close_scope(&mut self, span: Span) -> Result<(), LoadError> {
        if self.scopes.len() <= 1 {
            return Err(LoadError::new(span, "'}' without a matching '{'"));
        }
        self.scopes.pop();
        Ok(())
    }

    fn insert(&mut self, name: &str, symbol: Symbol, span: Span) -> Result<(), LoadError> {
        let depth = self.scopes.len();
        let scope = self
            .scopes
            .last_mut()
            .ok_or_else(|| LoadError::new(span, "no open scope"))?;
        if scope.contains_key(name) {
            return Err(LoadError::new(
                span,
                format!("'{name}' is already declared in this scope"),
            ));
        }
        scope.insert(name.to_string(), symbol);
        if depth == 1 && !self.in_function {
            match symbol {
                Symbol::Var(index) => {
                    self.top_level.insert(name.to_string(), index);
                }
                Symbol::Surface(SurfaceName::User(index)) | Symbol::Sampler(index) => {
                    self.top_level_states.insert(name.to_string(), index);
                }
                Symbol::Predicate(_) | Symbol::Surface(_) => {}
            }
        }
        Ok(())
    }

    /// Starts the name space of a new function object (`.global_function`): the names declared
    /// so far are no longer visible; predefined variables and surfaces stay shared.
    pub(crate) fn begin_function(&mut self) {
        self.scopes = vec![HashMap::new()];
        self.in_function = true;
    }

    /// Places a new root variable of `size` bytes aligned to `align`, not crossing a GRF
    /// boundary when smaller than a GRF, GRF-aligned when at least one GRF.
    fn place(&mut self, size: u32, align: u32, span: Span) -> Result<u32, LoadError> {
        let grf = self.grf_bytes;
        let align = if size >= grf {
            align.max(grf)
        } else {
            align.max(1)
        };
        let mut offset = self.file_size.div_ceil(align) * align;
        if size < grf && offset / grf != (offset + size - 1) / grf {
            offset = offset.div_ceil(grf) * grf;
        }
        let end = offset + size;
        if end > MAX_FILE_SIZE {
            return Err(LoadError::not_executed(
                span,
                "variables exceed the 64 KiB register file of this model (address variables \
                 are UW byte offsets)",
            ));
        }
        self.file_size = end;
        Ok(offset)
    }

    fn add_root(
        &mut self,
        name: &str,
        ty: ElemType,
        num_elts: u32,
        align: u32,
        is_address: bool,
        span: Span,
    ) -> Result<usize, LoadError> {
        let size = ty.size() * num_elts;
        let offset = self.place(size.max(1), align.max(ty.size()), span)?;
        Ok(self.push_var(name, (ty, num_elts), offset, None, is_address))
    }

    /// Declares a kernel parameter (a general variable defined by the launcher).
    pub(crate) fn declare_param(
        &mut self,
        name: &str,
        ty: ElemType,
        num_elts: u32,
        span: Span,
    ) -> Result<usize, LoadError> {
        let index = self.add_root(name, ty, num_elts, self.grf_bytes, false, span)?;
        self.insert(name, Symbol::Var(index), span)?;
        self.initialized.push(index);
        Ok(index)
    }

    pub(crate) fn declare(&mut self, decl: &Decl, span: Span) -> Result<(), LoadError> {
        let name = decl.name.as_str();
        if visa_isa::rules::predefined(name).is_some() {
            return Err(LoadError::new(
                span,
                format!("'{name}' is a predefined variable and cannot be declared"),
            ));
        }
        match &decl.kind {
            DeclKind::General {
                ty,
                num_elts,
                align,
                alias,
            } => {
                let max = visa_isa::rules::max_general_elements(self.grf_bytes);
                if !(1..=max).contains(num_elts) {
                    return Err(LoadError::new(
                        span,
                        format!("'{name}': num_elts must be in 1..={max}, not {num_elts}"),
                    ));
                }
                if visa_isa::rules::NON_VARIABLE_TYPES.contains(ty) {
                    return Err(LoadError::new(
                        span,
                        format!("'{name}': type {ty} cannot be used for a general variable"),
                    ));
                }
                let index = match alias {
                    Some((base, alias_offset)) => {
                        self.add_alias(name, *ty, *num_elts, base, *alias_offset, span)?
                    }
                    None => {
                        let align_bytes = align
                            .as_ref()
                            .map_or(1, |a| a.bytes.max(a.grfs * self.grf_bytes));
                        self.add_root(name, *ty, *num_elts, align_bytes, false, span)?
                    }
                };
                self.insert(name, Symbol::Var(index), span)
            }
            DeclKind::Address { num_elts } => {
                if !(1..=visa_isa::rules::MAX_ADDRESS_ELEMENTS).contains(num_elts) {
                    return Err(LoadError::new(
                        span,
                        format!(
                            "'{name}': an address variable has 1..={} elements",
                            visa_isa::rules::MAX_ADDRESS_ELEMENTS
                        ),
                    ));
                }
                let index = self.add_root(name, ElemType::Uw, *num_elts, 2, true, span)?;
                self.insert(name, Symbol::Var(index), span)
            }
            DeclKind::Predicate { num_elts } => {
                let index = u16::try_from(self.predicates.len())
                    .map_err(|_| LoadError::new(span, "too many predicate variables"))?;
                self.predicates.push((name.to_string(), *num_elts));
                self.insert(name, Symbol::Predicate(index), span)
            }
            DeclKind::Surface { num_elts, .. } => {
                let number = FIRST_USER_SURFACE + self.declared_surfaces;
                self.declared_surfaces += 1;
                let index = self.add_state(name, false, *num_elts, Some(number), span)?;
                self.insert(name, Symbol::Surface(SurfaceName::User(index)), span)
            }
            DeclKind::Sampler { num_elts, .. } => {
                let number = self.declared_samplers;
                self.declared_samplers += 1;
                let index = self.add_state(name, true, *num_elts, Some(number), span)?;
                self.insert(name, Symbol::Sampler(index), span)
            }
        }
    }

    fn add_state(
        &mut self,
        name: &str,
        sampler: bool,
        num_elts: u32,
        initial: Option<u32>,
        span: Span,
    ) -> Result<u16, LoadError> {
        let index = u16::try_from(self.states.len())
            .map_err(|_| LoadError::new(span, "too many surface and sampler variables"))?;
        let num_elts = num_elts.max(1);
        let first = self.state_slots;
        self.state_slots = first
            .checked_add(num_elts)
            .filter(|n| *n <= 0x1_0000)
            .ok_or_else(|| LoadError::new(span, "too many surface and sampler elements"))?;
        self.states.push(StateVar {
            name: name.to_string(),
            sampler,
            first,
            num_elts,
            initial,
        });
        Ok(index)
    }

    /// The state variable of a predefined surface name (`Tn`, `%bss`), created on first use.
    fn predefined_state(
        &mut self,
        name: &str,
        initial: Option<u32>,
        span: Span,
    ) -> Result<u16, LoadError> {
        if let Some(index) = self.states.iter().position(|s| s.name == name) {
            return Ok(index as u16);
        }
        self.add_state(name, false, 1, initial, span)
    }

    /// The surface variables a launch can bind by name (`T6`, declared surfaces).
    pub fn surfaces(&self) -> impl Iterator<Item = &str> {
        self.states
            .iter()
            .filter(|s| !s.sampler && s.initial.is_some())
            .map(|s| s.name.as_str())
    }

    /// The binding-table entry a launch binding of `name` fills: `Tn` (n >= 6) is entry n, a
    /// declared surface the entry its element 0 starts with.
    pub(crate) fn surface_number(&self, name: &str) -> Option<u32> {
        if let Some(state) = self.states.iter().find(|s| s.name == name && !s.sampler) {
            return state.initial;
        }
        user_surface_number(name)
    }

    fn add_alias(
        &mut self,
        name: &str,
        ty: ElemType,
        num_elts: u32,
        base: &str,
        alias_offset: u32,
        span: Span,
    ) -> Result<usize, LoadError> {
        let base_index = match self.lookup(base, span)? {
            Some(Symbol::Var(index)) => index,
            _ => {
                return Err(LoadError::new(
                    span,
                    format!("alias base '{base}' is not a declared general variable"),
                ));
            }
        };
        let base_var = self.vars[base_index].clone();
        if !alias_offset.is_multiple_of(ty.size()) {
            return Err(LoadError::new(
                span,
                format!("alias offset {alias_offset} is not aligned to type {ty}"),
            ));
        }
        let size = ty.size() * num_elts;
        let root = &self.vars[base_var.root];
        let offset = base_var.offset + alias_offset;
        if offset + size > root.offset + root.size.max(1) {
            return Err(LoadError::new(
                span,
                format!(
                    "alias '{name}' ({size} bytes at offset {alias_offset}) extends past '{base}'"
                ),
            ));
        }
        Ok(self.push_var(name, (ty, num_elts), offset, Some(base_var.root), false))
    }

    /// Adds a variable of `num_elts` elements of `ty` at byte `offset` of the register file,
    /// living in the storage of `root` (an alias) or in its own, and returns its index.
    fn push_var(
        &mut self,
        name: &str,
        (ty, num_elts): (ElemType, u32),
        offset: u32,
        root: Option<usize>,
        is_address: bool,
    ) -> usize {
        let index = self.vars.len();
        self.vars.push(VarInfo {
            name: name.to_string(),
            ty,
            num_elts,
            offset,
            size: ty.size() * num_elts,
            root: root.unwrap_or(index),
            is_address,
        });
        index
    }

    /// Resolves a name in the current scope chain, creating predefined variables on first use.
    pub(crate) fn lookup(&mut self, name: &str, span: Span) -> Result<Option<Symbol>, LoadError> {
        if let Some(symbol) = self.scopes.iter().rev().find_map(|s| s.get(name)) {
            return Ok(Some(*symbol));
        }
        // Predefined names are matched in any case, as the checker does (`%SR0` is `%sr0`).
        let lower;
        let name = if name.starts_with('%') && name.bytes().any(|b| b.is_ascii_uppercase()) {
            lower = name.to_ascii_lowercase();
            lower.as_str()
        } else {
            name
        };
        if let Some(surface) = predefined_surface(name) {
            let surface = match surface {
                PredefSurface::Slm => SurfaceName::Slm,
                PredefSurface::Stateless => SurfaceName::Stateless,
                PredefSurface::Unsupported => SurfaceName::Unsupported,
                PredefSurface::Bindless => {
                    SurfaceName::User(self.predefined_state("%bss", None, span)?)
                }
                PredefSurface::User(n) => {
                    SurfaceName::User(self.predefined_state(name, Some(n), span)?)
                }
            };
            return Ok(Some(Symbol::Surface(surface)));
        }
        if let Some(index) = self.predefined.get(name) {
            return Ok(Some(Symbol::Var(*index)));
        }
        // A second spelling (`%tm`) shares the storage of the name it stands for (`%tsc`).
        let Some(predefined) = visa_isa::rules::predefined(name) else {
            return Ok(None);
        };
        let canonical = predefined.canonical();
        if let Some(index) = self.predefined.get(canonical) {
            return Ok(Some(Symbol::Var(*index)));
        }
        let (ty, num_elts) = (predefined.ty, predefined.num_elts(self.grf_bytes));
        let index = self.add_root(canonical, ty, num_elts, ty.size(), false, span)?;
        self.predefined.insert(canonical.to_string(), index);
        self.top_level.insert(canonical.to_string(), index);
        if predefined.defined_at_start {
            self.initialized.push(index);
        }
        Ok(Some(Symbol::Var(index)))
    }

    /// The top-level variable named `name` (the ones a launch binds and captures).
    pub(crate) fn top_level_var(&self, name: &str) -> Option<&VarInfo> {
        self.top_level.get(name).and_then(|i| self.vars.get(*i))
    }

    /// The index of a predefined variable if the program uses it.
    pub(crate) fn predefined_index(&self, name: &str) -> Option<usize> {
        self.predefined.get(name).copied()
    }

    /// Name of the variable (root) owning register-file byte `byte`.
    pub fn var_at(&self, byte: u32) -> Option<&str> {
        self.vars
            .iter()
            .enumerate()
            .filter(|(index, v)| v.root == *index)
            .find(|(_, v)| byte >= v.offset && byte < v.offset + v.size)
            .map(|(_, v)| v.name.as_str())
    }
}

enum PredefSurface {
    Slm,
    Stateless,
    /// `%bss` / T4: bindless state, here a binding-table number set by `movs`.
    Bindless,
    Unsupported,
    User(u32),
}

/// `n` of a launch-bound surface `Tn`: from [`FIRST_USER_SURFACE`] to 255 (a binding-table
/// index is one byte).
fn user_surface_number(name: &str) -> Option<u32> {
    visa_isa::rules::surface_number(name).filter(|n| *n >= FIRST_USER_SURFACE)
}

/// What this model makes of a surface name that needs no declaration
/// ([`visa_isa::rules::undeclared_surface`]).
fn predefined_surface(name: &str) -> Option<PredefSurface> {
    Some(match visa_isa::rules::undeclared_surface(name)? {
        SLM_SURFACE => PredefSurface::Slm,
        STATELESS_SURFACE => PredefSurface::Stateless,
        BINDLESS_SURFACE => PredefSurface::Bindless,
        n if n >= FIRST_USER_SURFACE => PredefSurface::User(n),
        _ => PredefSurface::Unsupported,
    })
}
