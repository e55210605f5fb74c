//! Launches an OpenCL kernel compiled by IGC: the zebin and the vISA dump of `saxpy` from the
//! checked-in corpus (`corpus/opencl/kernels/saxpy.cl`, compiled for DG2 by
//! `scripts/opencl-fixtures.py`), with the driver's ABI.
//!
//! ```sh
//! cargo run --example opencl_saxpy
//! ```

use std::path::Path;

use visa::runtime::compiled::{ArgValue, CompiledProgram, find_visa_in_dump};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/opencl/dg2/saxpy");
    let zebin = std::fs::read(dir.join("program.bin"))?;
    let program = CompiledProgram::from_zebin(&zebin)?;
    let kernel = program.kernel("saxpy")?;
    for arg in kernel.args() {
        println!(
            "argument {} '{}': {} ({:?})",
            arg.index, arg.name, arg.type_name, arg.kind
        );
    }
    let (path, visa) = find_visa_in_dump(&dir.join("dump"), "saxpy", kernel.simd_size())?;
    println!("vISA: {}", path.display());
    let x: Vec<f32> = (0..128).map(|i| i as f32).collect();
    let y = vec![1.0f32; 128];
    let output = kernel.visa(&visa)?.launch(
        &[128],
        Some(&[64]),
        &[
            ArgValue::buffer(&x),
            ArgValue::buffer(&y),
            ArgValue::scalar(2.0f32),
        ],
    )?;
    let y: Vec<f32> = output.buffer_as("y")?;
    println!("y = 2 * x + 1: {:?} ...", &y[..8]);
    assert!(
        y.iter()
            .enumerate()
            .all(|(i, v)| *v == 2.0 * i as f32 + 1.0)
    );
    Ok(())
}
