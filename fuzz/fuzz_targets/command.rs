//! Fuzz target `command`: arbitrary text through the script tokenizer and the kubectl/sim command
//! interpreter on the default cluster. Any panic is a finding. Run: `cargo +nightly fuzz run command`.
#![no_main]

use dsplay_kubectl::{Session, SessionOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new(SessionOptions::default());
    for output in session.execute(&text) {
        let _ = output.text();
    }
});
