//! The reducer's tests: time, replay, rewind and the views it keeps.

use super::*;

#[test]
fn pause_and_speed_change_state_but_not_time() {
    let state = Rc::new(State::new());
    let start = state.now;
    let paused = state.reduce(Action::TogglePlay);
    assert!(!paused.playing);
    let ticked = paused.reduce(Action::Tick(100.0));
    assert_eq!(ticked.now, start, "a paused clock does not move");
    let fast = ticked.reduce(Action::SetSpeed(100.0));
    assert_eq!(fast.speed, 16.0, "speed is clamped to 16x");
}

#[test]
fn ticks_advance_virtual_time_at_the_chosen_speed() {
    let state = Rc::new(State::new()).reduce(Action::SetSpeed(4.0));
    let start = state.now;
    let later = state.reduce(Action::Tick(100.0));
    assert_eq!((later.now - start).num_milliseconds(), 400);
}

#[test]
fn the_status_table_is_what_kubectl_get_ds_all_namespaces_prints() {
    let state = State::new();
    let mut session = state.session.borrow().clone();
    let printed: String = session
        .execute("kubectl get ds -A")
        .iter()
        .map(CommandOutput::text)
        .collect();
    assert_eq!(&*state.ds_table, printed);
}

#[test]
fn replaying_the_log_restores_the_same_cluster() {
    let mut state = Rc::new(State::new());
    state = state.reduce(Action::Run("sim node add kind-worker3".into()));
    for _ in 0..30 {
        state = state.reduce(Action::Tick(100.0));
    }
    state = state.reduce(Action::Step);
    state = state.reduce(Action::Run("kubectl cordon kind-worker".into()));
    state = state.reduce(Action::Tick(250.0));
    let ticks = state
        .log
        .iter()
        .filter(|e| e.starts_with("sim advance"))
        .count();
    assert_eq!(
        ticks, 2,
        "consecutive clock advances are merged: {:?}",
        state.log
    );
    let restored = State::restore(&state.saved());
    assert_eq!(restored.now, state.now);
    let pods = |s: &State| pods_by(s, |p| &p.phase);
    assert_eq!(pods(&restored), pods(&state));
    assert_eq!(restored.ds_table, state.ds_table);
}

#[test]
fn explain_and_rollout_views_follow_the_cluster() {
    let state = Rc::new(State::new()).reduce(Action::SelectNode(Some("kind-control-plane".into())));
    let demo = state
        .explanations
        .iter()
        .find(|e| e.daemon_set == "default/demo")
        .expect("the demo DaemonSet is explained");
    let e = demo.result.as_ref().expect("explained");
    assert!(!e.placement.should_run);
    assert!(
        e.reasons
            .iter()
            .any(|r| r
                .contains("taint node-role.kubernetes.io/control-plane:NoSchedule not tolerated")),
        "{:?}",
        e.reasons
    );
    assert!(
        state.rollouts.is_empty(),
        "creating the first pods is not a rollout"
    );
    let mut state = state
        .reduce(Action::Run("sim image busybox:new --ready never".into()))
        .reduce(Action::Run(
            "kubectl set image ds/demo demo=busybox:new".into(),
        ));
    for _ in 0..10 {
        state = state.reduce(Action::Step);
    }
    let view = state
        .rollouts
        .daemon_sets
        .iter()
        .find(|r| r.daemon_set == "default/demo")
        .expect("the stuck rollout is listed");
    let d = &view.diagnosis;
    // Both old pods were unavailable, so both were replaced by new pods that never become Ready.
    assert!(
        view.pods.len() == 2 && view.pods.iter().all(|p| p.new && !p.ready),
        "{:?}",
        view.pods
    );
    assert!(
        d.problems
            .iter()
            .any(|(p, _)| p.contains("new pods not ready")),
        "{:?}",
        d.problems
    );
}

#[test]
fn the_editor_gets_back_the_last_applied_manifest() {
    let state = Rc::new(State::new());
    assert_eq!(state.last_applied_yaml().as_deref(), Some(DEMO_DAEMON_SET));
    let edited = DEMO_DAEMON_SET.replace("image: busybox", "image: busybox:1.36");
    let state = state.reduce(Action::Apply(edited.clone()));
    let restored = State::restore(&state.saved());
    assert_eq!(restored.last_applied_yaml(), Some(edited));
}

/// Every pod's (node, name, `field`).
fn pods_by(
    s: &State,
    field: fn(&crate::model::PodView) -> &String,
) -> Vec<(String, String, String)> {
    s.model
        .nodes
        .iter()
        .flat_map(|n| {
            n.pods
                .iter()
                .map(|p| (n.name.clone(), p.name.clone(), field(p).clone()))
        })
        .collect()
}

/// Every pod's (node, name, revision hash), the cluster as the chips show it.
fn chips(s: &State) -> Vec<(String, String, String)> {
    pods_by(s, |p| &p.revision)
}

/// The demo settled, then `kubectl set image` and its rollout; returns the state and the
/// instant of the set image.
fn rolled_out() -> (Rc<State>, i64) {
    let mut state = Rc::new(State::new());
    for _ in 0..40 {
        state = state.reduce(Action::Tick(250.0));
    }
    let set_at = state.elapsed_ms();
    state = state.reduce(Action::Run(
        "kubectl set image ds/demo demo=busybox:new".into(),
    ));
    for _ in 0..80 {
        state = state.reduce(Action::Tick(250.0));
    }
    (state, set_at)
}

#[test]
fn rewinding_shows_the_cluster_as_it_was_and_back_to_now_is_exact() {
    let (now, set_at) = rolled_out();
    let past = now.clone().reduce(Action::Rewind(set_at - 1));
    assert!(past.viewing_past() && !past.playing);
    assert_eq!(past.elapsed_ms(), set_at - 1);
    assert!(!past.log.iter().any(|e| e.contains("set image")));
    let demo = |s: &State| -> Vec<String> {
        let mut revisions: Vec<String> = chips(s)
            .into_iter()
            .filter(|(_, name, _)| name.starts_with("demo-"))
            .map(|(_, _, revision)| revision)
            .collect();
        revisions.dedup();
        revisions
    };
    let (old, new) = (demo(&past), demo(&now));
    assert_eq!((old.len(), new.len()), (1, 1), "{old:?} {new:?}");
    assert_ne!(old, new, "the past runs the old revision");
    // The past equals a fresh replay of the log cut there.
    let replayed = State::restore(&Saved {
        seed: past.seed,
        log: past.log.to_vec(),
        playing: false,
    });
    assert_eq!(chips(&replayed), chips(&past));
    // Scrubbing again inside the past keeps the present; the save is still the whole log.
    let past = past.reduce(Action::Rewind(set_at + 1500));
    assert!(past.log.iter().any(|e| e.contains("set image")));
    assert_eq!(past.saved().log, now.log.to_vec());
    let back = past.reduce(Action::BackToNow);
    assert!(!back.viewing_past());
    assert_eq!(back.now, now.now);
    assert_eq!(back.log, now.log);
    assert_eq!(chips(&back), chips(&now));
    assert_eq!(back.ds_table, now.ds_table);
}

#[test]
fn continuing_or_running_a_command_in_the_past_forks_there() {
    let (now, set_at) = rolled_out();
    let forked = now
        .clone()
        .reduce(Action::Rewind(set_at - 1))
        .reduce(Action::ContinueHere);
    assert!(!forked.viewing_past() && forked.playing);
    assert_eq!(forked.elapsed_ms(), set_at - 1);
    assert!(!forked.log.iter().any(|e| e.contains("set image")));
    assert!(!forked.saved().log.iter().any(|e| e.contains("set image")));
    let old = chips(&forked);
    let mut later = forked.reduce(Action::Tick(250.0));
    for _ in 0..20 {
        later = later.reduce(Action::Tick(250.0));
    }
    let revisions = |c: Vec<(String, String, String)>| -> Vec<String> {
        c.into_iter().map(|(_, _, r)| r).collect()
    };
    assert_eq!(
        revisions(chips(&later)),
        revisions(old),
        "no rollout after the fork"
    );

    let typed = now
        .reduce(Action::Rewind(set_at - 1))
        .reduce(Action::Run("kubectl get pods".into()));
    assert!(!typed.viewing_past());
    assert_eq!(
        typed.log.last().map(String::as_str),
        Some("kubectl get pods")
    );
    assert!(!typed.log.iter().any(|e| e.contains("set image")));
    assert_eq!(
        typed.marks.len(),
        typed
            .log
            .iter()
            .filter(|e| parse_advance_entry(e).is_none())
            .count()
    );
}

#[test]
fn seeking_to_now_while_live_changes_nothing() {
    let state = Rc::new(State::new());
    let same = state
        .clone()
        .reduce(Action::Rewind(state.elapsed_ms() + 10));
    assert!(Rc::ptr_eq(&state, &same));
    let same = state.clone().reduce(Action::ContinueHere);
    assert!(Rc::ptr_eq(&state, &same));
}

#[test]
fn every_command_is_echoed_in_the_terminal() {
    let state = Rc::new(State::new());
    let before = state.terminal.len();
    let after = state.reduce(Action::Run("kubectl get nodes".into()));
    assert_eq!(after.terminal.len(), before + 1);
    assert_eq!(after.terminal.last().unwrap().command, "kubectl get nodes");
}

#[test]
fn the_terminal_history_comes_back_from_the_log() {
    let state = Rc::new(State::new())
        .reduce(Action::Run("kubectl get nodes".into()))
        .reduce(Action::Tick(100.0))
        .reduce(Action::Run("kubectl get nodes".into()))
        .reduce(Action::Run("sim node add a\nkubectl cordon a".into()));
    let restored = State::restore(&state.saved());
    assert_eq!(
        restored.command_history(),
        ["kubectl get nodes", "sim node add a", "kubectl cordon a"],
        "one-line commands, a script's one by one, no here-documents, no repeats in a row"
    );
}

/// The demo crash-looping on six nodes: a long advance has many timer instants.
fn crash_looping() -> Rc<State> {
    let mut state = Rc::new(State::new()).reduce(Action::TogglePlay);
    for line in [
        "sim image busybox:crash --crash",
        "kubectl set image ds/demo demo=busybox:crash",
        "sim node add n1\nsim node add n2\nsim node add n3\nsim node add n4",
    ] {
        state = state.reduce(Action::Run(line.into()));
    }
    assert!(state.long_run.is_none());
    state
}

/// Nodes and pods as `kubectl get pods -o wide` prints them, and the clock.
fn cluster_text(s: &State) -> String {
    let mut session = s.session.borrow().clone();
    session
        .execute("sim now\nkubectl get pods -A -o wide")
        .iter()
        .map(CommandOutput::text)
        .collect()
}

#[test]
fn a_long_advance_runs_in_slices_then_the_rest_of_its_line() {
    let mut state =
        crash_looping().reduce(Action::Run("sim advance 12h\nsim node add late".into()));
    let mut slices = 0;
    while state.long_run.is_some() {
        let run = state.long_run.clone().unwrap();
        assert_eq!(run.echo, "sim advance 12h");
        // Anything else typed meanwhile is refused out loud, not run and not logged.
        if slices == 0 {
            let log = state.log.len();
            state = state.reduce(Action::Run("sim node add meanwhile".into()));
            let last = state.terminal.last().unwrap();
            assert!(
                !last.success && last.text().contains("still running"),
                "{last:?}"
            );
            assert_eq!(state.log.len(), log);
            assert_eq!(
                state.clone().reduce(Action::Step).generation,
                state.generation
            );
        }
        state = state.reduce(Action::LongRunSlice);
        slices += 1;
    }
    assert!(slices >= 1, "the advance did not run at once");
    assert!(state.model.nodes.iter().any(|n| n.name == "late"));
    assert!(!state.model.nodes.iter().any(|n| n.name == "meanwhile"));
    assert_eq!(
        &state.log[state.log.len() - 2..],
        ["sim advance 12h", "sim node add late"]
    );
    // The same commands run at once give the same cluster; so does a reload.
    let mut whole = State::restore(&crash_looping().saved());
    whole.run_script("sim advance 12h");
    while whole.long_run.is_some() {
        whole.continue_long_run(&mut || false);
    }
    whole.run_script("sim node add late");
    assert_eq!(cluster_text(&whole), cluster_text(&state));
    assert_eq!(
        cluster_text(&State::restore(&state.saved())),
        cluster_text(&state)
    );
}

/// A node add of many nodes runs in slices, prints what the interpreter prints (also when a
/// node cannot be created) and leaves the cluster a replay of its log gives.
#[test]
fn a_large_node_add_runs_in_slices_as_the_command_would() {
    for line in [
        "sim node add --count 120 --prefix n- --labels zone=a",
        "sim node add n-110\nsim node add --count 150 --prefix n-",
    ] {
        let mut state = Rc::new(State::new()).reduce(Action::Run(line.into()));
        let mut slices = 0;
        while let Some(run) = state.long_run.clone() {
            assert!(run.echo.starts_with("sim node add --count"), "{}", run.echo);
            let cancel = state.clone().reduce(Action::CancelLongRun);
            assert!(cancel.long_run.is_some(), "a node add is not cancelled");
            state = state.reduce(Action::LongRunSlice);
            slices += 1;
        }
        assert!(slices >= 1, "{line}: not sliced");
        let mut session = State::new().session.borrow().clone();
        let printed: Vec<String> = session
            .execute(line)
            .iter()
            .map(CommandOutput::text)
            .collect();
        let shown: Vec<String> = state.terminal[state.terminal.len() - printed.len()..]
            .iter()
            .map(CommandOutput::text)
            .collect();
        assert_eq!(shown, printed, "{line}");
        let restored = State::restore(&state.saved());
        assert_eq!(cluster_text(&restored), cluster_text(&state), "{line}");
    }
}

/// A large session restored in slices (the page renders first and keeps answering) is, from the
/// start, the whole saved log, refuses commands until it is replayed, shows the views it started
/// with until then, and ends as a restore at once would leave it.
#[test]
fn a_large_session_restored_in_slices_ends_as_a_restore_at_once() {
    let mut state = Rc::new(State::new());
    for action in [
        Action::Run("sim node add --count 120 --prefix n-".into()),
        Action::Run("kubectl set image ds/demo demo=busybox:1.37".into()),
        Action::Tick(250.0),
        Action::Run("sim advance 5s".into()),
    ] {
        state = state.reduce(action);
        while state.long_run.is_some() {
            state = state.reduce(Action::LongRunSlice);
        }
    }
    let saved = state.saved();
    assert!(State::replays_in_slices(&saved));
    assert!(!State::replays_in_slices(&State::default_saved()));
    let mut sliced = Rc::new(State::restore_in_slices(&saved));
    // So is one loaded back (Undo, the previous session, leaving a lesson).
    let loaded = Rc::new(State::new()).reduce(Action::LoadSaved(saved.clone()));
    assert!(loaded.replaying.is_some());
    assert_eq!(loaded.saved(), saved);
    assert_eq!(
        sliced.saved(),
        saved,
        "the session is the whole log from the start"
    );
    let typed = sliced.clone().reduce(Action::Run("sim node add x".into()));
    let refused = typed.terminal.last().unwrap();
    assert!(
        refused.text().contains("still being restored"),
        "{refused:?}"
    );
    let mut slices = 0;
    // Until the replay ends, the views are those it started with: what it replays is history.
    let model = sliced.model.clone();
    while sliced.replaying.is_some() {
        let (done, total) = sliced.replay_progress().unwrap();
        assert!(done < total, "{done} of {total} replayed while replaying");
        assert!(
            Rc::ptr_eq(&sliced.model, &model),
            "views read at slice {slices}"
        );
        // Natively the wall clock stands still: a turn is due at every slice.
        let mut due = (*sliced).clone();
        due.slow_views.read_at = f64::NEG_INFINITY;
        sliced = Rc::new(due).reduce(Action::LongRunSlice);
        slices += 1;
    }
    while sliced.views_behind() {
        sliced = sliced.reduce(Action::LongRunSlice);
    }
    assert_eq!(sliced.replay_progress(), None);
    assert!(slices >= 2, "{slices} slices");
    let whole = State::restore(&saved);
    assert_eq!(cluster_text(&sliced), cluster_text(&whole));
    assert_eq!(sliced.saved(), whole.saved());
    assert_eq!(sliced.marks, whole.marks);
    assert_eq!(sliced.model, whole.model);
}

/// Rewinding a large session replays the cut log in slices too: the page keeps answering, the
/// session to save is still the whole log, another instant or "back to now" can be chosen
/// meanwhile, and the past ends as a rewind at once would show it.
#[test]
fn rewinding_a_large_session_replays_in_slices() {
    let mut now = Rc::new(State::new());
    for line in ["sim node add --count 120 --prefix n-", "sim advance 2s"] {
        now = now.reduce(Action::Run(line.into()));
        while now.long_run.is_some() {
            now = now.reduce(Action::LongRunSlice);
        }
    }
    let before_update = now.elapsed_ms() - 1000;
    for line in [
        "kubectl set image ds/demo demo=busybox:1.37",
        "sim advance 5s",
    ] {
        now = now.reduce(Action::Run(line.into()));
        while now.long_run.is_some() {
            now = now.reduce(Action::LongRunSlice);
        }
    }
    let mut past = now.clone().reduce(Action::Rewind(before_update));
    assert!(past.viewing_past() && past.replaying.is_some(), "in slices");
    assert_eq!(
        past.saved().log,
        now.log.to_vec(),
        "the session is still the whole log"
    );
    let back = past.clone().reduce(Action::BackToNow);
    assert!(!back.viewing_past() && back.replaying.is_none());
    assert_eq!(cluster_text(&back), cluster_text(&now));
    let elsewhere = past.clone().reduce(Action::Rewind(before_update + 1000));
    assert!(elsewhere.viewing_past() && elsewhere.replaying.is_some());
    while past.replaying.is_some() {
        past = past.reduce(Action::LongRunSlice);
    }
    let at_once = State::restore(&Saved {
        seed: now.seed,
        log: crate::timeline::cut_log(&now.log, &now.ends, before_update),
        playing: false,
    });
    assert_eq!(past.log, at_once.log);
    assert_eq!(past.elapsed_ms(), at_once.elapsed_ms());
    assert_eq!(cluster_text(&past), cluster_text(&at_once));
    assert!(!past.log.iter().any(|e| e.contains("set image")));
    assert_eq!(past.reduce(Action::BackToNow).log, now.log);
}

/// A long command of a restored log being replayed cannot be cancelled: the session would not be
/// the saved one.
#[test]
fn a_replayed_long_command_is_not_cancelled() {
    let mut state = crash_looping();
    for line in ["sim advance 12h", "sim node add --count 100 --prefix n-"] {
        state = state.reduce(Action::Run(line.into()));
        while state.long_run.is_some() {
            state = state.reduce(Action::LongRunSlice);
        }
    }
    let saved = state.saved();
    let mut sliced = Rc::new(State::restore_in_slices(&saved));
    let mut advances_seen = 0;
    while sliced.replaying.is_some() {
        if let Some(run) = sliced
            .long_run
            .as_ref()
            .filter(|r| r.echo == "sim advance 12h")
        {
            advances_seen += 1;
            assert!(!run.cancellable());
            let cancel = sliced.clone().reduce(Action::CancelLongRun);
            assert!(cancel.long_run.is_some(), "not cancelled");
        }
        sliced = sliced.reduce(Action::LongRunSlice);
    }
    assert!(advances_seen > 0, "the advance ran in slices");
    assert_eq!(cluster_text(&sliced), cluster_text(&State::restore(&saved)));
}

#[test]
fn cancelling_keeps_the_time_advanced_and_skips_the_rest() {
    let state = crash_looping();
    let started = state.now;
    let running = state.reduce(Action::Run("sim advance 12h\nsim node add late".into()));
    assert!(running.long_run.is_some());
    let cancelled = running.reduce(Action::CancelLongRun);
    assert!(cancelled.long_run.is_none());
    let last = cancelled.terminal.last().unwrap();
    assert!(!last.success);
    assert!(last.text().contains("cancelled after"), "{}", last.text());
    assert!(last.text().contains("rest of the script was not run"));
    assert!(cancelled.now > started);
    assert!(!cancelled.model.nodes.iter().any(|n| n.name == "late"));
    assert!(parse_advance_entry(cancelled.log.last().unwrap()).is_some());
    let restored = State::restore(&cancelled.saved());
    assert_eq!(cluster_text(&restored), cluster_text(&cancelled));
}

#[test]
fn a_remote_request_is_answered_when_its_long_command_is_done() {
    let mut state = crash_looping().reduce(Action::Remote {
        id: "7".into(),
        command: "sim advance 12h\nkubectl get node n1 -o name".into(),
        kind: ReplyKind::Output,
    });
    assert!(state.reply.is_none(), "no answer yet");
    let busy = state.clone().reduce(Action::Remote {
        id: "8".into(),
        command: "kubectl get nodes".into(),
        kind: ReplyKind::Output,
    });
    let reply = busy.reply.as_ref().expect("a busy answer");
    assert!(reply.id == "8" && !reply.success, "{reply:?}");
    while state.long_run.is_some() {
        state = state.reduce(Action::LongRunSlice);
    }
    let reply = state.reply.as_ref().expect("answered");
    assert_eq!(reply.id, "7");
    assert!(reply.success);
    assert_eq!(reply.output, "node/n1\n");
}

#[test]
fn every_request_is_answered_with_its_result() {
    let request = |state: Rc<State>, id: &str, request: Request| {
        let id = id.to_string();
        state.reduce(Action::Request { id, request })
    };
    let state = Rc::new(State::new());
    let paused = request(state.clone(), "1", Request::Pause);
    assert!(!paused.playing);
    assert_eq!(
        paused.reply.as_ref().map(|r| (r.id.as_str(), r.kind)),
        Some(("1", ReplyKind::Response))
    );
    let ran = request(
        paused,
        "2",
        Request::Run("sim node add kind-worker9".into()),
    );
    let reply = ran.reply.clone().expect("answered");
    assert!(
        reply.success && reply.output.contains("kind-worker9"),
        "{reply:?}"
    );
    let applied = request(ran, "3", Request::Apply("kind: Nope\n".into()));
    let reply = applied.reply.clone().expect("answered");
    assert!(!reply.success && reply.seq == 3, "{reply:?}");
    let data = request(applied, "4", Request::State)
        .reply
        .clone()
        .expect("answered");
    let data: serde_json::Value =
        serde_json::from_str(data.data.as_deref().expect("data")).unwrap();
    assert!(data["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["name"] == "kind-worker9"));
    assert_eq!(data["daemonSets"][0]["name"], "demo");
}

#[test]
fn reset_replays_the_embed_script() {
    let mut state = State::new();
    state.run_script("sim node add kind-worker9");
    state.reset_script = Some(Rc::from("sim node add kind-worker9"));
    let state = Rc::new(state).reduce(Action::Run("sim node add kind-worker10".into()));
    let reset = state.reduce(Action::Reset);
    let names: Vec<_> = reset.model.nodes.iter().map(|n| n.name.as_str()).collect();
    assert!(
        names.contains(&"kind-worker9") && !names.contains(&"kind-worker10"),
        "{names:?}"
    );
}

#[test]
fn kubectl_edit_opens_the_live_object_and_apply_saves_it() {
    let state = Rc::new(State::new()).reduce(Action::Run("kubectl edit ds/demo".into()));
    let editing = state.editing.clone().expect("the editor has the object");
    assert_eq!(editing.object, "daemonset.apps/demo");
    assert!(editing.yaml.contains("kind: DaemonSet\n") && editing.yaml.contains("  name: demo\n"));
    assert!(!editing.yaml.contains("status:"), "{}", editing.yaml);
    assert!(state
        .terminal
        .last()
        .is_some_and(|o| o.success && o.text().is_empty()));

    let edited = editing
        .yaml
        .replace("image: busybox", "image: busybox:1.36");
    let state = state.reduce(Action::Apply(edited));
    assert_eq!(state.editing, None, "saved");
    let image = state
        .session
        .borrow()
        .cluster()
        .store()
        .daemon_set("default", "demo")
        .and_then(|ds| {
            ds.spec.as_ref()?.template.spec.as_ref()?.containers[0]
                .image
                .clone()
        });
    assert_eq!(image.as_deref(), Some("busybox:1.36"));
    let script = crate::export::kubectl_script(&state.replay);
    assert!(
        !script.contains("\nkubectl edit"),
        "only as a comment: {script}"
    );
    assert!(script.contains("\n# kubectl edit ds/demo\n"), "{script}");
    assert!(script.contains("busybox:1.36"), "{script}");

    let state = state.reduce(Action::Run("kubectl edit ds/missing".into()));
    assert_eq!(state.editing, None);
}

/// A large cluster (57 nodes: the map, throttled views) whose refreshes build at most 25 node
/// views (the app's budget is 1 000; a test builds a smaller cluster quickly), every view caught up.
fn large_cluster() -> Rc<State> {
    let mut state = State::new();
    state.slow_views.node_views_per_refresh = 25;
    let mut state = Rc::new(state);
    state = state.reduce(Action::Run("sim node add --count 57 --prefix n-".into()));
    while state.is_running() || state.views_behind() {
        state = state.reduce(Action::LongRunSlice);
    }
    state
}

/// A command that changes more node views than one refresh builds (a new revision of a DaemonSet
/// on every node of a large cluster) leaves them behind; the slices that follow catch them up
/// to the views a fresh read gives, without holding commands.
#[test]
fn node_views_left_behind_catch_up_in_slices() {
    let mut state = large_cluster();
    state = state.reduce(Action::Run(
        "kubectl set image ds/demo demo=busybox:1.37".into(),
    ));
    assert!(state.views_behind(), "60 views changed, at most 25 built");
    assert!(!state.is_running(), "commands are not held");
    assert!(state.terminal.last().is_some_and(|o| o.success));
    let mut slices = 0;
    while state.views_behind() {
        state = state.reduce(Action::LongRunSlice);
        slices += 1;
    }
    assert_eq!(slices, 2, "35 views left, 25 a slice");
    let session = state.session.borrow();
    let fresh = ClusterModel::from_store(session.cluster().store(), session.cluster().now());
    assert_eq!(state.model.nodes, fresh.nodes);
}

/// Runs `line`, a long command, and its slices to the end on a large cluster: no task both runs
/// the simulation and reads the views it changed (both together blocked the page for 100-200 ms
/// at 5 000 nodes), the line that starts the command and the slice that ends it included (the
/// full read after it is the next task's). Returns the state and how many tasks simulated and
/// read.
fn run_in_tasks(mut state: Rc<State>, line: &str) -> (Rc<State>, usize, usize) {
    let (mut simulated, mut read) = (0, 0);
    let mut action = Action::Run(line.into());
    loop {
        // The session is shared between states: its version is read before the task.
        let version = |s: &State| s.session.borrow().cluster().store().resource_version();
        let (version_before, model_before) = (version(&state), state.model.clone());
        state = state.reduce(action);
        let ran = version(&state) != version_before;
        let reread = !Rc::ptr_eq(&state.model, &model_before);
        assert!(!(ran && reread), "one task did both");
        simulated += usize::from(ran);
        read += usize::from(reread);
        if !state.is_running() && !state.views_behind() {
            return (state, simulated, read);
        }
        action = Action::LongRunSlice;
    }
}

/// With a large cluster a task of a long command runs the simulation or reads the views, never
/// both, for nodes being added and for a rolling update settling; tasks alternate at most, so the
/// command still ends, with every view caught up.
#[test]
fn a_large_cluster_task_simulates_or_reads_the_views_not_both() {
    let (state, simulated, read) =
        run_in_tasks(large_cluster(), "sim node add --count 150 --prefix m-");
    assert!(
        simulated >= 2 && read >= 2,
        "{simulated} tasks ran, {read} read"
    );
    let (state, ..) = run_in_tasks(state, "sim settle");
    let state = state.reduce(Action::Run(
        "kubectl set image ds/demo demo=busybox:1.37".into(),
    ));
    let (state, simulated, read) = run_in_tasks(state, "sim settle --max 20m");
    assert!(
        simulated >= 2 && read >= 2,
        "{simulated} tasks ran, {read} read"
    );
    let session = state.session.borrow();
    let fresh = ClusterModel::from_store(session.cluster().store(), session.cluster().now());
    assert_eq!(state.model.nodes, fresh.nodes);
    let mut demo = fresh
        .nodes
        .iter()
        .flat_map(|n| &n.pods)
        .filter(|p| p.owner_name == "demo");
    assert!(demo.clone().count() >= 200 && demo.any(|p| p.current_revision && p.ready));
}

/// A script run at once on a large cluster (a lesson's set-up, Reset's script) reads every view
/// and leaves none waiting: the next action's refresh happens (here the Explain panel of the
/// node selected).
#[test]
fn a_script_run_at_once_leaves_no_views_waiting() {
    let mut state = (*large_cluster()).clone();
    state.run_script("sim advance 1s");
    let state = Rc::new(state).reduce(Action::SelectNode(Some("n-01".into())));
    assert!(
        !state.explanations.is_empty(),
        "the selected node is explained"
    );
}

/// While nodes are added to a large cluster, the views are not read (the long-run bar shows the
/// progress), however long ago the last turn was (at 5 000 nodes reading and drawing them took a
/// third of a node add in the browser); the read after the add brings them up to date.
#[test]
fn views_wait_for_the_end_of_a_node_add() {
    let mut state = (*large_cluster()).clone();
    // Every node view built at each refresh: the slow views are not held back by them.
    state.slow_views.node_views_per_refresh = 1_000;
    let (rollouts, model) = (state.rollouts.clone(), state.model.clone());
    let mut state =
        Rc::new(state).reduce(Action::Run("sim node add --count 250 --prefix m-".into()));
    let mut slices = 0;
    while state.is_running() {
        assert!(Rc::ptr_eq(&state.rollouts, &rollouts), "slice {slices}");
        assert!(Rc::ptr_eq(&state.model, &model), "slice {slices}");
        // Natively the wall clock stands still: a turn is due at every slice.
        let mut due = (*state).clone();
        due.slow_views.read_at = f64::NEG_INFINITY;
        state = Rc::new(due).reduce(Action::LongRunSlice);
        slices += 1;
    }
    assert!(slices >= 2, "{slices} slices");
    while state.views_behind() {
        state = state.reduce(Action::LongRunSlice);
    }
    let session = state.session.borrow();
    let fresh = ClusterModel::from_store(session.cluster().store(), session.cluster().now());
    assert_eq!(state.model.nodes, fresh.nodes);
    assert_eq!(state.model.events, fresh.events);
    let daemon_sets = crate::model::rollout::rollout_views(session.cluster());
    assert_eq!(state.rollouts.daemon_sets, daemon_sets);
}

/// A node add that makes a small cluster large is read as a large one after it: at most the
/// budget of node views per task (read at once, a 5 000-node add's views blocked the page for
/// 0.3 s).
#[test]
fn a_cluster_grown_large_is_read_in_parts() {
    let mut state = State::new();
    state.slow_views.node_views_per_refresh = 25;
    let mut state =
        Rc::new(state).reduce(Action::Run("sim node add --count 120 --prefix n-".into()));
    while state.is_running() {
        state = state.reduce(Action::LongRunSlice);
    }
    let mut reads = 0;
    while state.views_behind() {
        let before = state.model.nodes.len();
        state = state.reduce(Action::LongRunSlice);
        let built = state.model.nodes.len() - before;
        assert!(built <= 25, "{built} node views built in one task");
        reads += 1;
    }
    assert!(reads >= 5, "{reads} reads");
    assert_eq!(state.model.nodes.len(), 123);
}
