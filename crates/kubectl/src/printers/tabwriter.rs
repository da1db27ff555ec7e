//! An elastic-tabstop column aligner behaving like Go's `text/tabwriter` (left-aligned, space
//! padding, no flags), which kubectl uses for tables (`minwidth 6, padding 3`) and `describe`
//! (`minwidth 0, padding 2`).
//!
//! Text is split into lines at `\n` and into cells at `\t`; a cell is tab-terminated, so the last cell
//! of a line is never part of a column and is never padded. A column block is a run of consecutive
//! lines that all have a cell in that column; each block is as wide as its widest cell plus the
//! padding (at least `minwidth`), and blocks are nested left to right.

/// Buffers text and aligns it on [`TabWriter::flush`].
#[derive(Clone, Debug)]
pub struct TabWriter {
    minwidth: usize,
    padding: usize,
    buf: String,
    out: String,
}

impl TabWriter {
    /// A writer with Go's `minwidth` and `padding` parameters.
    pub fn new(minwidth: usize, padding: usize) -> Self {
        TabWriter {
            minwidth,
            padding,
            buf: String::new(),
            out: String::new(),
        }
    }

    /// kubectl's table writer (`printers.GetNewTabWriter`): minwidth 6, padding 3.
    pub fn for_table() -> Self {
        Self::new(6, 3)
    }

    /// kubectl describe's writer (`tabbedString`): minwidth 0, padding 2.
    pub fn for_describe() -> Self {
        Self::new(0, 2)
    }

    /// Appends text.
    pub fn write(&mut self, text: &str) {
        self.buf.push_str(text);
    }

    /// Formats everything written since the last flush (column blocks end here).
    pub fn flush(&mut self) {
        let text = std::mem::take(&mut self.buf);
        let aligned = align(&text, self.minwidth, self.padding);
        self.out.push_str(&aligned);
    }

    /// Everything flushed so far plus the unflushed text as written, tabs and all (what Go's
    /// describe `PrefixWriter` gives when it writes to a plain buffer).
    pub fn finish_unaligned(self) -> String {
        self.out + &self.buf
    }

    /// Flushes and returns all output.
    pub fn finish(mut self) -> String {
        self.flush();
        self.out
    }
}

/// Aligns `text` in one go (same as writing it all and flushing once).
pub fn align(text: &str, minwidth: usize, padding: usize) -> String {
    align_with(text, minwidth, padding, None)
}

/// Column widths a writer remembers across flushes (the `RememberWidths` flag of the tabwriter
/// kubectl's printers use): a column is never narrower than it was in an earlier flush, so the
/// rows `kubectl get -w` prints one by one line up under the first table's header.
///
/// Upstream: github.com/liggitt/tabwriter (Writer.format with RememberWidths);
/// staging/src/k8s.io/cli-runtime/pkg/printers/tabwriter.go GetNewTabWriter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RememberedWidths(Vec<usize>);

impl RememberedWidths {
    /// Aligns one flush of kubectl's table writer (minwidth 6, padding 3), widening the
    /// remembered columns where this text needs more.
    pub fn align_table(&mut self, text: &str) -> String {
        align_with(text, 6, 3, Some(&mut self.0))
    }
}

fn align_with(
    text: &str,
    minwidth: usize,
    padding: usize,
    remembered: Option<&mut Vec<usize>>,
) -> String {
    if text.is_empty() {
        return String::new();
    }
    let ends_with_newline = text.ends_with('\n');
    let body = if ends_with_newline {
        &text[..text.len() - 1]
    } else {
        text
    };
    let lines: Vec<Vec<&str>> = body.split('\n').map(|l| l.split('\t').collect()).collect();
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    let mut widths = Vec::new();
    let mut fmt = Formatter {
        lines: &lines,
        minwidth,
        padding,
        remembered,
    };
    fmt.format(&mut out, &mut widths, 0, lines.len());
    if ends_with_newline {
        out.push('\n');
    }
    out
}

struct Formatter<'a> {
    lines: &'a [Vec<&'a str>],
    minwidth: usize,
    padding: usize,
    /// With `RememberWidths`: the widest each column has been.
    remembered: Option<&'a mut Vec<usize>>,
}

fn cell_width(cell: &str) -> usize {
    cell.chars().count()
}

impl Formatter<'_> {
    fn format(
        &mut self,
        out: &mut String,
        widths: &mut Vec<usize>,
        mut line0: usize,
        line1: usize,
    ) {
        let column = widths.len();
        let mut this = line0;
        while this < line1 {
            if column + 1 >= self.lines[this].len() {
                this += 1;
                continue;
            }
            self.write_lines(out, widths, line0, this);
            line0 = this;
            let mut width = self.minwidth;
            while this < line1 {
                let line = &self.lines[this];
                if column + 1 >= line.len() {
                    break;
                }
                width = width.max(cell_width(line[column]) + self.padding);
                this += 1;
            }
            if let Some(remembered) = self.remembered.as_deref_mut() {
                if remembered.len() < widths.len() {
                    remembered.extend_from_slice(&widths[remembered.len()..]);
                }
                match remembered.get_mut(column) {
                    None => remembered.push(width),
                    Some(max) if *max > width => width = *max,
                    Some(max) => *max = width,
                }
            }
            widths.push(width);
            self.format(out, widths, line0, this);
            widths.pop();
            line0 = this;
        }
        self.write_lines(out, widths, line0, line1);
    }

    fn write_lines(&self, out: &mut String, widths: &[usize], line0: usize, line1: usize) {
        for i in line0..line1 {
            let line = &self.lines[i];
            for (j, cell) in line.iter().enumerate() {
                out.push_str(cell);
                if j < widths.len() && j + 1 < line.len() {
                    let w = cell_width(cell);
                    for _ in w..widths[j] {
                        out.push(' ');
                    }
                }
            }
            if i + 1 < self.lines.len() {
                out.push('\n');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_widths_keep_later_flushes_under_the_first_ones_columns() {
        let mut widths = RememberedWidths::default();
        let header =
            widths.align_table("NAME\tREADY\tSTATUS\tAGE\nweb-1\t0/1\tContainerCreating\t0s\n");
        assert_eq!(
            header.lines().next(),
            Some("NAME    READY   STATUS              AGE")
        );
        // A narrower row alone keeps the remembered widths (plain text/tabwriter would shrink them).
        assert_eq!(
            widths.align_table("web-1\t1/1\tRunning\t3s\n"),
            "web-1   1/1     Running             3s\n"
        );
        assert_eq!(
            align("web-1\t1/1\tRunning\t3s\n", 6, 3),
            "web-1   1/1   Running   3s\n"
        );
        // A wider cell widens its column from then on.
        widths.align_table("a-much-longer-name\t1/1\tRunning\t3s\n");
        assert!(widths
            .align_table("web-1\t1/1\tRunning\t3s\n")
            .starts_with("web-1                1/1"));
    }

    #[test]
    fn table_layout() {
        let text = "NAME\tDESIRED\tAGE\nlog-collector\t2\t30s\n";
        assert_eq!(
            align(text, 6, 3),
            "NAME            DESIRED   AGE\nlog-collector   2         30s\n"
        );
        // minwidth applies to narrow columns, the last cell is never padded.
        assert_eq!(align("A\tB\nx\ty\n", 6, 3), "A     B\nx     y\n");
    }

    #[test]
    fn describe_blocks() {
        // A line without tabs ends the column block; a later block aligns on its own.
        let text = "Name:\tdemo\nNamespace:\tdefault\nPod Template:\n  Labels:\tapp=demo\n";
        assert_eq!(
            align(text, 0, 2),
            "Name:       demo\nNamespace:  default\nPod Template:\n  Labels:  app=demo\n"
        );
        // Nested columns: the second column only spans the lines that have three cells.
        let text = "a\tb\tc\nlonger\tx\n";
        assert_eq!(align(text, 0, 2), "a       b  c\nlonger  x\n");
    }

    #[test]
    fn flush_ends_blocks() {
        let mut w = TabWriter::for_describe();
        w.write("Long key:\tv\n");
        w.flush();
        w.write("k:\tv\n");
        assert_eq!(w.finish(), "Long key:  v\nk:  v\n");
    }

    #[test]
    fn unicode_width_is_runes() {
        assert_eq!(align("é\tx\nab\ty\n", 0, 1), "é  x\nab y\n");
    }
}
