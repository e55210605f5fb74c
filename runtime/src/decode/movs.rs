//! `movs` (MOVS.md): the state operands resolve to per-thread state slots (or to the fixed
//! numbers of T0 and T5); the forms the document allows are checked here, at load.

use visa_isa::ast::{ElemType, Operand};
use visa_isa::instrs::view;

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::layout::{SLM_SURFACE, STATELESS_SURFACE, SurfaceName, Symbol};
use crate::ops::{Movs, MovsDst, MovsSrc, Op, StateElems};

/// A state operand: its elements, whether it is a sampler, and its name.
struct State<'n> {
    elems: StateElems,
    sampler: bool,
    name: &'n str,
}

impl Decoder<'_> {
    pub(super) fn decode_movs(&mut self, f: &Fields, i: &view::Movs) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        let (dst_op, src_op) = (i.dst, i.src0);
        let dst_state = self.state(f, dst_op, exec.size)?;
        let src_state = self.state(f, src_op, exec.size)?;
        let dst = match dst_state {
            Some(State {
                elems: StateElems::Slots { var, first },
                ..
            }) => MovsDst::State { var, first },
            Some(State { name, .. }) => {
                return Err(f.not_executed(format!(
                    "movs: '{name}' is a fixed predefined surface and cannot be re-pointed"
                )));
            }
            None => {
                if src_state.is_none() {
                    return Err(f.not_executed(
                        "movs: one operand must be a surface or sampler (general to general is mov)",
                    ));
                }
                let dst = self.dst(f, dst_op, exec.size)?;
                ud(f, "<dst>", dst.ty)?;
                MovsDst::General(dst)
            }
        };
        let src = match (&dst_state, src_state) {
            (Some(d), Some(s)) if d.sampler != s.sampler => {
                let class = |sampler| if sampler { "a sampler" } else { "a surface" };
                return Err(f.not_executed(format!(
                    "movs: '{}' is {} but '{}' is {}; state operands must be of one class",
                    d.name,
                    class(d.sampler),
                    s.name,
                    class(s.sampler)
                )));
            }
            (_, Some(s)) => MovsSrc::State(s.elems),
            (_, None) => {
                let src = self.src(f, src_op, exec.size, false)?;
                ud(f, "<src0>", src.ty)?;
                MovsSrc::Value(src)
            }
        };
        Ok(Op::Movs(Box::new(Movs { exec, dst, src })))
    }

    /// The state operand `op` names (`T6(0)`, `%bss(0)`, `S(1)`, or a bare state name), or
    /// `None` for a general, indirect or immediate operand. Its `count` elements must exist.
    fn state<'n>(
        &mut self,
        f: &Fields,
        op: &'n Operand,
        count: u32,
    ) -> Result<Option<State<'n>>, LoadError> {
        let (name, elem) = match op {
            Operand::Address { var, elem, .. } => (var.as_str(), *elem),
            Operand::Name(var) => (var.as_str(), 0),
            _ => return Ok(None),
        };
        let fixed = |number| {
            if elem + count > 1 {
                return Err(f.not_executed(format!("movs: '{name}' has one element")));
            }
            Ok(Some(State {
                elems: StateElems::Fixed(number),
                sampler: false,
                name,
            }))
        };
        let (var, sampler) = match self.layout.lookup(name, f.instr.span)? {
            Some(Symbol::Surface(SurfaceName::User(var))) => (var, false),
            Some(Symbol::Sampler(var)) => (var, true),
            Some(Symbol::Surface(SurfaceName::Slm)) => return fixed(SLM_SURFACE),
            Some(Symbol::Surface(SurfaceName::Stateless)) => return fixed(STATELESS_SURFACE),
            Some(Symbol::Surface(SurfaceName::Unsupported)) => {
                return Err(f.not_executed(format!(
                    "movs: surface '{name}' (stack or scratch-space state) is not modelled"
                )));
            }
            // An address variable written `A(0)`: a general operand.
            Some(_) => return Ok(None),
            None => return Err(f.not_executed(format!("movs: undeclared state variable '{name}'"))),
        };
        let state = self
            .layout
            .states
            .get(usize::from(var))
            .ok_or_else(|| f.not_executed(format!("movs: no state variable '{name}'")))?;
        if u64::from(elem) + u64::from(count) > u64::from(state.num_elts) {
            return Err(f.not_executed(format!(
                "movs: {count} element(s) from element {elem} reach outside '{name}' ({} element(s))",
                state.num_elts
            )));
        }
        Ok(Some(State {
            elems: StateElems::Slots {
                var,
                first: state.first + elem,
            },
            sampler,
            name,
        }))
    }
}

fn ud(f: &Fields, which: &str, ty: ElemType) -> Result<(), LoadError> {
    if ty == ElemType::Ud {
        Ok(())
    } else {
        Err(f.not_executed(format!(
            "movs: {which} has type {ty}; surface and sampler indices are moved as UD"
        )))
    }
}
