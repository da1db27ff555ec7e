//! The "?" sheet: every keyboard shortcut.

use yew::prelude::*;

/// Every shortcut: (keys, what it does).
pub const SHORTCUTS: [(&str, &str); 13] = [
    ("Space", "Play / pause the clock"),
    ("→", "Step to the next event"),
    (
        "← / →",
        "Move one command or second back / forward (on the Timeline)",
    ),
    ("?", "Show / hide this sheet"),
    ("Esc", "Close this sheet, a dialog or the Explain panel"),
    ("Ctrl/Cmd + Enter", "Apply the manifest (in the editor)"),
    (
        "Tab / Shift + Tab",
        "Leave the editor (Ctrl + M, or Shift + Alt + M on macOS, makes Tab indent instead)",
    ),
    ("Esc, then Tab", "Leave the editor while Tab indents"),
    ("Enter", "Run the command (in the terminal)"),
    ("↑ / ↓", "Command history (in the terminal)"),
    (
        "Tab",
        "Complete a command, node or pod name (in the terminal; with nothing to complete, move on)",
    ),
    (
        "← → ↑ ↓, Home, End",
        "Resize the side column or the terminal (on a focused splitter; double-click resets)",
    ),
    (
        "← → ↑ ↓, Home, End, Enter",
        "Move between nodes on a large cluster's map (Enter opens the card)",
    ),
];

/// Props of [`ShortcutsSheet`].
#[derive(Properties, PartialEq)]
pub struct ShortcutsSheetProps {
    /// Closes the sheet.
    pub on_close: Callback<()>,
}

/// The shortcuts sheet (a modal dialog).
#[function_component(ShortcutsSheet)]
pub fn shortcuts_sheet(props: &ShortcutsSheetProps) -> Html {
    html! {
        <div class="modal-backdrop" onclick={props.on_close.reform(|_| ())}>
            <div class="modal shortcuts" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts"
                onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <h2>{"Keyboard shortcuts"}</h2>
                <dl class="shortcut-list">
                    { for SHORTCUTS.iter().map(|(k, v)| html! {
                        <><dt><kbd>{*k}</kbd></dt><dd>{*v}</dd></>
                    }) }
                </dl>
                <div class="modal-actions">
                    <button class="btn primary" onclick={props.on_close.reform(|_| ())}>{"Close"}</button>
                </div>
            </div>
        </div>
    }
}
