//! Why an instruction without CPU semantics is rejected: the message a load error gives for
//! the sampler, media, raw-send and graphics-output instructions, so that the user learns it
//! is a limit of the model and not a bug in the kernel.

/// A class of instructions whose effect depends on fixed-function hardware that vISA does not
/// describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoCpuSemantics {
    /// `sample*`, `load*`, `3d_*`, `info`, `sample_unorm`.
    Sampler,
    /// Media block loads/stores, VME and AVS.
    Media,
    /// `raw_send`/`raw_sends`.
    RawSend,
    /// Render-target and URB writes, typed surface accesses.
    GraphicsOutput,
    /// The typed LSC messages (`lsc_load_quad.tgm`, `lsc_atomic_*.tgm`): elements of a typed
    /// surface addressed by coordinates.
    TypedSurface,
    /// An instruction of a document this runtime was not written for (the build read further
    /// documents than `spec/`), in none of the classes above.
    NotYet,
}

impl NoCpuSemantics {
    /// Why the runtime does not execute instructions of this class (the text of the load
    /// error).
    pub fn reason(self) -> &'static str {
        match self {
            Self::Sampler => {
                "texture sampling has no defined CPU semantics (fixed-function units, formats, \
                 filtering)"
            }
            Self::Media => "media engine payloads are not documented in vISA",
            Self::RawSend => {
                "the message descriptor's meaning is defined per shared function by hardware, \
                 not by vISA"
            }
            Self::GraphicsOutput => {
                "graphics-pipeline outputs / typed surface formats have no CPU meaning"
            }
            Self::TypedSurface => {
                "typed surfaces (element formats, dimensions, array slices and mip levels \
                 addressed by u, v, r, lod coordinates) are not modelled here"
            }
            Self::NotYet => {
                "this runtime has no semantics for it yet (it is not one of the instructions \
                 of the runtime's spec/)"
            }
        }
    }
}

/// Classifies an instruction without a generated [`visa_isa::Opcode`] (a custom table's
/// entry, a document unknown when the crate was built; [`super::execution`] decides for the
/// others) by its table entry: its upper-case name (`3D_SAMPLE`, `VME_IME`)
/// and the names of its Format fields. The names decide first, since several classes share
/// fields (AVS, a media operation, has a `Sampler` field like the sampler messages); the
/// fields then catch entries the name list does not know (any message with a descriptor
/// field is a raw send, any with a sampler or LOD field uses the sampler).
pub(crate) fn classify(name: &str, field_names: &[&str]) -> Option<NoCpuSemantics> {
    let by_name = if name.starts_with("VME") || name.starts_with("MEDIA_") || name == "AVS" {
        Some(NoCpuSemantics::Media)
    } else if name.starts_with("RAW_SEND") {
        Some(NoCpuSemantics::RawSend)
    } else if name.starts_with("3D_")
        || name.starts_with("SAMPLE")
        || name.starts_with("LOAD")
        || name == "INFO"
    {
        Some(NoCpuSemantics::Sampler)
    } else if name.starts_with("RT_WRITE")
        || name.starts_with("URB_WRITE")
        || name.contains("TYPED")
    {
        Some(NoCpuSemantics::GraphicsOutput)
    } else {
        None
    };
    by_name.or_else(|| {
        let has = |wanted: &[&str]| {
            field_names
                .iter()
                .any(|f| wanted.iter().any(|w| f.eq_ignore_ascii_case(w)))
        };
        if has(&["Desc", "Msg_desc", "MsgDesc", "ExMsgDesc", "Ex_msg_desc"]) {
            Some(NoCpuSemantics::RawSend)
        } else if has(&["Sampler", "LOD", "Aoffimmi"]) {
            Some(NoCpuSemantics::Sampler)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::NoCpuSemantics::*;
    use super::classify;

    // Field lists as the upstream Format tables give them (these entries are not in spec/).
    #[test]
    fn each_class_is_recognised_by_name() {
        let cases: &[(&str, &[&str], _)] = &[
            (
                "3D_LOAD",
                &["Op", "Exec_size", "Pred", "Channels", "Aoffimmi", "Surface"],
                Sampler,
            ),
            (
                "3D_SAMPLE",
                &["Op", "Exec_size", "Pred", "Channels", "Sampler"],
                Sampler,
            ),
            (
                "INFO",
                &["Op", "Exec_size", "Surface", "LOD", "Dst"],
                Sampler,
            ),
            (
                "SAMPLE_UNORM",
                &["Channel_mask", "Sampler", "Surface", "U_offset"],
                Sampler,
            ),
            (
                "AVS",
                &["Channels", "Sampler", "Surface", "U_offset"],
                Media,
            ),
            (
                "MEDIA_LD",
                &["Modifiers", "Surface", "Plane", "Block_width"],
                Media,
            ),
            (
                "VME_IME",
                &["StreamMode", "SearchCtrl", "UNIInput", "IMEInput"],
                Media,
            ),
            (
                "VME_FBR",
                &["UNIInput", "FBRInput", "Surface", "FBRMbMode"],
                Media,
            ),
            (
                "RAW_SEND",
                &["Modifiers", "Exec_size", "Pred", "ExMsgDesc"],
                RawSend,
            ),
            (
                "RT_WRITE",
                &["Exec_size", "Pred", "Mode", "Surface", "Header"],
                GraphicsOutput,
            ),
            (
                "SCATTER4_TYPED",
                &["Exec_size", "Pred", "Channels", "Surface", "U"],
                GraphicsOutput,
            ),
        ];
        for (name, fields, class) in cases {
            assert_eq!(classify(name, fields), Some(*class), "{name}");
        }
    }

    #[test]
    fn unknown_names_are_classified_by_their_fields() {
        assert_eq!(
            classify("SENDX", &["Exec_size", "Msg_desc", "Dst"]),
            Some(RawSend)
        );
        assert_eq!(
            classify("GATHER4_SAMPLER", &["Sampler", "Dst"]),
            Some(Sampler)
        );
        assert_eq!(classify("MOVS", &["Exec_size", "Dst", "Src0"]), None);
        assert_eq!(
            classify("GATHER4_SCALED", &["Channels", "Surface", "Offset"]),
            None
        );
    }

    #[test]
    fn reasons_name_the_limit() {
        assert!(Sampler.reason().contains("texture sampling"));
        assert!(Media.reason().contains("media engine"));
        assert!(RawSend.reason().contains("message descriptor"));
        assert!(GraphicsOutput.reason().contains("typed surface"));
    }
}
