//! Prints the page's first paint (`dsplay_web::prerender`): `cargo xtask dist` writes it into
//! `dist/index.html`.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    print!("{}", dsplay_web::prerender::first_paint());
}

/// The first paint is rendered natively; a wasm build of this package has nothing to print.
#[cfg(target_arch = "wasm32")]
fn main() {}
