//! Fuzz target `manifest`: arbitrary bytes through manifest parsing, defaulting and validation (and the
//! error texts and hints). Any panic is a finding. Run: `cargo +nightly fuzz run manifest`.
#![no_main]

use dsplay_api::defaults::apply_defaults;
use dsplay_api::manifest::parse_manifest_bytes;
use dsplay_api::validation::{format_invalid, validate_create, validate_update};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut previous = None;
    for doc in parse_manifest_bytes(data) {
        match doc {
            Ok(mut manifest) => {
                let errors = validate_create(&manifest.object);
                let _ = format_invalid(manifest.object.kind().name(), manifest.object.name(), &errors);
                apply_defaults(&mut manifest.object);
                let _ = validate_create(&manifest.object);
                if let Some(old) = previous.replace(manifest.object.clone()) {
                    let _ = validate_update(&old, &manifest.object);
                }
                let _ = serde_json::to_string(&manifest.object);
            }
            Err(e) => {
                let _ = (e.to_string(), e.hint());
            }
        }
    }
});
