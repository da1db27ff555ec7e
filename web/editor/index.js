// The manifest editor: CodeMirror 6 with YAML highlighting and lint markers, behind the tiny API the
// Rust shim (crates/web/src/components/editor/code_mirror.rs) binds. `cargo xtask dist` bundles this
// file and its npm imports into dist/editor.js; index.html puts the module on
// `globalThis.dsplayEditor` before the wasm starts.
//
// Colours come from the page's CSS variables (web/style.css), so the editor follows the light and
// dark themes without a theme switch of its own.
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, drawSelection, highlightActiveLine } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { HighlightStyle, syntaxHighlighting, indentOnInput } from '@codemirror/language';
import { yaml } from '@codemirror/lang-yaml';
import { lintGutter, setDiagnostics as lintDiagnostics } from '@codemirror/lint';
import { tags } from '@lezer/highlight';

const highlight = HighlightStyle.define([
  { tag: tags.definition(tags.propertyName), color: 'color-mix(in srgb, var(--accent) 80%, var(--text))' },
  { tag: tags.string, color: 'var(--ok)' },
  { tag: [tags.meta, tags.labelName, tags.typeName], color: 'var(--warn)' },
  { tag: tags.comment, color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [tags.separator, tags.punctuation, tags.squareBracket, tags.brace], color: 'var(--muted)' },
]);

const selection = 'color-mix(in srgb, var(--accent) 28%, transparent)';
const theme = EditorView.theme({
  '&': { height: '100%', color: 'var(--text)', backgroundColor: 'var(--panel-2)', fontSize: '12.5px' },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '-1px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '.cm-selectionBackground, &.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground':
    { backgroundColor: selection },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent) 6%, transparent)' },
  '.cm-gutters': { backgroundColor: 'var(--panel-2)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--border)' },
});

/** The key events the editor keeps to itself, so page shortcuts (Space, ?, arrows) do not fire. */
const ownKeys = EditorView.domEventHandlers({
  keydown(event) {
    if (event.key !== 'Escape') event.stopPropagation();
    return false;
  },
});

/**
 * Mounts an editor showing `text` into `parent`. `onChange()` runs after every edit (read the text
 * with `getText`); `onApply()` on Ctrl/Cmd+Enter. Returns the handle the shim keeps.
 */
export function create(parent, text, onChange, onApply) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => { onApply(); return true; } }])),
        lineNumbers(),
        lintGutter(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        indentOnInput(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        yaml(),
        syntaxHighlighting(highlight),
        theme,
        ownKeys,
        // tabindex: a contenteditable is focusable, but only an explicit tabindex tells accessibility
        // checkers so (the scroller around it must hold something focusable).
        EditorView.contentAttributes.of({ 'aria-label': 'Manifest YAML', spellcheck: 'false', tabindex: '0' }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(); }),
      ],
    }),
  });
  // Tab and Shift+Tab move the focus (no keyboard trap); Ctrl+M (Shift+Alt+M on macOS) switches
  // them to indenting and back, and Esc then Tab leaves even then (CodeMirror's own bindings).
  view.setTabFocusMode(true);
  return {
    getText: () => view.state.doc.toString(),
    setText(next) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
    },
    /**
     * `json`: `[{line, severity, message}]`, lines 1-based. Each marks its line's text, or the
     * last non-blank line before it (YAML errors at the end of the text name the empty last line).
     */
    setDiagnostics(json) {
      const { doc } = view.state;
      const diagnostics = JSON.parse(json).map(({ line, severity, message }) => {
        let at = doc.line(Math.min(Math.max(line, 1), doc.lines));
        while (at.number > 1 && !at.text.trim()) at = doc.line(at.number - 1);
        const indent = at.text.length - at.text.trimStart().length;
        return { from: at.from + indent, to: at.to, severity, message };
      });
      view.dispatch(lintDiagnostics(view.state, diagnostics));
    },
    destroy: () => view.destroy(),
  };
}
