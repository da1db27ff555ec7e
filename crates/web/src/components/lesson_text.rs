//! A lesson text rendered ([`crate::lesson_markup`]): prose, and commands the learner clicks to put
//! in the terminal. A code block with a here-document (a manifest) cannot go in the one-line
//! terminal: it has a Run button instead; every block has Copy.

use crate::browser::copy_text;
use crate::labels::Labels;
use crate::lesson_markup::{blocks, is_command, Block, Inline};
use yew::prelude::*;

/// Props of [`LessonText`].
#[derive(Properties, PartialEq)]
pub struct LessonTextProps {
    /// The text, in the little Markdown of lessons.
    pub text: AttrValue,
    /// The labels' language.
    pub labels: &'static Labels,
    /// Puts a command in the terminal's input.
    pub on_fill: Callback<String>,
    /// Runs a block as if typed.
    pub on_run: Callback<String>,
}

/// The rendered text.
#[function_component(LessonText)]
pub fn lesson_text(props: &LessonTextProps) -> Html {
    let labels = props.labels;
    let command = |code: &str| {
        let (on_fill, text) = (props.on_fill.clone(), code.to_string());
        html! {
            <button class="cmd" title={labels.put_in_terminal}
                onclick={Callback::from(move |_: MouseEvent| on_fill.emit(text.clone()))}>
                {code.to_string()}
            </button>
        }
    };
    let blocks = blocks(&props.text);
    html! {
        <div class="lesson-text">
            { for blocks.iter().map(|block| match block {
                Block::Paragraph(inlines) => html! {
                    <p>{ for inlines.iter().map(|inline| match inline {
                        Inline::Text(text) => html! { {text.clone()} },
                        Inline::Code(code) if is_command(code) => command(code),
                        Inline::Code(code) => html! { <code>{code.clone()}</code> },
                    }) }</p>
                },
                Block::Code(code) => {
                    let copy = { let code = code.clone(); Callback::from(move |_: MouseEvent| copy_text(&code)) };
                    let heredoc = code.contains("<<");
                    html! {
                        <div class="code-block">
                            if heredoc {
                                <pre tabindex="0"><code>{code.clone()}</code></pre>
                            } else {
                                <pre tabindex="0">{ for code.lines().map(|line| if is_command(line.trim()) {
                                    html! { <>{command(line.trim())}{"\n"}</> }
                                } else {
                                    html! { <code>{format!("{line}\n")}</code> }
                                }) }</pre>
                            }
                            <div class="code-actions">
                                if heredoc {
                                    <button class="btn small" onclick={let (r, c) = (props.on_run.clone(), code.clone()); Callback::from(move |_: MouseEvent| r.emit(c.clone()))}>{labels.run}</button>
                                }
                                <button class="btn small" onclick={copy}>{labels.copy}</button>
                            </div>
                        </div>
                    }
                }
            }) }
        </div>
    }
}
