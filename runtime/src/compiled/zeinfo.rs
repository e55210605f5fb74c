//! The `.ze_info` section of a zebin: the YAML document in which IGC describes each kernel's
//! ABI. Every structure denies unknown fields, so a field this runtime does not know is an error
//! naming it rather than something silently ignored.

// Every field is read to validate the document; some only inform (`access_type`, qualifiers).
#![allow(dead_code)]

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZeInfo {
    pub version: String,
    pub kernels: Vec<KernelInfo>,
    #[serde(default)]
    pub kernels_misc_info: Vec<KernelMiscInfo>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelInfo {
    pub name: String,
    pub execution_env: ExecutionEnv,
    #[serde(default)]
    pub payload_arguments: Vec<PayloadArgument>,
    #[serde(default)]
    pub per_thread_payload_arguments: Vec<PerThreadArgument>,
    #[serde(default)]
    pub binding_table_indices: Vec<BindingTableIndex>,
    #[serde(default)]
    pub per_thread_memory_buffers: Vec<MemoryBuffer>,
    /// Source attributes (`intel_reqd_sub_group_size`): information only.
    #[serde(default)]
    pub user_attributes: Option<serde_norway::Value>,
}

/// The execution environment. The flags that only tell the driver what it may skip or how to
/// schedule are accepted and have no effect here; the fields that change the launch are used.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecutionEnv {
    pub simd_size: u32,
    pub grf_count: u32,
    #[serde(default)]
    pub slm_size: u32,
    #[serde(default)]
    pub barrier_count: u32,
    #[serde(default)]
    pub inline_data_payload_size: u32,
    #[serde(default)]
    pub offset_to_skip_per_thread_data_load: u32,
    #[serde(default)]
    pub has_4gb_buffers: bool,
    #[serde(default)]
    pub has_global_atomics: bool,
    #[serde(default)]
    pub has_no_stateless_write: bool,
    #[serde(default)]
    pub subgroup_independent_forward_progress: bool,
    #[serde(default)]
    pub disable_mid_thread_preemption: bool,
    #[serde(default)]
    pub required_sub_group_size: Option<u32>,
    #[serde(default)]
    pub has_fence_for_image_access: bool,
    #[serde(default)]
    pub has_dpas: bool,
    #[serde(default)]
    pub require_disable_eufusion: bool,
}

/// One entry of `payload_arguments`: where the driver writes something in the cross-thread data.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PayloadArgument {
    pub arg_type: String,
    pub offset: u32,
    pub size: u32,
    #[serde(default)]
    pub arg_index: Option<u32>,
    #[serde(default)]
    pub addrmode: Option<String>,
    #[serde(default)]
    pub addrspace: Option<String>,
    #[serde(default)]
    pub access_type: Option<String>,
    #[serde(default)]
    pub source_offset: Option<u32>,
    #[serde(default)]
    pub slm_alignment: Option<u32>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerThreadArgument {
    pub arg_type: String,
    pub offset: u32,
    pub size: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BindingTableIndex {
    pub bti_value: u32,
    pub arg_index: u32,
}

/// `per_thread_memory_buffers`: private or scratch memory the driver allocates.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryBuffer {
    #[serde(rename = "type")]
    pub kind: String,
    pub usage: String,
    pub size: u32,
    #[serde(default)]
    pub slot: Option<u32>,
    #[serde(default)]
    pub is_simt_thread: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelMiscInfo {
    pub name: String,
    #[serde(default)]
    pub args_info: Vec<ArgInfo>,
}

/// What the OpenCL source says about one argument.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArgInfo {
    pub index: u32,
    pub name: String,
    pub address_qualifier: String,
    pub access_qualifier: String,
    /// `float*;8`: the type and its size in bytes.
    pub type_name: String,
    pub type_qualifiers: String,
}
