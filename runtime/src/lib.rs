//! `visa-runtime`: executes vISA kernels on the CPU.
#![forbid(unsafe_code)]
