//! Arbitrary bytes as a vISA object file: reading never panics; a file that reads writes back
//! byte for byte (every derived field is checked on read), and its module, when it has one,
//! converts back to an object.
#![no_main]

use libfuzzer_sys::fuzz_target;
use visa_isa::object::Object;

fuzz_target!(|data: &[u8]| {
    let Ok(object) = Object::read(data) else {
        return;
    };
    let written = object.write().expect("an object that reads writes");
    assert_eq!(written, data, "written back differently");
    if let Ok(module) = object.to_module() {
        let _ = Object::from_module(&module);
    }
});
