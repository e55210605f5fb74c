//! Operand decoding: names resolved through the scopes to register-file byte offsets, predicate
//! indices, surfaces and labels; regions checked against their variables.

use visa_isa::ast::{ElemType, Immediate, Operand, Predicate, Region, Span, SrcMod};

use super::{Decoder, Fields};
use crate::convert::vf_to_f32;
use crate::error::LoadError;
use crate::layout::{SurfaceName, Symbol};
use crate::ops::*;

fn grf_region_default(region: Option<Region>, exec_size: u32) -> (u32, u32, u32) {
    match region {
        Some(Region {
            vs: Some(vs),
            width: Some(w),
            hs,
        }) => (u32::from(vs), u32::from(w), u32::from(hs)),
        Some(Region {
            vs: None,
            width: Some(w),
            hs,
        }) => (0, u32::from(w), u32::from(hs)),
        Some(Region { hs, .. }) => (u32::from(hs), 1, 0),
        // (Always `<vs;w,hs>` for a source, so the recursion ends at the first arm.)
        None => grf_region_default(Some(Region::implied(false, exec_size == 1)), exec_size),
    }
}

/// `base + sum(count * unit)`, rejecting offsets beyond the 64 KiB register file.
/// A variable named whole (`V`, or the variable of a raw operand) as the general operand
/// `V(0,0)` of its declared type and the default region.
fn whole_variable(var: &str) -> Operand {
    Operand::General {
        modifier: SrcMod::None,
        var: var.to_string(),
        row: 0,
        col: 0,
        region: None,
        ty: None,
    }
}

fn offset_in(f: &Fields, base: u32, terms: [(u32, u32); 2]) -> Result<u32, LoadError> {
    let total = terms.iter().fold(u64::from(base), |acc, (count, unit)| {
        acc + u64::from(*count) * u64::from(*unit)
    });
    u32::try_from(total)
        .ok()
        .filter(|t| *t < 0x1_0000)
        .ok_or_else(|| f.not_executed("operand offset is outside the 64 KiB register file"))
}

impl Decoder<'_> {
    pub(super) fn pred(
        &mut self,
        f: &Fields,
        pred: Option<&Predicate>,
    ) -> Result<Option<PredCtl>, LoadError> {
        match pred {
            Some(Predicate {
                name,
                inverse,
                control,
            }) => {
                let index = self.predicate_by_name(name, f.instr.span)?;
                Ok(Some(PredCtl {
                    index,
                    inverse: *inverse,
                    control: *control,
                }))
            }
            None => Ok(None),
        }
    }

    fn predicate_by_name(&mut self, name: &str, span: Span) -> Result<u16, LoadError> {
        match self.layout.lookup(name, span)? {
            Some(Symbol::Predicate(index)) => Ok(index),
            Some(_) => Err(LoadError::new(
                span,
                format!("'{name}' is not a predicate variable"),
            )),
            None if visa_isa::rules::is_placeholder(name) => Err(LoadError::unbound(span, name)),
            None => Err(LoadError::new(
                span,
                format!("undeclared predicate '{name}'"),
            )),
        }
    }

    /// Mask of the bits a predicate declares (all 32 when it declares 32 or more).
    fn predicate_bits(&self, index: u16) -> u32 {
        let count = self
            .layout
            .predicates
            .get(usize::from(index))
            .map_or(32, |(_, n)| *n);
        if count >= 32 {
            u32::MAX
        } else {
            (1u32 << count) - 1
        }
    }

    fn operand_name(op: &Operand) -> Option<&str> {
        match op {
            Operand::Predicate { var } | Operand::Name(var) => Some(var),
            Operand::General { var, .. } => Some(var),
            _ => None,
        }
    }

    pub(super) fn is_predicate(&mut self, op: &Operand, span: Span) -> Result<bool, LoadError> {
        match Self::operand_name(op) {
            Some(name) => Ok(matches!(
                self.layout.lookup(name, span)?,
                Some(Symbol::Predicate(_))
            )),
            None => Ok(false),
        }
    }

    pub(super) fn predicate_operand(&mut self, f: &Fields, op: &Operand) -> Result<u16, LoadError> {
        match Self::operand_name(op) {
            Some(name) => self.predicate_by_name(name, f.instr.span),
            None => Err(f.err_about(op, format!("expected a predicate operand, found {op:?}"))),
        }
    }

    pub(super) fn label(&mut self, f: &Fields, op: &Operand) -> Result<usize, LoadError> {
        match Self::operand_name(op) {
            Some(name) => self
                .labels
                .get(name)
                .copied()
                .ok_or_else(|| f.err_about(op, format!("undefined label '{name}'"))),
            None => Err(f.err_about(op, format!("expected a label, found {op:?}"))),
        }
    }

    pub(super) fn surface(&mut self, f: &Fields, op: &Operand) -> Result<SurfaceRef, LoadError> {
        let Some(name) = Self::operand_name(op) else {
            return Err(f.err_about(op, format!("expected a surface, found {op:?}")));
        };
        match self.layout.lookup(name, f.instr.span)? {
            Some(Symbol::Surface(SurfaceName::Slm)) => Ok(SurfaceRef::Slm),
            Some(Symbol::Surface(SurfaceName::Stateless)) => Ok(SurfaceRef::Stateless),
            Some(Symbol::Surface(SurfaceName::User(index))) => Ok(SurfaceRef::Var(index)),
            Some(Symbol::Surface(SurfaceName::Unsupported)) => Err(f.not_executed_about(
                op,
                format!("surface '{name}' (stack or scratch-space state) is not modelled"),
            )),
            Some(_) => Err(f.err_about(op, format!("'{name}' is not a surface"))),
            None if visa_isa::rules::is_placeholder(name) => {
                Err(LoadError::unbound(f.instr.span, name))
            }
            None => Err(f.err_about(op, format!("undeclared surface '{name}'"))),
        }
    }

    pub(super) fn general_var(&mut self, f: &Fields, name: &str) -> Result<usize, LoadError> {
        match self.layout.lookup(name, f.instr.span)? {
            Some(Symbol::Var(index)) => Ok(index),
            Some(_) => Err(f.err(format!("'{name}' is not a general or address variable"))),
            None if visa_isa::rules::is_placeholder(name) => {
                Err(LoadError::unbound(f.instr.span, name))
            }
            None => Err(f.err(format!("undeclared variable '{name}'"))),
        }
    }

    /// The register bytes an operand of variable `var` may touch: its root variable's (an
    /// access through an alias may extend past the alias inside the root, as the compiler
    /// allows), as `[start, end)`.
    pub(super) fn storage(&self, var: usize) -> (u32, u32) {
        let v = &self.layout.vars[var];
        let root = self.layout.vars.get(v.root).unwrap_or(v);
        (root.offset, root.offset + root.size)
    }

    /// Where an access outside a variable's storage is: the variable, and its root when it is an
    /// alias, for messages.
    fn storage_name(&self, var: usize) -> String {
        let v = &self.layout.vars[var];
        match self.layout.vars.get(v.root).filter(|_| v.root != var) {
            Some(root) => format!(
                "'{}' (an alias of {} bytes at byte {} of '{}', {} bytes)",
                v.name,
                v.size,
                v.offset - root.offset,
                root.name,
                root.size
            ),
            None => format!("'{}' ({} bytes)", v.name, v.size),
        }
    }

    /// A direct general operand `var(row, col)<..>:ty`: its variable, element type (the
    /// declared one when the operand names none) and first byte.
    fn direct_origin(
        &mut self,
        f: &Fields,
        op: &Operand,
    ) -> Result<(usize, ElemType, u32), LoadError> {
        let Operand::General {
            var, row, col, ty, ..
        } = op
        else {
            return Err(f.err_about(op, "expected a general operand"));
        };
        let index = self.general_var(f, var)?;
        let v = &self.layout.vars[index];
        let ty = ty.unwrap_or(v.ty);
        let base = offset_in(
            f,
            v.offset,
            [(*row, self.layout.grf_bytes), (*col, ty.size())],
        )?;
        Ok((index, ty, base))
    }

    /// Checks that every byte a direct operand touches lies inside its variable's storage (its
    /// root variable's, for an alias).
    fn check_direct(
        &self,
        f: &Fields,
        var: usize,
        bytes: impl Iterator<Item = u32>,
        size: u32,
    ) -> Result<(), LoadError> {
        let v = &self.layout.vars[var];
        let (start, end) = self.storage(var);
        for byte in bytes {
            if byte < start || byte + size > end {
                return Err(f.not_executed(format!(
                    "operand reaches outside {} at byte {} (the verifier only warns; this \
                     runtime keeps each access inside its variable, or an alias's root)",
                    self.storage_name(var),
                    i64::from(byte) - i64::from(v.offset)
                )));
            }
        }
        Ok(())
    }

    pub(super) fn src(
        &mut self,
        f: &Fields,
        op: &Operand,
        exec_size: u32,
        scalar: bool,
    ) -> Result<Src, LoadError> {
        if let Operand::General {
            var, ty, modifier, ..
        } = op
            && var == "%null"
        {
            return Ok(Src {
                kind: SrcKind::Null,
                ty: ty.unwrap_or(ElemType::Ud),
                modifier: *modifier,
            });
        }
        match op {
            Operand::General {
                modifier, region, ..
            } => {
                if self.is_predicate(op, f.instr.span)? {
                    let index = self.predicate_operand(f, op)?;
                    return Ok(Src {
                        kind: SrcKind::Pred(index, self.predicate_bits(index)),
                        ty: ElemType::Ud,
                        modifier: SrcMod::None,
                    });
                }
                let (index, ty, base) = self.direct_origin(f, op)?;
                let (vs, w, hs) = if scalar {
                    (0, 1, 0)
                } else {
                    grf_region_default(*region, exec_size)
                };
                if w == 0 || w > 16 {
                    return Err(f.err_about(op, format!("region width {w} is not allowed")));
                }
                let size = ty.size();
                let count = if scalar { 1 } else { exec_size };
                self.check_direct(
                    f,
                    index,
                    (0..count).map(|i| base + ((i / w) * vs + (i % w) * hs) * size),
                    size,
                )?;
                Ok(Src {
                    kind: SrcKind::Direct { base, vs, w, hs },
                    ty,
                    modifier: *modifier,
                })
            }
            Operand::Indirect {
                modifier,
                addr,
                addr_elem,
                offset,
                region,
                ty,
            } => {
                let index = self.general_var(f, addr)?;
                let v = &self.layout.vars[index];
                if !v.is_address {
                    return Err(f.err_about(op, format!("'{addr}' is not an address variable")));
                }
                if *addr_elem >= v.num_elts {
                    return Err(f.not_executed_about(
                        op,
                        format!("address element {addr_elem} is outside '{addr}'"),
                    ));
                }
                let addr_byte = v.offset + addr_elem * 2;
                let kind =
                    match region {
                        Some(Region {
                            vs: None,
                            width: Some(w),
                            hs,
                        }) if !scalar => {
                            let (w, hs) = (u32::from(*w).max(1), u32::from(*hs));
                            if u64::from(*addr_elem) + u64::from(exec_size.div_ceil(w))
                                > u64::from(v.num_elts)
                            {
                                return Err(f.not_executed_about(op, format!(
                                "multi-address operand needs more elements than '{addr}' has"
                            )));
                            }
                            SrcKind::MultiIndirect {
                                addr: addr_byte,
                                offset: *offset,
                                w,
                                hs,
                            }
                        }
                        _ => {
                            let (vs, w, hs) = if scalar {
                                (0, 1, 0)
                            } else {
                                grf_region_default(*region, exec_size)
                            };
                            SrcKind::Indirect {
                                addr: addr_byte,
                                offset: *offset,
                                vs,
                                w: w.max(1),
                                hs,
                            }
                        }
                    };
                Ok(Src {
                    kind,
                    ty: *ty,
                    modifier: *modifier,
                })
            }
            Operand::Address { var, elem, width } => {
                let index = self.general_var(f, var)?;
                let v = &self.layout.vars[index];
                if !v.is_address {
                    return Err(f.err_about(op, format!("'{var}' is not an address variable")));
                }
                let w = (*width).max(1);
                if u64::from(*elem) + u64::from(w) > u64::from(v.num_elts) {
                    return Err(f.not_executed_about(
                        op,
                        format!(
                            "address operand reaches outside '{var}' (the verifier checks only the \
                         number of address registers)"
                        ),
                    ));
                }
                Ok(Src {
                    kind: SrcKind::Direct {
                        base: v.offset + elem * 2,
                        vs: 0,
                        w,
                        hs: 1,
                    },
                    ty: ElemType::Uw,
                    modifier: SrcMod::None,
                })
            }
            Operand::AddressOf { var, offset } => {
                let index = self.general_var(f, var)?;
                let address = i64::from(self.layout.vars[index].offset) + i64::from(*offset);
                Ok(Src {
                    kind: SrcKind::Imm(vec![address as u64 & 0xffff].into()),
                    ty: ElemType::Uw,
                    modifier: SrcMod::None,
                })
            }
            Operand::Immediate(imm) => immediate(f, *imm, if scalar { 1 } else { exec_size }),
            Operand::Raw { var, offset } => {
                // A raw operand used where a scalar is expected: its first element.
                if var == "%null" {
                    return Ok(Src {
                        kind: SrcKind::Null,
                        ty: ElemType::Ud,
                        modifier: SrcMod::None,
                    });
                }
                let index = self.general_var(f, var)?;
                let v = &self.layout.vars[index];
                let ty = v.ty;
                let base = offset_in(f, v.offset, [(*offset, 1), (0, 0)])?;
                self.check_direct(f, index, std::iter::once(base), ty.size())?;
                Ok(Src {
                    kind: SrcKind::Direct {
                        base,
                        vs: 0,
                        w: 1,
                        hs: 0,
                    },
                    ty,
                    modifier: SrcMod::None,
                })
            }
            Operand::Predicate { .. } => {
                let index = self.predicate_operand(f, op)?;
                Ok(Src {
                    kind: SrcKind::Pred(index, self.predicate_bits(index)),
                    ty: ElemType::Ud,
                    modifier: SrcMod::None,
                })
            }
            Operand::Name(name) => {
                // A variable written whole: its first element, broadcast (scalar use) or
                // contiguous.
                let general = whole_variable(name);
                self.src(f, &general, exec_size, scalar)
            }
        }
    }

    pub(super) fn dst(
        &mut self,
        f: &Fields,
        op: &Operand,
        exec_size: u32,
    ) -> Result<Dst, LoadError> {
        if let Operand::General { modifier, .. } | Operand::Indirect { modifier, .. } = op
            && *modifier != SrcMod::None
        {
            return Err(f.err_about(op, "a destination cannot have a source modifier"));
        }
        if let Operand::General { var, ty, .. } = op
            && var == "%null"
        {
            return Ok(Dst {
                kind: DstKind::Null,
                ty: ty.unwrap_or(ElemType::Ud),
            });
        }
        match op {
            Operand::General { region, .. } => {
                let (index, ty, base) = self.direct_origin(f, op)?;
                let hs = region.map_or(1, |r| u32::from(r.hs));
                if hs == 0 {
                    return Err(f.err_about(op, "destination horizontal stride must not be 0"));
                }
                self.check_direct(
                    f,
                    index,
                    (0..exec_size).map(|i| base + i * hs * ty.size()),
                    ty.size(),
                )?;
                Ok(Dst {
                    kind: DstKind::Direct { base, hs },
                    ty,
                })
            }
            // Fields in the order the checks use them.
            Operand::Indirect {
                region,
                addr,
                addr_elem,
                offset,
                ty,
                ..
            } => {
                if matches!(
                    region,
                    Some(Region {
                        vs: None,
                        width: Some(_),
                        ..
                    })
                ) {
                    return Err(f.err_about(
                        op,
                        "a multi-address indirect operand cannot be a destination",
                    ));
                }
                let index = self.general_var(f, addr)?;
                let v = &self.layout.vars[index];
                if !v.is_address || *addr_elem >= v.num_elts {
                    return Err(f.err_about(
                        op,
                        format!("'{addr}({addr_elem})' is not an address element"),
                    ));
                }
                let hs = region.map_or(1, |r| u32::from(r.hs)).max(1);
                Ok(Dst {
                    kind: DstKind::Indirect {
                        addr: v.offset + addr_elem * 2,
                        offset: *offset,
                        hs,
                    },
                    ty: *ty,
                })
            }
            Operand::Address { var, elem, .. } => {
                let index = self.general_var(f, var)?;
                let v = &self.layout.vars[index];
                if !v.is_address || u64::from(*elem) + u64::from(exec_size) > u64::from(v.num_elts)
                {
                    return Err(f.not_executed_about(
                        op,
                        format!(
                            "address destination reaches outside '{var}' (the verifier checks only \
                         the number of address registers)"
                        ),
                    ));
                }
                Ok(Dst {
                    kind: DstKind::Direct {
                        base: v.offset + elem * 2,
                        hs: 1,
                    },
                    ty: ElemType::Uw,
                })
            }
            Operand::Raw { var, offset } => {
                let general = whole_variable(var);
                let mut dst = self.dst(f, &general, 1)?;
                if let DstKind::Direct { base, .. } = &mut dst.kind {
                    *base = offset_in(f, *base, [(*offset, 1), (0, 0)])?;
                }
                Ok(dst)
            }
            Operand::Name(name) => {
                let general = whole_variable(name);
                self.dst(f, &general, exec_size)
            }
            other => Err(f.err_about(op, format!("{other:?} cannot be a destination"))),
        }
    }

    /// A raw operand of which `len` bytes are used.
    pub(super) fn raw(&mut self, f: &Fields, op: &Operand, len: u32) -> Result<Raw, LoadError> {
        let (var, offset) = match op {
            Operand::Raw { var, offset } => (var.as_str(), *offset),
            Operand::General { var, row, col, .. } => {
                let index = self.general_var(f, var)?;
                let size = self.layout.vars[index].ty.size();
                (var.as_str(), row * self.layout.grf_bytes + col * size)
            }
            Operand::Name(var) => (var.as_str(), 0),
            other => {
                return Err(f.err_about(op, format!("expected a raw operand, found {other:?}")));
            }
        };
        if var == "%null" {
            return Ok(Raw {
                base: 0,
                end: 0,
                null: true,
            });
        }
        let index = self.general_var(f, var)?;
        let v = &self.layout.vars[index];
        let base = offset_in(f, v.offset, [(offset, 1), (0, 0)])?;
        // Through an alias, up to the end of its root.
        let (_, end) = self.storage(index);
        if u64::from(base) + u64::from(len) > u64::from(end) {
            return Err(f.not_executed_about(
                op,
                format!(
                    "the message needs {len} bytes of {} from byte {offset}, past its end (the \
                 verifier does not check raw operands against their variable; this runtime \
                 keeps each access inside it, or inside an alias's root)",
                    self.storage_name(index)
                ),
            ));
        }
        Ok(Raw {
            base,
            end,
            null: false,
        })
    }
}

pub(super) fn immediate(f: &Fields, imm: Immediate, exec_size: u32) -> Result<Src, LoadError> {
    let (values, ty): (Vec<u64>, ElemType) = match imm.ty {
        ElemType::V => (
            (0..8)
                .map(|i| {
                    let nibble = ((imm.bits >> (4 * i)) & 0xf) as i64;
                    let value = if nibble >= 8 { nibble - 16 } else { nibble };
                    value as u64 & 0xffff
                })
                .collect(),
            ElemType::W,
        ),
        ElemType::Uv => (
            (0..8).map(|i| (imm.bits >> (4 * i)) & 0xf).collect(),
            ElemType::Uw,
        ),
        ElemType::Vf => (
            (0..4)
                .map(|i| u64::from(vf_to_f32((imm.bits >> (8 * i)) as u8).to_bits()))
                .collect(),
            ElemType::F,
        ),
        ty => (vec![imm.bits], ty),
    };
    if values.len() > 1 && exec_size as usize > values.len() {
        return Err(f.not_executed(format!(
            "a packed {} immediate holds {} elements, fewer than the execution size {exec_size}",
            imm.ty,
            values.len()
        )));
    }
    Ok(Src {
        kind: SrcKind::Imm(values.into()),
        ty,
        modifier: SrcMod::None,
    })
}
