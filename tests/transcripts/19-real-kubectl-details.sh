# Details first found by the parity harness (real kubectl v1.32 against `dsplay serve`): --sort-by on
# tables and lists, the order `kubectl taint` leaves taints in, drain's aggregated error, pflag's
# integer errors, unknown commands.
kubectl get nodes --sort-by '{.nope}'
kubectl get nodes --sort-by '{.nope}' -o name
kubectl get nodes kind-worker --sort-by '{{{'
kubectl get nodes --sort-by '{.metadata.name}' -o name
kubectl taint nodes kind-worker first=1:NoSchedule
kubectl taint nodes kind-worker second=2:NoSchedule
kubectl get node kind-worker -o jsonpath='{.spec.taints[*].key}{"\n"}'
kubectl taint nodes kind-worker second=3:NoSchedule --overwrite
kubectl taint nodes kind-worker third=3:NoExecute --overwrite
kubectl get node kind-worker -o jsonpath='{.spec.taints[*].key}{"\n"}'
kubectl taint nodes kind-worker nope- gone:NoSchedule-
kubectl taint nodes kind-worker first- second- third-
kubectl drain kind-worker2
kubectl uncordon kind-worker2
kubectl delete pod x --grace-period=abc
kubectl rollout undo ds/kindnet -n kube-system --to-revision=x
kubectl frobnicate
# Event sources as `get events -o wide` shows them: the scheduler names its instance, the
# DaemonSet controller none, the kubelet its node.
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: sources
spec:
  selector:
    matchLabels: {app: sources}
  template:
    metadata:
      labels: {app: sources}
    spec:
      containers:
      - name: c
        image: busybox
YAML
sim settle
kubectl get events -o wide --field-selector involvedObject.kind=DaemonSet
kubectl get events -o wide --field-selector reason=Scheduled
# Server-side apply and server dry runs report as kubectl does.
kubectl apply --server-side -f - <<YAML
apiVersion: v1
kind: Namespace
metadata:
  name: ssa
YAML
kubectl apply --server-side -f - <<YAML
apiVersion: v1
kind: Namespace
metadata:
  name: ssa
YAML
kubectl apply --dry-run=server -f - <<YAML
apiVersion: v1
kind: Namespace
metadata:
  name: ssa2
YAML
kubectl apply --server-side --dry-run=server -f - <<YAML
apiVersion: v1
kind: Namespace
metadata:
  name: ssa3
YAML
kubectl get ns ssa -o jsonpath='{.metadata.annotations}'
kubectl rollout pause ds/kindnet -n kube-system
kubectl rollout resume ds/kindnet -n kube-system
