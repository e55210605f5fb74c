//! Where ocloc, PoCL and pyopencl are installed, the checked-in OpenCL corpus must be what
//! `scripts/opencl-fixtures.py` produces now (the zebins, the vISA dumps, the inputs and PoCL's
//! outputs). Without the tools the test says it skipped; `VISA_REQUIRE_IGC=1` (set in CI, which
//! installs them) makes their absence a failure.

use std::path::Path;
use std::process::Command;

fn tools_present() -> bool {
    let ocloc = Command::new("ocloc").arg("--help").output().is_ok();
    let pocl = Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import pyopencl, numpy; pyopencl.get_platforms()[0].get_devices()",
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    ocloc && pocl
}

#[test]
fn the_checked_in_corpus_is_what_the_tools_produce() {
    if !tools_present() {
        assert!(
            std::env::var_os("VISA_REQUIRE_IGC").is_none(),
            "VISA_REQUIRE_IGC is set but ocloc or PoCL (with pyopencl) is missing"
        );
        eprintln!("skipped: ocloc or PoCL (pyopencl) not installed");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/opencl-fixtures.py");
    let output = Command::new("/usr/bin/python3")
        .arg(&script)
        .arg("--check")
        .output()
        .expect("run scripts/opencl-fixtures.py --check");
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
