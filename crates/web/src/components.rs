//! The UI components, one function component per file with its `<Name>Props` beside it.

pub mod cluster_view;
pub mod editor;
pub mod events;
pub mod explain_panel;
pub mod layout;
pub mod lesson_catalogue;
pub mod lesson_panel;
pub mod lesson_text;
pub mod long_run_bar;
pub mod node_card;
pub mod node_dialog;
pub mod node_map;
pub mod pod_chip;
pub mod pod_panel;
pub mod rollout_panel;
pub mod save_notices;
pub mod shortcuts;
pub mod splitter;
pub mod status_bar;
pub mod terminal;
pub mod text_dialog;
pub mod time_controls;
pub mod timeline;
pub mod traffic;
pub mod undo_toast;
pub mod welcome;
