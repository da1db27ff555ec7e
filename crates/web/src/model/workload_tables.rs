//! The live tables beside `kubectl get ds -A`: once the learner has objects of their own of a kind
//! (kind's coredns, local-path provisioner, `kubernetes` and `kube-dns` do not count), what
//! `kubectl get KIND -A` prints for it, from kubectl's own printers: Deployments, StatefulSets,
//! Services with their EndpointSlices (which pods each Service sends to), and volume claims.

use dsplay_api::Kind;
use dsplay_kubectl::printers::get::table_for;
use dsplay_kubectl::printers::table::TableOptions;
use dsplay_sim::Store;

/// kind's own objects: in these namespaces, or the API server's `default/kubernetes` Service
/// (and its EndpointSlice, of the same name).
pub(crate) fn is_kinds_own(namespace: Option<&str>, name: Option<&str>) -> bool {
    matches!(namespace, Some("kube-system" | "local-path-storage"))
        || (namespace == Some("default") && name == Some("kubernetes"))
}

/// The kinds with a live table, in order, and the command whose output it is.
const TABLES: &[(Kind, &str)] = &[
    (Kind::Deployment, "kubectl get deploy -A"),
    (Kind::StatefulSet, "kubectl get sts -A"),
    (Kind::Service, "kubectl get svc -A"),
    (Kind::EndpointSlice, "kubectl get endpointslices -A"),
    (Kind::PersistentVolumeClaim, "kubectl get pvc -A"),
];

/// (command, its output) for each kind the learner created objects of, in that order.
pub fn workload_tables(store: &Store, now: chrono::DateTime<chrono::Utc>) -> Vec<(String, String)> {
    let options = TableOptions {
        with_namespace: true,
        ..TableOptions::default()
    };
    TABLES
        .iter()
        .filter_map(|(kind, command)| {
            let objects = store.list(*kind);
            let own = objects.iter().any(|o| {
                let meta = o.metadata();
                !is_kinds_own(meta.namespace.as_deref(), meta.name.as_deref())
            });
            own.then(|| {
                (
                    command.to_string(),
                    table_for(*kind, &objects, now).render(&options),
                )
            })
        })
        .collect()
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
        assert_eq!(
            commands,
            [
                "kubectl get deploy -A",
                "kubectl get svc -A",
                "kubectl get endpointslices -A"
            ]
        );
        let mut copy = session.clone();
        for (command, table) in &tables {
            assert_eq!(&printed(&mut copy, command), table, "{command}");
        }
        let web = tables[0].1.lines().find(|l| l.starts_with("default "));
        assert!(web.is_some_and(|l| l.contains(" web ")), "{}", tables[0].1);

        // A StatefulSet with a claim template adds its table and the claims'.
        session.execute(
            "kubectl apply -f - <<EOF\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\n\
             spec:\n  serviceName: db\n  selector:\n    matchLabels: {app: db}\n  template:\n    \
             metadata:\n      labels: {app: db}\n    spec:\n      containers:\n      - name: db\n        \
             image: nginx\n  volumeClaimTemplates:\n  - metadata:\n      name: data\n    spec:\n      \
             accessModes: [ReadWriteOnce]\n      resources:\n        requests:\n          storage: 1Gi\nEOF\n\
             sim settle",
        );
        let cluster = session.cluster();
        let tables = workload_tables(cluster.store(), cluster.now());
        let commands: Vec<&str> = tables.iter().map(|(c, _)| c.as_str()).collect();
        assert!(commands.contains(&"kubectl get sts -A"), "{commands:?}");
        assert!(commands.contains(&"kubectl get pvc -A"), "{commands:?}");
        let mut copy = session.clone();
        for (command, table) in &tables {
            assert_eq!(&printed(&mut copy, command), table, "{command}");
        }
    }
}
