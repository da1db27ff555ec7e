# Hostile input: huge durations are refused (at most 24h of virtual time per command), the system
# namespaces cannot be deleted, a file that never ends is refused, and user numbers near i64::MAX
# (grace periods, tolerationSeconds, cpu requests) neither wrap nor panic.
sim advance 1e300
sim advance 1000h
sim settle --max 25h
kubectl wait --for=delete pod/x --timeout=1000h
sim now
kubectl delete ns kube-system
kubectl delete ns default
kubectl delete ns kube-public
kubectl get ns
kubectl apply -f /dev/zero
kubectl delete pod x --grace-period=9223372036854775808
sim node add big --cpu -4
kubectl get nodes
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: greedy
spec:
  selector:
    matchLabels: {app: greedy}
  template:
    metadata:
      labels: {app: greedy}
    spec:
      terminationGracePeriodSeconds: 9223372036854775807
      tolerations:
      - key: k
        operator: Exists
        effect: NoExecute
        tolerationSeconds: 9223372036854775807
      containers:
      - name: a
        image: busybox
        resources:
          requests: {cpu: "99999999999999999999"}
      - name: b
        image: busybox
        resources:
          requests: {cpu: "99999999999999999999"}
EOF
sim settle
kubectl get pods -l app=greedy
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: huge
spec:
  nodeName: kind-worker
  terminationGracePeriodSeconds: 9223372036854775807
  tolerations:
  - key: k
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 9223372036854775807
  containers:
  - name: a
    image: busybox
    resources:
      requests: {cpu: "170141183460469231.731687303715884105m"}
EOF
sim settle
kubectl get pod huge
kubectl taint nodes kind-worker k=v:NoExecute
sim advance 1h
kubectl get pod huge
kubectl delete pod huge --wait=false
kubectl get pod huge
kubectl delete pod huge --grace-period=9223372036854775807 --wait=false
kubectl get pod huge
kubectl get pods -l '((('
kubectl get pods -l 'app in (greedy'
kubectl delete pods -l 'x y'
kubectl get ds -l 'a notin ()'
kubectl get nodes --sort-by '{{{'
kubectl get nodes --sort-by '{.metadata.name}' -o name
kubectl taint nodes --all hostile=yes:NoSchedule
kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.spec.taints[*].key}{"\n"}{end}'
