//! The UI labels of the lesson features, in English and Simplified Chinese (the lessons' own
//! languages). The rest of the UI is English only; its strings stay with their components.

/// The `localStorage` key of the chosen language (`en`, `zh`).
pub const LANGUAGE_KEY: &str = "dsplay:lang";

/// The `localStorage` key set once the welcome banner was answered.
pub const WELCOMED_KEY: &str = "dsplay:welcomed";

/// The labels of one language.
#[derive(Debug, PartialEq, Eq)]
pub struct Labels {
    /// The language code (the lessons' `Text` key).
    pub code: &'static str,
    /// The button that switches to the other language (written in that language).
    pub other_language: &'static str,
    /// The header button and the catalogue's heading.
    pub lessons: &'static str,
    /// Loading the catalogue.
    pub loading: &'static str,
    /// Catalogue marks.
    pub done: &'static str,
    /// Catalogue marks.
    pub in_progress: &'static str,
    /// Minutes, after the number.
    pub minutes: &'static str,
    /// Levels.
    pub beginner: &'static str,
    /// Levels.
    pub intermediate: &'static str,
    /// Levels.
    pub advanced: &'static str,
    /// Close a dialog or panel.
    pub close: &'static str,
    /// "Step" before "2 / 3".
    pub step: &'static str,
    /// The goals' heading.
    pub goals: &'static str,
    /// A goal met (for screen readers; the panel shows a tick).
    pub goal_met: &'static str,
    /// A goal not met yet.
    pub goal_unmet: &'static str,
    /// Reveal the next hint.
    pub show_hint: &'static str,
    /// The hint prefix.
    pub hint: &'static str,
    /// Run the step's solution.
    pub run_solution: &'static str,
    /// Step navigation.
    pub previous: &'static str,
    /// Step navigation.
    pub next: &'static str,
    /// Start the step over (its goals over time too).
    pub retry_step: &'static str,
    /// Start the lesson over.
    pub restart: &'static str,
    /// Leave the lesson (back to free play).
    pub exit: &'static str,
    /// A step whose goals were all met.
    pub step_done: &'static str,
    /// The whole lesson done.
    pub lesson_complete: &'static str,
    /// Copy the result summary.
    pub copy_result: &'static str,
    /// After copying.
    pub copied: &'static str,
    /// Run a code block from the text.
    pub run: &'static str,
    /// Copy a code block from the text.
    pub copy: &'static str,
    /// Click a command to put it in the terminal.
    pub put_in_terminal: &'static str,
    /// A lesson file that failed to load.
    pub lesson_error: &'static str,
    /// The welcome banner.
    pub welcome: &'static str,
    /// The welcome banner's first-lesson button.
    pub start_first: &'static str,
    /// The welcome banner's free-play button.
    pub free_play: &'static str,
}

/// English.
pub const EN: Labels = Labels {
    code: "en",
    other_language: "中文",
    lessons: "Lessons",
    loading: "Loading the lessons…",
    done: "done",
    in_progress: "in progress",
    minutes: "min",
    beginner: "beginner",
    intermediate: "intermediate",
    advanced: "advanced",
    close: "Close",
    step: "Step",
    goals: "Goals",
    goal_met: "met",
    goal_unmet: "not met yet",
    show_hint: "Show a hint",
    hint: "Hint",
    run_solution: "Run solution",
    previous: "Previous step",
    next: "Next step",
    retry_step: "Retry step",
    restart: "Restart lesson",
    exit: "Exit lesson",
    step_done: "Step done.",
    lesson_complete: "Lesson complete: every step is done.",
    copy_result: "Copy result",
    copied: "Result copied to the clipboard.",
    run: "Run",
    copy: "Copy",
    put_in_terminal: "Put in the terminal",
    lesson_error: "This lesson could not be opened",
    welcome: "Welcome! New to DaemonSets? Take the first guided lesson, or play freely with the cluster below.",
    start_first: "Start the first lesson",
    free_play: "Free play",
};

/// Simplified Chinese.
pub const ZH: Labels = Labels {
    code: "zh",
    other_language: "English",
    lessons: "课程",
    loading: "正在加载课程…",
    done: "已完成",
    in_progress: "进行中",
    minutes: "分钟",
    beginner: "入门",
    intermediate: "中级",
    advanced: "高级",
    close: "关闭",
    step: "步骤",
    goals: "目标",
    goal_met: "已达成",
    goal_unmet: "尚未达成",
    show_hint: "显示提示",
    hint: "提示",
    run_solution: "运行答案",
    previous: "上一步",
    next: "下一步",
    retry_step: "重做本步骤",
    restart: "重新开始本课",
    exit: "退出课程",
    step_done: "本步骤已完成。",
    lesson_complete: "课程完成：所有步骤都已完成。",
    copy_result: "复制结果",
    copied: "结果已复制到剪贴板。",
    run: "运行",
    copy: "复制",
    put_in_terminal: "放入终端",
    lesson_error: "无法打开这个课程",
    welcome: "欢迎！第一次接触 DaemonSet？试试第一节引导课程，或者直接在下面的集群里自由练习。",
    start_first: "开始第一课",
    free_play: "自由练习",
};

/// The labels of `code` (English for anything but `zh`).
pub fn labels(code: &str) -> &'static Labels {
    if code == "zh" {
        &ZH
    } else {
        &EN
    }
}

impl Labels {
    /// A lesson level's label.
    pub fn level(&self, level: dsplay_lesson::Level) -> &'static str {
        match level {
            dsplay_lesson::Level::Beginner => self.beginner,
            dsplay_lesson::Level::Intermediate => self.intermediate,
            dsplay_lesson::Level::Advanced => self.advanced,
        }
    }
}
