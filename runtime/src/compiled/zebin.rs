//! The zebin container: an ELF file (read with `object`) whose `.ze_info` section holds the
//! kernels' ABI, `.text.NAME` their machine code and notes the target product family.

use object::read::elf::{ElfFile64, SectionHeader};
use object::{Object, ObjectSection, ObjectSymbol};

use super::CompiledError;
use super::zeinfo::ZeInfo;

/// `.note.intelgt.compat` note type 1: the product family the program was compiled for.
const NOTE_PRODUCT_FAMILY: u32 = 1;
/// IGFX_DG2 and IGFX_PVC in Intel's product-family numbering.
const FAMILY_DG2: u32 = 1270;
const FAMILY_PVC: u32 = 1271;
/// The largest `.ze_info` accepted (IGC writes a few KiB per kernel).
const MAX_ZE_INFO: u64 = 16 << 20;

/// The device a zebin was compiled for, from its product-family note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    Dg2,
    Pvc,
}

impl Device {
    /// Bytes per GRF.
    pub fn grf_bytes(self) -> u32 {
        match self {
            Device::Dg2 => 32,
            Device::Pvc => 64,
        }
    }

    pub fn platform(self) -> visa_isa::rules::Platform {
        match self {
            Device::Dg2 => visa_isa::rules::Platform::Dg2,
            Device::Pvc => visa_isa::rules::Platform::Pvc,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Device::Dg2 => "dg2",
            Device::Pvc => "pvc",
        }
    }
}

/// What the runtime takes from a zebin.
pub(super) struct Zebin {
    pub device: Device,
    pub ze_info: ZeInfo,
    /// Sections of global or constant program data (`.data.const`, `.data.global`): name and
    /// contents (zeros for a section without file data).
    pub data_sections: Vec<(String, Vec<u8>)>,
    /// Symbols defined in those sections: name, section name, offset in the section.
    pub symbols: Vec<(String, String, u64)>,
}

/// The largest program data section accepted.
const MAX_DATA_SECTION: u64 = 256 << 20;

pub(super) fn read(bytes: &[u8]) -> Result<Zebin, CompiledError> {
    let zebin = |message: String| CompiledError::Zebin(message);
    let elf = ElfFile64::<object::LittleEndian>::parse(bytes)
        .map_err(|e| zebin(format!("not a 64-bit little-endian ELF file: {e}")))?;
    let mut ze_info = None;
    let mut device = None;
    let mut data_sections = Vec::new();
    for section in elf.sections() {
        let name = section
            .name()
            .map_err(|e| zebin(format!("section name: {e}")))?;
        if name == ".ze_info" {
            if section.size() > MAX_ZE_INFO {
                return Err(zebin(format!(
                    ".ze_info is {} bytes, more than the {MAX_ZE_INFO} accepted",
                    section.size()
                )));
            }
            let data = section
                .data()
                .map_err(|e| zebin(format!(".ze_info: {e}")))?;
            let text = std::str::from_utf8(data)
                .map_err(|e| zebin(format!(".ze_info is not UTF-8: {e}")))?;
            ze_info = Some(
                serde_norway::from_str::<ZeInfo>(text)
                    .map_err(|e| CompiledError::ZeInfo(e.to_string()))?,
            );
        } else if name.starts_with(".data.") || name.starts_with(".bss.") {
            if section.size() > MAX_DATA_SECTION {
                return Err(zebin(format!(
                    "{name} is {} bytes, more than the {MAX_DATA_SECTION} accepted",
                    section.size()
                )));
            }
            let mut bytes = section
                .uncompressed_data()
                .map_err(|e| zebin(format!("{name}: {e}")))?
                .into_owned();
            bytes.resize(section.size() as usize, 0);
            data_sections.push((name.to_string(), bytes));
        } else if name == ".note.intelgt.compat" {
            device = device.or(product_family(&elf, &section)?);
        }
    }
    let mut symbols = Vec::new();
    for symbol in elf.symbols() {
        let (Ok(name), Some(index)) = (symbol.name(), symbol.section_index()) else {
            continue;
        };
        let Ok(section) = elf.section_by_index(index) else {
            continue;
        };
        let Ok(section_name) = section.name() else {
            continue;
        };
        if data_sections.iter().any(|(n, _)| n == section_name) {
            symbols.push((name.to_string(), section_name.to_string(), symbol.address()));
        }
    }
    let ze_info = ze_info.ok_or_else(|| zebin("no .ze_info section".into()))?;
    let device = device.ok_or_else(|| {
        zebin("no product-family note (.note.intelgt.compat): the target device is unknown".into())
    })?;
    Ok(Zebin {
        device,
        ze_info,
        data_sections,
        symbols,
    })
}

fn product_family(
    elf: &ElfFile64<object::LittleEndian>,
    section: &object::read::elf::ElfSection64<object::LittleEndian>,
) -> Result<Option<Device>, CompiledError> {
    let endian = elf.endian();
    let header = section.elf_section_header();
    let notes = header
        .notes(endian, elf.data())
        .map_err(|e| CompiledError::Zebin(format!(".note.intelgt.compat: {e}")))?;
    let Some(mut notes) = notes else {
        return Ok(None);
    };
    while let Some(note) = notes
        .next()
        .map_err(|e| CompiledError::Zebin(format!(".note.intelgt.compat: {e}")))?
    {
        if note.name() != b"IntelGT" || note.n_type(endian) != NOTE_PRODUCT_FAMILY {
            continue;
        }
        let desc = note.desc();
        let family = desc
            .get(..4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| {
                CompiledError::Zebin("product-family note shorter than 4 bytes".into())
            })?;
        return match family {
            FAMILY_DG2 => Ok(Some(Device::Dg2)),
            FAMILY_PVC => Ok(Some(Device::Pvc)),
            other => Err(CompiledError::Zebin(format!(
                "product family {other} is not supported (DG2 = {FAMILY_DG2}, PVC = {FAMILY_PVC})"
            ))),
        };
    }
    Ok(None)
}
