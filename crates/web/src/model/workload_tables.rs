//! The live tables beside `kubectl get ds -A`: once the learner has a Deployment or a Service of
//! their own (kind's coredns, local-path provisioner, `kubernetes` and `kube-dns` do not count),
//! what `kubectl get deploy -A` and `kubectl get svc -A` print, from kubectl's own printers.

use dsplay_kubectl::printers::apps_tables::deployment_table;
use dsplay_kubectl::printers::service::service_table;
use dsplay_kubectl::printers::table::{Table, TableOptions};
use dsplay_sim::Store;

/// kind's own objects: in these namespaces, or the API server's `default/kubernetes` Service.
pub(crate) fn is_kinds_own(namespace: Option<&str>, name: Option<&str>) -> bool {
    matches!(namespace, Some("kube-system" | "local-path-storage"))
        || (namespace == Some("default") && name == Some("kubernetes"))
}

/// (command, its output) for each kind the learner created objects of, in that order.
pub fn workload_tables(store: &Store, now: chrono::DateTime<chrono::Utc>) -> Vec<(String, String)> {
    let render = |table: Table| {
        table.render(&TableOptions {
            with_namespace: true,
            ..TableOptions::default()
        })
    };
    let mut tables = Vec::new();
    let deployments: Vec<_> = store.deployments().collect();
    let own = |m: &dsplay_api::types::ObjectMeta| {
        !is_kinds_own(m.namespace.as_deref(), m.name.as_deref())
    };
    if deployments.iter().any(|d| own(&d.metadata)) {
        let table = render(deployment_table(&deployments, now));
        tables.push(("kubectl get deploy -A".to_string(), table));
    }
    let services: Vec<_> = store.services().collect();
    if services.iter().any(|s| own(&s.metadata)) {
        let table = render(service_table(&services, now));
        tables.push(("kubectl get svc -A".to_string(), table));
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_kubectl::{Session, SessionOptions};

    fn printed(session: &mut Session, line: &str) -> String {
        session.execute(line).iter().map(|o| o.text()).collect()
    }

    #[test]
    fn tables_appear_with_the_learners_objects_as_kubectl_prints_them() {
        let mut session = Session::new(SessionOptions::default());
        let cluster = session.cluster();
        assert!(
            workload_tables(cluster.store(), cluster.now()).is_empty(),
            "kind's own only"
        );
        session.execute("kubectl create deployment web --image=nginx --replicas=2");
        session.execute("kubectl expose deployment web --port=80");
        session.execute("kubectl create service clusterip api --tcp=80:8080");
        session.execute("sim advance 10s");
        let cluster = session.cluster();
        let tables = workload_tables(cluster.store(), cluster.now());
        let commands: Vec<&str> = tables.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(commands, ["kubectl get deploy -A", "kubectl get svc -A"]);
        let mut copy = session.clone();
        for (command, table) in &tables {
            assert_eq!(&printed(&mut copy, command), table, "{command}");
        }
        let web = tables[0].1.lines().find(|l| l.starts_with("default "));
        assert!(web.is_some_and(|l| l.contains(" web ")), "{}", tables[0].1);
    }
}
